/**
 * Ollama's answers as the `ollama` SDK reads them: one JSON object, or NDJSON lines (a line per
 * piece, the last with `done: true`, `done_reason` and the token counts); `/api/embed` vectors;
 * `/api/tags` listings; and Ollama's `{ error }` bodies.
 */
import type { RenderedResponse } from '../adapter.ts';
import { chunkText } from '../common/sse.ts';
import { isObject } from '../common/wire-json.ts';
import { reasoningUsage } from '../common/reasoning-usage.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError, FinishReason } from '../../scenario/canonical.ts';

/** Ollama's JSON content type. */
export const OLLAMA_JSON = { 'content-type': 'application/json; charset=utf-8' } as const;

const DONE_REASON: Record<FinishReason, string> = { stop: 'stop', stop_sequence: 'stop', tool_calls: 'stop', length: 'length', content_filter: 'stop' };

/** Fixed timings (nanoseconds): answers must not change between runs (goldens compare them). */
function counts(res: CanonicalResponse, request: CanonicalRequest) {
  // The reasoning counts only where the model reasons (`ollamaReasons`; common/reasoning-usage.ts).
  const { inputTokens, outputTokens } = reasoningUsage(res.usage, ollamaReasons(request));
  return {
    total_duration: 1_000_000 * (10 + outputTokens),
    load_duration: 1_000_000,
    prompt_eval_count: inputTokens,
    prompt_eval_duration: 100_000 * inputTokens,
    eval_count: outputTokens,
    eval_duration: 1_000_000 * outputTokens,
  };
}

const createdAt = (res: CanonicalResponse) => new Date(res.created * 1000).toISOString();
const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const toolCalls = (res: CanonicalResponse) => res.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments ?? {} } }));

/**
 * Does the request set `think` (true or a level)?
 * @example
 *   ollamaThinks(request) // true for `think: 'high'`
 */
export function ollamaThinks(request: CanonicalRequest): boolean {
  const think = isObject(request.raw) ? request.raw.think : undefined;
  return think === true || think === 'high' || think === 'medium' || think === 'low';
}

/**
 * Does the model reason on this request? Not with `think: false`, which turns a thinking model's
 * thinking off (https://ollama.com/blog/thinking); without `think` a thinking model
 * still thinks (its thinking is not split out), so its tokens count.
 * @example
 *   ollamaReasons(request) // false for `think: false`
 */
export function ollamaReasons(request: CanonicalRequest): boolean {
  return !isObject(request.raw) || request.raw.think !== false;
}

/**
 * The reasoning the answer shows: only when the request sets `think` (true or a level) and the
 * step scripts some; Ollama has no opaque form, so redacted reasoning shows nothing.
 */
export function ollamaThinking(res: CanonicalResponse, request: CanonicalRequest): string | null {
  return ollamaThinks(request) && res.reasoning && !res.reasoning.redacted ? res.reasoning.text : null;
}

/** Ollama has no refusal field: a scripted refusal is the model's words. */
const answerText = (res: CanonicalResponse): string => (res.text === '' && res.refusal !== undefined ? res.refusal : res.text);

/**
 * `/api/chat`: one `ChatResponse`, or its NDJSON lines. `message.thinking` carries the reasoning
 * when the request sets `think`.
 * @example
 *   renderOllamaChat(res, request).message.content // 'Hello'
 */
export function renderOllamaChat(res: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: answerText(res) };
  const thinking = ollamaThinking(res, request);
  if (thinking !== null) message.thinking = thinking;
  if (res.toolCalls.length > 0) message.tool_calls = toolCalls(res);
  return { model: res.model, created_at: createdAt(res), message, done: true, done_reason: DONE_REASON[res.finishReason], ...counts(res, request) };
}

/** The NDJSON lines of a streamed `/api/chat`: thinking pieces first (empty content), then the content. */
export function renderOllamaChatLines(res: CanonicalResponse, request: CanonicalRequest): string[] {
  const head = { model: res.model, created_at: createdAt(res) };
  const thinking = ollamaThinking(res, request);
  const lines = thinking === null ? [] : chunkText(thinking, res.stream.chunkSize).map((piece) => line({ ...head, message: { role: 'assistant', content: '', thinking: piece }, done: false }));
  lines.push(...(res.stream.chunks ?? chunkText(answerText(res), res.stream.chunkSize)).map((content) => line({ ...head, message: { role: 'assistant', content }, done: false })));
  if (res.toolCalls.length > 0) lines.push(line({ ...head, message: { role: 'assistant', content: '', tool_calls: toolCalls(res) }, done: false }));
  lines.push(line({ ...head, message: { role: 'assistant', content: '' }, done: true, done_reason: DONE_REASON[res.finishReason], ...counts(res, request) }));
  return lines;
}

/** `/api/generate`: one `GenerateResponse` (`thinking` beside `response` when the request sets `think`). */
export function renderOllamaGenerate(res: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const thinking = ollamaThinking(res, request);
  return {
    model: res.model,
    created_at: createdAt(res),
    response: answerText(res),
    ...(thinking === null ? {} : { thinking }),
    done: true,
    done_reason: DONE_REASON[res.finishReason],
    context: [1, 2, 3],
    ...counts(res, request),
  };
}

/** The NDJSON lines of a streamed `/api/generate`: thinking pieces first, then the response. */
export function renderOllamaGenerateLines(res: CanonicalResponse, request: CanonicalRequest): string[] {
  const head = { model: res.model, created_at: createdAt(res) };
  const thinking = ollamaThinking(res, request);
  const lines = thinking === null ? [] : chunkText(thinking, res.stream.chunkSize).map((piece) => line({ ...head, response: '', thinking: piece, done: false }));
  lines.push(...(res.stream.chunks ?? chunkText(answerText(res), res.stream.chunkSize)).map((response) => line({ ...head, response, done: false })));
  lines.push(line({ ...head, response: '', done: true, done_reason: DONE_REASON[res.finishReason], context: [1, 2, 3], ...counts(res, request) }));
  return lines;
}

/** `/api/embed` (`embeddings`), or the older `/api/embeddings` (`embedding`, one vector). */
export function renderOllamaEmbed(res: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const vectors = res.embeddings ?? [];
  if (request.path.endsWith('/embeddings')) return { embedding: vectors[0] ?? [] };
  return { model: request.model, embeddings: vectors, total_duration: 1_000_000, load_duration: 1_000_000, prompt_eval_count: res.usage.inputTokens };
}

/**
 * Ollama's error body: `{ error }` (near misses of a no-match under `details`).
 * @example
 *   renderOllamaError({ status: 404, message: "model 'x' not found", headers: {} }).json // { error: "model 'x' not found" }
 */
export function renderOllamaError(error: CanonicalError): RenderedResponse {
  const json: Record<string, unknown> = { error: error.message };
  if (error.details !== undefined) json.details = error.details;
  return { status: error.status, headers: { ...OLLAMA_JSON, ...error.headers }, json };
}

/**
 * A stream that fails, as Ollama ends one: an NDJSON line `{ "error": message }`, which the
 * `ollama` client throws as an Error with that message (type and status have no place in it).
 * @example
 *   ollamaStreamErrorLine({ message: 'model runner crashed' }) // '{"error":"model runner crashed"}\n'
 */
export function ollamaStreamErrorLine(error: CanonicalStreamError): string {
  return line({ error: error.message });
}
