/**
 * The canonical request and response: the seam between provider adapters and the scenario engine.
 * Adapters turn a provider's wire request into a CanonicalRequest and render a CanonicalResponse
 * back in the provider's own terms; the engine only ever sees these shapes.
 */

import type { ProviderId } from '../providers/registry.ts';

/** Which wire API a request came in on: the ids of the registered adapters (src/providers/registry.ts). */
export type { ProviderId };

/** A tool call the model made (in an assistant message) or is asked to make (in a response). */
export interface CanonicalToolCall {
  id: string;
  name: string;
  /** Parsed arguments; a string that was not valid JSON is kept as the string. */
  arguments: unknown;
}

/**
 * One message of the conversation, normalized.
 * - system prompts (OpenAI system/developer messages, Anthropic `system`, Gemini `systemInstruction`) → role `system`
 * - tool results (OpenAI `tool` messages, Anthropic `tool_result` blocks, Gemini `functionResponse` parts,
 *   Responses `function_call_output` items) → role `tool`, one message per result, with `toolCallId`
 */
export interface CanonicalMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** All text of the message joined with "\n" (for tool results: the result rendered as text). */
  content: string;
  /** Assistant messages: the tool calls it made. */
  toolCalls?: CanonicalToolCall[];
  /** Tool messages: the call this result answers. */
  toolCallId?: string;
  /** Tool messages: the tool's name when the wire format carries it (Gemini, Anthropic via lookup). */
  toolName?: string;
  /** Tool messages: the provider marked the result as an error. */
  isError?: boolean;
  /** Realtime user messages that came in as audio (their `content` is the transcript, if any yet). */
  audio?: boolean;
}

/** A tool the request offers the model. */
export interface CanonicalTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments, as sent. */
  parameters?: unknown;
  /** The API guarantees the arguments fit `parameters` (OpenAI `strict: true`, Anthropic strict tools): scripted calls are checked. */
  strict?: boolean;
}

/**
 * What a structured-output request asks for, in any provider's terms: OpenAI `response_format` /
 * `text.format`, Anthropic `output_format`, Gemini `responseJsonSchema`/`responseSchema`, Bedrock
 * `outputConfig.textFormat`, Ollama `format`, Mistral/Cohere `response_format`.
 */
export interface CanonicalResponseFormat {
  /** The schema's name where the wire carries one (`json_schema.name`). */
  name: string | null;
  /** The JSON Schema the answer must fit; null for plain JSON mode (`json_object`, `format: "json"`). */
  schema: unknown | null;
}

/**
 * A protocol rule of the provider that the request breaks (a tool call left unanswered, a thinking
 * block dropped): found by the adapter's parse, enforced by the transport core unless the mock
 * or a scenario turns the rules off. `error` is what the real API answers.
 */
export interface ProtocolViolation {
  /** A short stable id (`anthropic.tool-use-without-result`). */
  rule: string;
  /** The provider document the rule reproduces (a URL). */
  doc: string;
  error: CanonicalError;
}

