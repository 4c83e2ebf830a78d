/**
 * Cohere v2 answers as `cohere-ai`'s `CohereClientV2` reads them: the chat response (content parts,
 * `tool_calls`, `finish_reason`, `usage` with billed units and tokens), the chat stream's typed
 * events (`message-start`, `content-start/delta/end`, `tool-call-start/delta/end`, `message-end`,
 * then `[DONE]`), embeddings by type, and Cohere's error body `{ id, message }`.
 */
import { randomUUID } from 'node:crypto';
import type { RenderedResponse } from '../adapter.ts';
import { chunkText, SSE_DONE, sseFrame } from '../common/sse.ts';
import { reasoningUsage } from '../common/reasoning-usage.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError, FinishReason } from '../../scenario/canonical.ts';
import { base64Vector } from '../openai-embeddings/index.ts';

export const FINISH: Record<FinishReason, string> = {
  stop: 'COMPLETE',
  stop_sequence: 'STOP_SEQUENCE',
  tool_calls: 'TOOL_CALL',
  length: 'MAX_TOKENS',
  content_filter: 'ERROR',
};

/** Cohere response ids are UUIDs; the canonical id is hex, shaped into one. */
function uuid(res: CanonicalResponse): string {
  const hex = res.id.replace(/[^0-9a-f]/gi, '').padEnd(32, '0').slice(0, 32).toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Usage: the reasoning counts only on a request that reasons (`cohereReasons`; common/reasoning-usage.ts). */
const usage = (res: CanonicalResponse, request: CanonicalRequest | undefined) => {
  const { inputTokens, outputTokens } = reasoningUsage(res.usage, request === undefined || cohereReasons(request));
  const tokens = { input_tokens: inputTokens, output_tokens: outputTokens };
  return { billed_units: tokens, tokens, cached_tokens: 0 };
};

const args = (a: unknown): string => (typeof a === 'string' ? a : JSON.stringify(a));

function toolCalls(res: CanonicalResponse) {
  return res.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: args(c.arguments) } }));
}

/**
 * Does the model reason on this request? When the request enables thinking (`thinking: { type:
 * 'enabled' }`), or leaves it unset on a reasoning model, which reasons by default
 * (https://docs.cohere.com/docs/reasoning); never when it is `disabled`.
 * @example
 *   cohereReasons(request) // false for `thinking: { type: 'disabled' }`
 */
export function cohereReasons(request: CanonicalRequest): boolean {
  const thinking = (request.raw as { thinking?: { type?: unknown } } | null)?.thinking;
  return thinking?.type === 'enabled' || (thinking === undefined && /reasoning/i.test(request.model));
}

/**
 * The reasoning the answer shows as `thinking` content: on a request that reasons (`cohereReasons`).
 * Cohere has no opaque form: redacted reasoning shows nothing.
 */
export function cohereThinking(res: CanonicalResponse, request: CanonicalRequest | undefined): string | null {
  if (!res.reasoning || res.reasoning.redacted || !request) return null;
  return cohereReasons(request) ? res.reasoning.text : null;
}

/**
 * What of a Cohere request the rendering reads besides the answer, model and `stream` (the key of its
 * answers' templates, common/answer-templates.ts): the API; for chat the `thinking` setting, for
 * embed the embedding types and the texts, which the answer echoes.
 * @example
 *   cohereTemplateKey(response, request) // '["cohere",null]' for a chat request without `thinking`
 */
export function cohereTemplateKey(_response: CanonicalResponse, request: CanonicalRequest): string {
  if (request.provider === 'embeddings') return JSON.stringify([request.provider, request.params.embedding_types ?? null, request.input ?? []]);
  const thinking = (request.raw as { thinking?: { type?: unknown } } | null)?.thinking;
  return JSON.stringify([request.provider, thinking === undefined ? null : (thinking?.type ?? false)]);
}

/** Cohere has no refusal field: a scripted refusal is the model's words. */
const answerText = (res: CanonicalResponse): string => (res.text === '' && res.refusal !== undefined ? res.refusal : res.text);

/**
 * The non-streamed `V2ChatResponse`: thinking content first when the request asks for it.
 * @example
 *   renderCohereChat(res).message.content // [{ type: 'text', text: 'Hello' }]
 */
export function renderCohereChat(res: CanonicalResponse, request?: CanonicalRequest): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant' };
  const thinking = cohereThinking(res, request);
  const thought = thinking === null ? [] : [{ type: 'thinking', thinking }];
  if (res.toolCalls.length > 0) {
    // With tool calls the model's text is its plan, as Cohere sends it.
    if (thought.length > 0) message.content = thought;
    message.tool_plan = res.text;
    message.tool_calls = toolCalls(res);
  } else {
    message.content = [...thought, { type: 'text', text: answerText(res) }];
  }
  return { id: uuid(res), message, finish_reason: FINISH[res.finishReason], usage: usage(res, request) };
}

