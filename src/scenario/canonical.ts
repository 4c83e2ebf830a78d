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
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'stop_sequence';

export interface CanonicalUsage {
  inputTokens: number;
  outputTokens: number;
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
