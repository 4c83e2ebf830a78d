/**
 * Readable views of recorded traffic, the same for every provider: the conversation a request
 * carried and the answer a response gave. Each adapter's `reader` produces them from its own wire
 * shape; goldens (summaries, drift) and `ghostwire inspect` only see these.
 */
import type { VolatileField } from './volatile-fields.ts';

/** An answer, assembled from a JSON body or a stream's frames. */
export interface AnswerView {
  text: string;
  toolCalls: Array<{ id: string | null; name: string; arguments: unknown }>;
  finishReason: string | null;
  usage: { inputTokens: number; outputTokens: number; reasoningTokens?: number } | null;
  /** The reasoning the answer carried (thinking, a reasoning summary, thought parts), joined; absent when none. */
  reasoning?: string;
  /** The model declined: its refusal text (OpenAI `refusal`). */
  refusal?: string;
  /** A stream that ended with the API's own error event: what it said. Absent when it ended cleanly. */
  error?: StreamErrorView;
}

/** A mid-stream error as recorded: its message, and the type and status where the wire carries them. */
export interface StreamErrorView {
  message: string;
  type: string | null;
  status: number | null;
}

/** One message of a recorded request, reduced for display. */
export interface MessageView {
  role: string;
  text: string;
  toolCalls?: Array<{ name: string; arguments: unknown }>;
  /** Tool results: the call id or tool name it answers. */
  answers?: string;
  isError?: boolean;
}

/** A recorded stream frame: text for SSE and NDJSON, bytes for binary event streams. */
export type RecordedFrame = string | Uint8Array;

/** How an adapter reads its own recorded traffic. */
export interface WireReader {
  /** False when answers are not conversation turns (embeddings): no summary is kept. */
  readonly conversational: boolean;
  /** The model a request asked for (from the body, or the path). */
  model(path: string, body: unknown): string | null;
  /** The conversation a request body carried. */
  messages(body: unknown): MessageView[];
  /** A non-streamed answer body. */
  answer(body: unknown): AnswerView;
  /** A streamed answer from its frames. */
  streamedAnswer(frames: readonly RecordedFrame[]): AnswerView;
  /** The message of an error body, when it has one. */
  errorMessage(body: unknown): string | null;
  /**
   * Request fields that differ between two recordings of the same conversation (signatures and
   * encrypted reasoning passed back verbatim): goldens match requests without them.
   */
  readonly volatileRequest?: readonly VolatileField[];
}

/** An empty answer (nothing readable). */
export const EMPTY_ANSWER: AnswerView = Object.freeze({ text: '', toolCalls: [], finishReason: null, usage: null }) as AnswerView;

/** Tool-call arguments as sent (a JSON string, usually) parsed; text that is not JSON stays text. */
export function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  if (args === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/**
 * The message of an `{ error: { message } }` or `{ message }` body.
 * @example errorMessage({ error: { message: 'slow down' } }) // 'slow down'
 */
export function errorMessage(body: any): string | null {
  const message = body?.error?.message ?? body?.message;
  return typeof message === 'string' ? message : null;
}

/** The model named in a body's `model` field. */
export function bodyModel(body: unknown): string | null {
  const model = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : null;
}

/**
 * The JSON `data:` payloads of SSE frames, with their `event:` names; `[DONE]` and non-JSON skipped.
 * @example ssePayloads(['event: x\ndata: {"a":1}\n\n']) // [{ event: 'x', data: { a: 1 } }]
 */
export function ssePayloads(frames: readonly RecordedFrame[]): Array<{ event: string | null; data: any }> {
  const out: Array<{ event: string | null; data: any }> = [];
  for (const frame of frames) {
    if (typeof frame !== 'string') continue;
    let event: string | null = null;
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) continue;
    try {
      out.push({ event, data: JSON.parse(data.join('\n')) });
    } catch {
      // `[DONE]` and keep-alives carry no JSON.
    }
  }
  return out;
}

/** Text of a string or an array of text parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: any) => (typeof c === 'string' ? c : typeof c?.text === 'string' ? c.text : '')).join('');
}
