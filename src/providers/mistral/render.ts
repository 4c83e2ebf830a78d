/**
 * Mistral's answers: `chat.completion` bodies and `chat.completion.chunk` SSE frames as
 * `@mistralai/mistralai` parses them (snake_case on the wire, usage on the last chunk, a streamed
 * tool call whole in one delta), embeddings lists, and Mistral's error bodies.
 */
import type { RenderedResponse } from '../adapter.ts';
import { chunkText, SSE_DONE, sseFrame } from '../common/sse.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, FinishReason } from '../../scenario/canonical.ts';
import type { MistralToolIds } from './tool-ids.ts';
import { reasoningUsage } from '../common/reasoning-usage.ts';

/** Mistral ids are 32 hex digits; the canonical id is hex already. */
const completionId = (res: CanonicalResponse): string => res.id.replace(/[^0-9a-f]/gi, '').padEnd(32, '0').slice(0, 32);

const FINISH: Record<FinishReason, string> = { stop: 'stop', stop_sequence: 'stop', tool_calls: 'tool_calls', length: 'length', content_filter: 'stop' };

/** Usage: the reasoning counts only on a request that reasons (`mistralReasons`; common/reasoning-usage.ts). */
const usage = (res: CanonicalResponse, request: CanonicalRequest | undefined) => {
  const { inputTokens, outputTokens } = reasoningUsage(res.usage, request === undefined || mistralReasons(request));
  return { prompt_tokens: inputTokens, total_tokens: inputTokens + outputTokens, completion_tokens: outputTokens };
};

function toolCalls(res: CanonicalResponse, ids: MistralToolIds) {
  return res.toolCalls.map((c, index) => ({
    id: ids.wire(c.id),
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    index,
  }));
}

/**
 * Does the model reason on this request? Magistral models on every request
 * (https://docs.mistral.ai/capabilities/reasoning/), other models when the request sets a
 * `reasoning_effort` other than `none`.
 * @example
 *   mistralReasons(request) // true for model 'magistral-medium-latest'
 */
export function mistralReasons(request: CanonicalRequest): boolean {
  const effort = (request.raw as { reasoning_effort?: unknown } | null)?.reasoning_effort;
  return /magistral/i.test(request.model) || (typeof effort === 'string' && effort !== 'none');
}

/**
 * The reasoning the answer shows, as `thinking` chunks: on a request that reasons (`mistralReasons`).
 * Mistral has no opaque form: redacted reasoning shows nothing.
 */
export function mistralThinking(res: CanonicalResponse, request: CanonicalRequest): string | null {
  if (!res.reasoning || res.reasoning.redacted) return null;
  return mistralReasons(request) ? res.reasoning.text : null;
}

/** A `thinking` content chunk (ThinkChunk): its reasoning as text chunks. */
const thinkChunk = (text: string) => ({ type: 'thinking', thinking: [{ type: 'text', text }] });

/** Mistral has no refusal field: a scripted refusal is the model's words. */
const answerText = (res: CanonicalResponse): string => (res.text === '' && res.refusal !== undefined ? res.refusal : res.text);

/**
 * The non-streamed `chat.completion`.
 * @example
 *   renderMistralCompletion(res, ids).choices[0].message.content // 'Hello'
 */
export function renderMistralCompletion(res: CanonicalResponse, ids: MistralToolIds, request?: CanonicalRequest): Record<string, unknown> {
  const calls = toolCalls(res, ids);
  const thinking = request ? mistralThinking(res, request) : null;
  // With reasoning the content is a list of chunks: the thinking, then the answer's text.
  const content = thinking === null ? answerText(res) : [thinkChunk(thinking), ...(answerText(res) ? [{ type: 'text', text: answerText(res) }] : [])];
  return {
    id: completionId(res),
    object: 'chat.completion',
    model: res.model,
    usage: usage(res, request),
    created: res.created,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', tool_calls: calls.length > 0 ? calls : null, content, prefix: false },
        finish_reason: FINISH[res.finishReason],
      },
    ],
  };
}