export interface CanonicalRequest {
  provider: ProviderId;
  /** The URL path the request arrived on, after any session prefix was removed (e.g. `/v1/chat/completions`). */
  path: string;
  model: string;
  stream: boolean;
  messages: CanonicalMessage[];
  tools: CanonicalTool[];
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** Everything else the request carried (temperature, max_tokens, stream_options, ...), as sent. */
  params: Record<string, unknown>;
  /** Embeddings requests: the input texts. */
  input?: string[];
  /** Embeddings requests: the vector size to answer with (the requested `dimensions`, else the model's own). */
  dimensions?: number;
  /** The parsed body as it came in. */
  raw: unknown;
  /** Structured output: the format the request asks the answer in; absent for a free-text request. */
  responseFormat?: CanonicalResponseFormat;
  /** The one tool the request forces (`tool_choice` naming a tool, Gemini `ANY` with one allowed name). */
  forcedTool?: string;
  /** Protocol rules the request breaks, as the adapter found them (the core answers the first one's error). */
  violations?: ProtocolViolation[];
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'stop_sequence';

export interface CanonicalUsage {
  inputTokens: number;
  /** All output tokens, reasoning included (as every API counts them). */
  outputTokens: number;
  /** Of `outputTokens`, the reasoning's; 0 when the answer carried none. */
  reasoningTokens?: number;
  /**
   * Set when the engine estimated `reasoningTokens` from the step's reasoning and counted them into
   * its estimated `outputTokens` (the step scripts no `usage`): the output tokens without them. An
   * adapter reports these, and no reasoning tokens, on a request that does not reason
   * (providers/common/reasoning-usage.ts); scripted counts are the author's and stay.
   */
  outputTokensWithoutReasoning?: number;
}

/**
 * The reasoning before an answer. Adapters render it only when the request asks for it the way the
 * real API requires (thinking enabled, `reasoning.summary`, `includeThoughts`), each in its own
 * shape, with signatures or encrypted content minted and checked by the adapter (providers/common/reasoning-seal.ts).
 */
export interface CanonicalReasoning {
  text: string;
  /** Handed over only as opaque data (Anthropic `redacted_thinking`, Bedrock `redactedContent`). */
  redacted: boolean;
}

export interface StreamOptions {
  /** Characters per text delta (and per argument delta of a tool call). */
  chunkSize: number;
  /** Delay between SSE frames. */
  chunkDelayMs: number;
  /** Explicit text deltas; replaces auto-chunking of `text` when given. */
  chunks: string[] | null;
  /** Cut the connection after this many SSE frames (the client sees a network error). */
  disconnectAfterChunks: number | null;
  /** End the stream with the provider's own error event after this many frames (with `error`). */
  errorAfterChunks?: number;
  /** What that error event says. */
  error?: CanonicalStreamError;
}

/**
 * A failure in the middle of a stream: each adapter renders it as its API's own error event
 * (`event: error`, a `data: {"error":…}` chunk, an event-stream exception message). `type` and
 * `status` default per provider when absent.
 */
export interface CanonicalStreamError {
  message: string;
  type?: string;
  status?: number;
}

/** What the engine decided to answer; adapters render it. */
export interface CanonicalResponse {
  /** Minted per response; adapters prefix it as their API does (`chatcmpl-`, `msg_`, `resp_`). */
  id: string;
  /** The model to report: the request's model. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** Text after templating; empty string when the step produced only tool calls. */
  text: string;
  toolCalls: CanonicalToolCall[];
  /** The reasoning before the answer, when the step scripts one. */
  reasoning?: CanonicalReasoning;
  /** The model declined (OpenAI `refusal`): the refusal's text; `text` is then empty. */
  refusal?: string;
  /** A structured answer's value (also in `text` as JSON, or in the forced tool call's arguments). */
  json?: unknown;
  usage: CanonicalUsage;
  finishReason: FinishReason;
  stream: StreamOptions;
  /** Embeddings: one vector per input. */
  embeddings?: number[][];
  /** Extra response headers from the step (`headers`, `echoHeaders`). */
  headers: Record<string, string>;
  /** Realtime turns: the step's `inputTranscript` (what the mock heard in the user's audio). */
  inputTranscript?: string;
  /** Gemini Live: the step's `goAway` (time left before the server disconnects). */
  goAway?: string;
  /**
   * Where the answer's content comes from, when all of it but the per-answer values (ids, `created`),
   * the model and the usage is one step's own, the same object answer after answer (no `{{…}}`, no
   * structured value, no echoed headers): answer templates key on it instead of on the content.
   */
  source?: object;
}

/** An error to render in the provider's own error shape. */
export interface CanonicalError {
  status: number;
  message: string;
  /** Provider error type when the step names one; adapters pick a fitting default from the status otherwise. */
  type?: string;
  code?: string | null;
  param?: string | null;
  headers: Record<string, string>;
  /** Extra data for the body (near misses for a 404 no-match), rendered under the provider's error object. */
  details?: unknown;
}
