// Gemini generateContent behind the LLMProvider interface (official `@google/genai`, unmodified).
import type { GoogleGenAI as GoogleGenAIClient, Content, FunctionDeclaration, GenerateContentResponse, Part, Schema } from '@google/genai';
import { optionalPeer } from '../lazy/index.ts';
import {
  DEFAULT_MODELS,
  DEFAULT_REASONING_MODELS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  finishReasonFrom,
  type Completion,
  type CompletionFinishReason,
  type CompletionOptions,
  type GhostMessage,
  type GhostToolCall,
  type LLMProvider,
  type NativeTurn,
  type ProviderOptions,
  type ProviderTool,
  type ReasoningOptions,
} from './provider.ts';
import { Retrier } from './retry.ts';
import { normalizeSchema } from './schema-normalize.ts';
type GoogleGenAI = GoogleGenAIClient;
const GoogleGenAI = optionalPeer<typeof GoogleGenAIClient>('@google/genai', 'GoogleGenAI');

/**
 * Builds Gemini's systemInstruction and contents: function responses and following user text share one user turn.
 * @example
 *   const { systemInstruction, contents } = toGeminiContents([{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'hi' }]);
 */
export function toGeminiContents(messages: readonly GhostMessage[], signatures: ReadonlyMap<string, string> = new Map()): { systemInstruction: string; contents: Content[] } {
  const system: string[] = [];
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]): void => {
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') push('user', [{ text: m.content }]);
    else if (m.role === 'tool') {
      const response = m.isError ? { error: m.content } : { result: m.content };
      const id = m.toolCallId && !m.toolCallId.startsWith(SYNTHETIC_PREFIX) ? { id: m.toolCallId } : {};
      push('user', [{ functionResponse: { ...id, name: m.toolName ?? '', response } }]);
    } else {
      // Native parts go back as they came, each thoughtSignature on its part (Gemini 3 refuses a call without it).
      const native = keptParts(m);
      const parts: Part[] = native ?? (m.content ? [{ text: m.content }] : []);
      for (const c of native ? [] : (m.toolCalls ?? [])) {
        // A call goes back with the thought signature it came with: Gemini 3 refuses a function-calling loop without them.
        const signature = signatures.get(c.id);
        parts.push({ functionCall: { ...(c.syntheticId ? {} : { id: c.id }), name: c.name, args: c.arguments }, ...(signature ? { thoughtSignature: signature } : {}) });
      }
      push('model', parts.length ? parts : [{ text: '' }]);
    }
  }
  return { systemInstruction: system.join('\n\n'), contents };
}

const SYNTHETIC_PREFIX = 'ghost-call-';

/**
 * A native Gemini turn's parts without its calls when the loop ran none (it keeps all of a turn's calls
 * or none); undefined when none, or only thoughts would be left.
 */
function keptParts(m: GhostMessage): Part[] | undefined {
  if (m.native?.provider !== 'gemini') return undefined;
  const calls = (m.toolCalls?.length ?? 0) > 0;
  const parts = (m.native.items as Part[]).filter((p) => calls || !p.functionCall);
  return parts.some((p) => !p.thought) ? parts : undefined;
}

/**
 * An answer's parts, when they carried thoughts or thought signatures: what the next request must pass back.
 * @example nativeParts(candidate.content.parts)?.items // [{ functionCall: {…}, thoughtSignature: '…' }]
 */
export function nativeParts(parts: readonly Part[]): NativeTurn | undefined {
  if (!parts.some((p) => p.thought || p.thoughtSignature)) return undefined;
  return { provider: 'gemini', items: parts.map((p) => ({ ...p })) };
}

const FINISH: Readonly<Record<string, CompletionFinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
};

/** Gemini reports STOP even when it calls functions, and may leave the reason out. */
function finish(reason: string | undefined, hasCalls: boolean): CompletionFinishReason {
  return hasCalls ? 'tool_calls' : finishReasonFrom(FINISH, reason ?? 'STOP');
}

/**
 * The Gemini provider.
 * @example
 * const llm = new GeminiProvider({ provider: 'gemini', apiKey: 'test', baseURL: server.url });
 */
