// The provider interface the ghost (and the proxy's re-ranking) talk to: one normalized shape for all SDKs.
import type { RetryPolicy } from './retry.ts';
import type { ProviderName } from './tool-names.ts';

/** A tool call the model made, with arguments parsed; `parseError` says why they could not be. */
export interface GhostToolCall {
  id: string;
  /** The provider-facing tool name. */
  name: string;
  arguments: Record<string, unknown>;
  /** The arguments exactly as the model sent them (a JSON string). */
  rawArguments: string;
  parseError?: string;
  /** The id was minted by ghostwire (Gemini may omit ids) and is not sent back on the wire. */
  syntheticId?: boolean;
}

/**
 * An assistant turn in its provider's own terms, to pass back as it came: the reasoning the API
 * requires with its signatures or encrypted content (Anthropic thinking blocks, Responses reasoning
 * items, Gemini parts with `thoughtSignature`, Converse `reasoningContent`), in the answer's order.
 * Tool calls the loop did not run are left out when it is sent back.
 */
export interface NativeTurn {
  provider: ProviderName;
  items: unknown[];
}

/** One message of the conversation, provider neutral. */
export interface GhostMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant messages: the model's reasoning as text (thinking, a summary, thought parts), when it showed any. */
  reasoning?: string;
  /** Assistant messages that carried reasoning: the turn as its provider must get it back. */
  native?: NativeTurn;
  toolCalls?: GhostToolCall[];
  /** Tool messages: the call answered. */
  toolCallId?: string;
  /** Tool messages: the provider-facing name of the tool answered (Gemini needs it). */
  toolName?: string;
  isError?: boolean;
}

/** A tool offered to the model; `parameters` is the raw JSON Schema, normalized per provider on the way out. */
export interface ProviderTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export type CompletionFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface Completion {
  text: string;
  /** The reasoning the answer showed, as text; absent when none. */
  reasoning?: string;
  /** The answer as its provider must get it back, when it carried reasoning (see NativeTurn). */
  native?: NativeTurn;
  toolCalls: GhostToolCall[];
  usage: TokenUsage;
  finishReason: CompletionFinishReason;
  /** The model that answered, as reported. */
  model: string;
  /** Transient failures retried before this answer. */
  retries: number;
}

export interface CompletionOptions {
  model?: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

/**
 * One LLM provider behind the normalized interface.
 * @example
 * const llm = createProvider({ provider: 'openai', apiKey: 'sk-test' });
 * const { text, toolCalls } = await llm.createCompletion([{ role: 'user', content: 'hi' }], []);
 */
export interface LLMProvider {
  readonly name: ProviderName;
  readonly defaultModel: string;
  createCompletion(messages: readonly GhostMessage[], tools: readonly ProviderTool[], options?: CompletionOptions): Promise<Completion>;
}

export interface ProviderOptions {
  provider: ProviderName;
  /** Falls back to the SDK's own environment variable when absent. */
  apiKey?: string;
  /** Base URL of the API, e.g. a mock LLM server's URL (`http://127.0.0.1:PORT/v1` for OpenAI). */
  baseURL?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  defaultModel?: string;
  retry?: RetryPolicy;
  /** Per-request timeout of the SDK. Default 120 s. */
  requestTimeoutMs?: number;
  /** OpenAI: send strict function schemas when the schema allows it. */
  strict?: boolean;
  /** Extra headers on every request (e.g. a mock session header). */
  headers?: Record<string, string>;
  /** Ask for reasoning (thinking, reasoning items, thoughts) and pass it back as each API requires. */
  reasoning?: ReasoningOptions;
}

/**
 * Reasoning on: `effort` for OpenAI's reasoning models, `budgetTokens` for Anthropic and Bedrock
 * thinking (at least 1024; default 2048) and Gemini's `thinkingBudget`.
 */
export interface ReasoningOptions {
  effort?: 'low' | 'medium' | 'high';
  budgetTokens?: number;
}

/** The default thinking budget (Anthropic's minimum is 1024). */
export const DEFAULT_THINKING_BUDGET = 2048;

/** Models that reason, for a run with reasoning on and no model named (the defaults above do not all reason). */
export const DEFAULT_REASONING_MODELS: Record<ProviderName, string> = {
  openai: 'o4-mini',
  anthropic: 'claude-sonnet-4-6',
  gemini: 'gemini-2.5-flash',
  'azure-openai': 'o4-mini',
  bedrock: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
};

/**
 * A native turn's items without the tool calls the loop did not keep (`idOf` reads an item's call id,
 * undefined for items that are not calls).
 * @example keptItems(turn.items, message.toolCalls, (i) => (i as { id?: string }).id)
 */
export function keptItems(items: readonly unknown[], calls: readonly GhostToolCall[] | undefined, idOf: (item: unknown) => string | undefined): unknown[] {
  const kept = new Set((calls ?? []).map((c) => c.id));
  return items.filter((item) => {
    const id = idOf(item);
    return id === undefined || kept.has(id);
  });
}

export const DEFAULT_MODELS: Record<ProviderName, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-6',
  gemini: 'gemini-2.5-flash',
  // Azure calls a deployment, named by `deployment`; this is only the fallback model name.
  'azure-openai': 'gpt-4o-mini',
  bedrock: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
};

export const ZERO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** The SDK request timeout when `requestTimeoutMs` is not given. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/**
 * The client options the OpenAI and Anthropic SDKs take alike: our Retrier's fetch and no SDK
 * retries (the Retrier owns the policy), the timeout, the extra headers.
 * @example
 * const client = new OpenAI(sdkClientOptions(options, retrier.fetch));
 */
export function sdkClientOptions(options: ProviderOptions, fetch: typeof globalThis.fetch) {
  return {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    fetch,
    maxRetries: 0,
    timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    defaultHeaders: options.headers,
  };
}

/**
 * A provider's finish reason through its table of known reasons; an unknown or absent one is 'other'.
 * @example
 * finishReasonFrom({ end_turn: 'stop', tool_use: 'tool_calls' }, 'tool_use') // 'tool_calls'
 */
export function finishReasonFrom(
  table: Readonly<Record<string, CompletionFinishReason>>,
  reason: string | null | undefined,
): CompletionFinishReason {
  return (reason != null && Object.hasOwn(table, reason) ? table[reason] : undefined) ?? 'other';
}

/**
 * Parses a tool call's argument string; never throws.
 * @example
 *   parseArguments('{"city":"Paris"}').arguments // { city: 'Paris' }; parseArguments('[1]').parseError is set
 */
export function parseArguments(raw: string | undefined): Pick<GhostToolCall, 'arguments' | 'rawArguments' | 'parseError'> {
  const text = raw ?? '';
  if (text.trim() === '') return { arguments: {}, rawArguments: text };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { arguments: value as Record<string, unknown>, rawArguments: text };
    }
    return { arguments: {}, rawArguments: text, parseError: `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}` };
  } catch (error) {
    return { arguments: {}, rawArguments: text, parseError: `arguments are not valid JSON: ${(error as Error).message}` };
  }
}