/**
 * The streamed answer: one SSE frame per event, named by `event:` and typed by `type`.
 * @example
 *   renderCohereStream(res)[0] // 'event: message-start\ndata: {"id":"…","type":"message-start",…}\n\n'
 */
export function renderCohereStream(res: CanonicalResponse, request?: CanonicalRequest): string[] {
  const event = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
  const id = uuid(res);
  const pieces = res.stream.chunks ?? chunkText(answerText(res), res.stream.chunkSize);
  const frames = [event('message-start', { id, delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } })];
  const thinking = cohereThinking(res, request);
  // Thinking is content item 0 (type thinking, `thinking` deltas); the text follows as item 1.
  const textIndex = thinking === null ? 0 : 1;
  if (thinking !== null) {
    frames.push(event('content-start', { index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } }));
    for (const piece of chunkText(thinking, res.stream.chunkSize)) frames.push(event('content-delta', { index: 0, delta: { message: { content: { thinking: piece } } } }));
    frames.push(event('content-end', { index: 0 }));
  }
  if (res.toolCalls.length > 0) {
    for (const piece of pieces) frames.push(event('tool-plan-delta', { delta: { message: { tool_plan: piece } } }));
    res.toolCalls.forEach((call, index) => {
      const full = args(call.arguments);
      frames.push(event('tool-call-start', { index, delta: { message: { tool_calls: { id: call.id, type: 'function', function: { name: call.name, arguments: '' } } } } }));
      for (const part of chunkText(full, res.stream.chunkSize)) {
        frames.push(event('tool-call-delta', { index, delta: { message: { tool_calls: { function: { arguments: part } } } } }));
      }
      frames.push(event('tool-call-end', { index }));
    });
  } else {
    frames.push(event('content-start', { index: textIndex, delta: { message: { content: { type: 'text', text: '' } } } }));
    for (const piece of pieces) frames.push(event('content-delta', { index: textIndex, delta: { message: { content: { text: piece } } } }));
    frames.push(event('content-end', { index: textIndex }));
  }
  frames.push(event('message-end', { delta: { finish_reason: FINISH[res.finishReason], usage: usage(res, request) } }));
  frames.push(SSE_DONE);
  return frames;
}

/**
 * A stream that fails, in the only form Cohere's v2 stream has for it: a `message-end` whose delta
 * says `finish_reason: "ERROR"` and carries the message as `error` (the SDK's ChatMessageEndEventDelta).
 * The SDK yields it as an event (it throws on none); the step's type and status have no place here.
 * @example
 *   cohereStreamErrorFrames({ message: 'internal error' }, res)[0] // 'event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"ERROR","error":"internal error",…}}\n\n'
 */
export function cohereStreamErrorFrames(error: CanonicalStreamError, res: CanonicalResponse, request?: CanonicalRequest): string[] {
  return [sseFrame({ type: 'message-end', delta: { finish_reason: 'ERROR', error: error.message, usage: usage(res, request) } }, 'message-end'), SSE_DONE];
}

/** A float vector in one of Cohere's embedding types (quantised as the API does). */
function asType(type: string, v: readonly number[]): unknown {
  if (type === 'float') return v;
  if (type === 'base64') return base64Vector(v);
  if (type === 'int8') return v.map((x) => Math.max(-128, Math.min(127, Math.round(x * 127))));
  if (type === 'uint8') return v.map((x) => Math.max(0, Math.min(255, Math.round((x + 1) * 127.5))));
  // binary / ubinary: one bit per dimension (positive → 1), packed 8 to a byte.
  const bytes: number[] = [];
  for (let i = 0; i < v.length; i += 8) {
    let byte = 0;
    for (let b = 0; b < 8; b++) byte = (byte << 1) | ((v[i + b] ?? 0) > 0 ? 1 : 0);
    bytes.push(type === 'binary' ? byte - 128 : byte);
  }
  return bytes;
}

/**
 * The v2 embed answer: `embeddings` keyed by each requested type.
 * @example
 *   renderCohereEmbed(res, req).embeddings.float[0].length // 1024
 */
export function renderCohereEmbed(res: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const vectors = res.embeddings ?? [];
  const types = (request.params.embedding_types as string[] | undefined) ?? ['float'];
  const embeddings = Object.fromEntries(types.map((t) => [t, vectors.map((v) => asType(t, v))]));
  return {
    id: uuid(res),
    texts: request.input ?? [],
    embeddings,
    meta: { api_version: { version: '2' }, billed_units: { input_tokens: res.usage.inputTokens } },
    response_type: 'embeddings_by_type',
  };
}

/**
 * Cohere's error body: `{ id, message }` (near misses of a no-match under `details`).
 * @example
 *   renderCohereError({ status: 429, message: 'slow down', headers: {} }).json // { id: '…', message: 'slow down' }
 */
export function renderCohereError(error: CanonicalError): RenderedResponse {
  const json: Record<string, unknown> = { id: randomUUID(), message: error.message };
  if (error.details !== undefined) json.details = error.details;
  return { status: error.status, headers: { ...error.headers }, json };
}