export class GeminiProvider implements LLMProvider {
  readonly name = 'gemini' as const;
  readonly defaultModel: string;
  private readonly client: GoogleGenAI;
  private readonly retrier: Retrier;
  /** Gemini may omit call ids; minted ids count up per provider instance so runs stay deterministic. */
  private minted = 0;
  private readonly reasoning: ReasoningOptions | undefined;
  /** The thought signature each call came with, by call id, to pass back as received (bounded). */
  private readonly signatures = new Map<string, string>();

  constructor(options: ProviderOptions) {
    this.reasoning = options.reasoning;
    this.defaultModel = options.defaultModel ?? (options.reasoning ? DEFAULT_REASONING_MODELS : DEFAULT_MODELS).gemini;
    this.retrier = new Retrier('gemini', options.retry, options.fetch);
    // No retryOptions: the SDK then makes one attempt and our Retrier owns the policy.
    this.client = new GoogleGenAI({
      apiKey: options.apiKey ?? process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY ?? 'missing-api-key',
      httpOptions: {
        ...(options.baseURL ? { baseUrl: options.baseURL } : {}),
        fetch: this.retrier.fetch,
        timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        ...(options.headers ? { headers: options.headers } : {}),
      },
    });
  }

  declarations(tools: readonly ProviderTool[]): FunctionDeclaration[] {
    return tools.map((t) => {
      const parameters = normalizeSchema(t.parameters, 'gemini') as Schema;
      // A tool without parameters is declared without a schema: Gemini rejects an empty OBJECT.
      const empty = !parameters.properties || Object.keys(parameters.properties).length === 0;
      return { name: t.name, description: t.description, ...(empty ? {} : { parameters }) };
    });
  }

  async createCompletion(messages: readonly GhostMessage[], tools: readonly ProviderTool[], options: CompletionOptions = {}): Promise<Completion> {
    const { systemInstruction, contents } = toGeminiContents(messages, this.signatures);
    const request = {
      model: options.model ?? this.defaultModel,
      contents,
      config: {
        ...(systemInstruction ? { systemInstruction } : {}),
        ...(tools.length ? { tools: [{ functionDeclarations: this.declarations(tools) }] } : {}),
        ...(options.maxTokens !== undefined ? { maxOutputTokens: options.maxTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(this.reasoning
          ? { thinkingConfig: { includeThoughts: true, ...(this.reasoning.budgetTokens !== undefined ? { thinkingBudget: this.reasoning.budgetTokens } : {}) } }
          : {}),
        ...(options.signal ? { abortSignal: options.signal } : {}),
      },
    };
    const { value: response, retries } = await this.retrier.run(() => this.client.models.generateContent(request), options.signal);
    return this.normalize(response, retries, request.model);
  }

  private normalize(response: GenerateContentResponse, retries: number, model: string): Completion {
    const candidate = response.candidates?.[0];
    const parts = candidate?.content?.parts ?? [];
    const text = parts.flatMap((p) => (typeof p.text === 'string' && !p.thought ? [p.text] : [])).join('');
    const toolCalls: GhostToolCall[] = parts.flatMap((p) => {
      const call = p.functionCall;
      if (!call) return [];
      const args = call.args ?? {};
      const synthetic = !call.id;
      const id = call.id ?? `${SYNTHETIC_PREFIX}${++this.minted}`;
      if (p.thoughtSignature) {
        this.signatures.set(id, p.thoughtSignature);
        if (this.signatures.size > 10_000) this.signatures.delete(this.signatures.keys().next().value as string);
      }
      return [{
        id,
        name: call.name ?? '',
        arguments: args,
        rawArguments: JSON.stringify(args),
        ...(synthetic ? { syntheticId: true } : {}),
      }];
    });
    const u = response.usageMetadata;
    const prompt = u?.promptTokenCount ?? 0;
    const completion = (u?.candidatesTokenCount ?? 0) + (u?.thoughtsTokenCount ?? 0);
    const reasoning = parts.flatMap((p) => (p.thought && typeof p.text === 'string' ? [p.text] : [])).join('');
    const native = nativeParts(parts);
    return {
      text,
      ...(reasoning ? { reasoning } : {}),
      ...(native ? { native } : {}),
      toolCalls,
      usage: { promptTokens: prompt, completionTokens: completion, totalTokens: u?.totalTokenCount ?? prompt + completion },
      finishReason: finish(candidate?.finishReason, toolCalls.length > 0),
      model: response.modelVersion ?? model,
      retries,
    };
  }
}