/**
 * A stream that fails, as Mistral ends one: a last chunk with `finish_reason: "error"` (a value of the
 * SDK's CompletionResponseStreamChoiceFinishReason), then `[DONE]`. The chunk has no field for a
 * message, type or status, so none of the step's reaches the client; the SDK yields the chunk.
 * @example
 *   mistralStreamErrorFrames(res)[0] // 'data: {"id":"…","object":"chat.completion.chunk",…,"finish_reason":"error"}],"usage":{…}}\n\n'
 */
export function mistralStreamErrorFrames(res: CanonicalResponse, request?: CanonicalRequest): string[] {
  const head = { id: completionId(res), object: 'chat.completion.chunk', created: res.created, model: res.model };
  return [sseFrame({ ...head, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }], usage: usage(res, request) }), SSE_DONE];
}

/**
 * The streamed answer: a role frame, text deltas, tool calls whole, the finish with usage, `[DONE]`.
 * @example
 *   renderMistralChunks(res, ids).at(-1) // 'data: [DONE]\n\n'
 */
export function renderMistralChunks(res: CanonicalResponse, ids: MistralToolIds, request?: CanonicalRequest): string[] {
  const head = { id: completionId(res), object: 'chat.completion.chunk', created: res.created, model: res.model };
  const frame = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    sseFrame({ ...head, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
  const frames = [frame({ role: 'assistant', content: '' }, null)];
  const thinking = request ? mistralThinking(res, request) : null;
  // Thinking streams as deltas whose content is a list holding one thinking chunk.
  if (thinking !== null) for (const piece of chunkText(thinking, res.stream.chunkSize)) frames.push(frame({ content: [thinkChunk(piece)] }, null));
  for (const piece of res.stream.chunks ?? chunkText(answerText(res), res.stream.chunkSize)) frames.push(frame({ content: piece }, null));
  const calls = toolCalls(res, ids);
  if (calls.length > 0) frames.push(frame({ tool_calls: calls }, null));
  frames.push(frame({ content: '' }, FINISH[res.finishReason], { usage: usage(res, request) }));
  frames.push(SSE_DONE);
  return frames;
}

/** The embeddings list, as the API sends it (an id, and usage with zero completion tokens). */
export function renderMistralEmbeddings(res: CanonicalResponse, request: CanonicalRequest, vectors: (v: readonly number[]) => unknown): Record<string, unknown> {
  return {
    id: completionId(res),
    object: 'list',
    data: (res.embeddings ?? []).map((v, index) => ({ object: 'embedding', embedding: vectors(v), index })),
    model: request.model,
    usage: { prompt_tokens: res.usage.inputTokens, total_tokens: res.usage.inputTokens, completion_tokens: 0 },
  };
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal_server_error';
  return 'invalid_request_error';
}

/**
 * Mistral's errors: a 401 is the gateway's `{ message: 'Unauthorized', request_id }`; a 422 carries
 * pydantic's `detail` list under `message`; every other error is `{ object: 'error', message, type,
 * param, code }` (near misses of a no-match under `details`).
 * @example
 *   renderMistralError({ status: 429, message: 'slow down', headers: {} }).json // { object: 'error', message: 'slow down', type: 'rate_limited', ... }
 */
export function renderMistralError(given: CanonicalError, requestId: string): RenderedResponse {
  // Mistral validates requests with FastAPI: a client's mistake the shared core caught before the
  // parser (too deep, a bad escape) is a 422 there too, never a bare 400.
  const error: CanonicalError =
    given.status === 400 && given.details === undefined ? { ...given, status: 422, details: [{ type: 'value_error', loc: ['body'], msg: given.message }] } : given;
  const headers = { ...error.headers };
  if (error.status === 401) return { status: 401, headers, json: { message: 'Unauthorized', request_id: requestId } };
  const message = error.status === 422 ? { detail: error.details ?? [] } : error.message;
  // A 422 names the field in `detail[].loc`, not in `param`.
  const param = error.status === 422 ? null : (error.param ?? null);
  const json: Record<string, unknown> = { object: 'error', message, type: error.type ?? errorType(error.status), param, code: error.code ?? null };
  if (error.status !== 422 && error.details !== undefined) json.details = error.details;
  return { status: error.status, headers, json };
}
