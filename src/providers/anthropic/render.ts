/**
 * Canonical response → Anthropic Messages wire: the `message` object, and the SSE event sequence
 * (`message_start`, `ping`, `content_block_*`, `message_delta`, `message_stop`) from which
 * `@anthropic-ai/sdk`'s MessageStream rebuilds exactly that object.
 */
import type { RenderedResponse } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError, FinishReason } from '../../scenario/canonical.ts';
import { randomAlnum, withPrefix, type RandomBytes } from '../common/ids.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { chunkText, sseFrame } from '../common/sse.ts';
import { withReasoningUsage } from '../common/reasoning-usage.ts';
import { continuesToolLoop, THINKING_PURPOSE, thinkingMode } from './thinking.ts';

const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  stop_sequence: 'stop_sequence',
  content_filter: 'refusal',
};

/** The `error.type` Anthropic sends for a status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/**
 * Anthropic's `error.type` for an HTTP status.
 * @example
 *   anthropicErrorType(529) // 'overloaded_error'
 */
function anthropicErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * A request id in Anthropic's format (`req_` + 24 alphanumerics), sent as `request-id`; from the
 * mock's pool when given (an answer's draws must come from it: common/answer-templates.ts).
 * @example
 *   mintAnthropicRequestId(random) // 'req_011CRf6mEqWGYbKMLbXkRWHs'
 */
export function mintAnthropicRequestId(random?: RandomBytes): string {
  return `req_011C${randomAlnum(20, undefined, random)}`;
}

function stopSequence(response: CanonicalResponse, request: CanonicalRequest): string | null {
  if (response.finishReason !== 'stop_sequence') return null;
  const sequences = request.params.stop_sequences;
  return Array.isArray(sequences) && typeof sequences[0] === 'string' ? sequences[0] : null;
}

/** A thinking block as the message carries it (`thinking` with its signature, or `redacted_thinking`). */
type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** The kind of thinking block an answer opens with: none, redacted, or thinking with its text shown or omitted. */
type ThinkingKind = null | 'redacted' | 'shown' | 'omitted';

/**
 * Does Claude think on this request? Only when the request turns thinking on, and, in a tool loop
 * already under way, only when thinking is interleaved (otherwise Claude thinks once, at the start
 * of its turn). Without thinking there is no thinking block and no thinking in the output tokens.
 */
function thinks(request: CanonicalRequest, mode = thinkingMode(request.params, request.headers)): boolean {
  return mode.enabled && (mode.interleaved || !continuesToolLoop(request));
}

/** Which thinking block an answer opens with: one only when Claude thinks on this request (`thinks`). */
function thinkingKind(response: CanonicalResponse, request: CanonicalRequest, seal: ReasoningSeal | undefined): ThinkingKind {
  if (!response.reasoning || !seal) return null;
  const mode = thinkingMode(request.params, request.headers);
  if (!thinks(request, mode)) return null;
  if (response.reasoning.redacted) return 'redacted';
  return mode.omitted ? 'omitted' : 'shown';
}

/**
 * The answer with the usage it reports: the step's scripted thinking counts into `output_tokens`
 * only when Claude thinks on the request. "Thinking tokens [are] billed as output tokens" when
 * thinking is on (https://platform.claude.com/docs/en/build-with-claude/extended-thinking); a
 * request without it has no thinking to bill.
 * @example
 *   anthropicAnswer(response, request).usage.reasoningTokens // undefined without `thinking`
 */
export function anthropicAnswer(response: CanonicalResponse, request: CanonicalRequest): CanonicalResponse {
  return withReasoningUsage(response, thinks(request));
}

/**
 * The thinking block an answer opens with (see `thinkingKind`), signed (or, redacted, encrypted)
 * with this mock's seal.
 */
export function thinkingBlock(response: CanonicalResponse, request: CanonicalRequest, seal: ReasoningSeal | undefined): ThinkingBlock | null {
  const kind = thinkingKind(response, request, seal);
  if (kind === null) return null;
  if (kind === 'redacted') return { type: 'redacted_thinking', data: seal!.encrypt(response.reasoning!.text) };
  const thinking = kind === 'omitted' ? '' : response.reasoning!.text;
  return { type: 'thinking', thinking, signature: seal!.sign(THINKING_PURPOSE, thinking) };
}

/**
 * What the message (and its stream) reads of the request besides its model and `stream`, for answer
 * templates (common/answer-templates.ts): the `stop_sequence` a stop-sequence answer names, and the
 * thinking block's kind. A signed block is this mock's seal's: its templates are that seal's alone
 * (its id in the key). Redacted thinking is encrypted afresh (a random IV) each time: undefined,
 * rendered each time.
 * @example
 *   anthropicTemplateKey(response, request, seal) // '[null,null]' for a text answer
 */
export function anthropicTemplateKey(response: CanonicalResponse, request: CanonicalRequest, seal: ReasoningSeal | undefined): string | undefined {
  const kind = thinkingKind(response, request, seal);
  if (kind === 'redacted') return undefined;
  // Without a seal there is no block, but a thinking request still counts the thinking: not keyed by kind alone.
  if (!seal && response.reasoning && thinks(request)) return undefined;
  return JSON.stringify([stopSequence(response, request), kind === null ? null : `${kind}:${seal!.id}`]);
}

function usage(response: CanonicalResponse, outputTokens: number, thinking: ThinkingBlock | null): Record<string, unknown> {
  return {
    input_tokens: response.usage.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    // Of output_tokens, the thinking's (the API counts thinking inside output_tokens); null without
    // thinking, as the SDK's Usage types it (`OutputTokensDetails | null`, a field always present).
    output_tokens_details: thinking ? { thinking_tokens: response.usage.reasoningTokens ?? 0 } : null,
    server_tool_use: null,
    service_tier: 'standard',
  };
}

/** Whether the message carries a text block: when there is text, or nothing else to say (a refusal says it in stop_details). */
function hasTextBlock(response: CanonicalResponse): boolean {
  return response.text.length > 0 || (response.toolCalls.length === 0 && response.refusal === undefined);
}

/** `stop_reason`: a refusal is `refusal` whatever the step's finish reason. */
const stopReason = (response: CanonicalResponse): string => (response.refusal !== undefined ? 'refusal' : STOP_REASONS[response.finishReason]);

/** `stop_details` of a refusal: its explanation is the step's refusal text. */
const stopDetails = (response: CanonicalResponse): Record<string, unknown> | null =>
  response.refusal !== undefined ? { type: 'refusal', category: null, explanation: response.refusal } : null;

function envelope(response: CanonicalResponse, content: unknown[]): Record<string, unknown> {
  return {
    id: withPrefix('msg_', response.id),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    container: null,
    usage: usage(response, 0, null),
  };
}

/**
 * The non-streaming `message` object.
 * @example
 *   renderAnthropicMessage(response, request).stop_reason // 'end_turn'
 */
export function renderAnthropicMessage(answer: CanonicalResponse, request: CanonicalRequest, seal?: ReasoningSeal): Record<string, unknown> {
  const response = anthropicAnswer(answer, request);
  const content: unknown[] = [];
  const thinking = thinkingBlock(response, request, seal);
  if (thinking) content.push(thinking);
  if (hasTextBlock(response)) content.push({ type: 'text', text: response.text, citations: null });
  for (const call of response.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments ?? {}, caller: { type: 'direct' } });
  }
  return {
    ...envelope(response, content),
    stop_reason: stopReason(response),
    stop_sequence: stopSequence(response, request),
    stop_details: stopDetails(response),
    usage: usage(response, response.usage.outputTokens, thinking),
  };
}

/**
 * The SSE frames of a streamed message, each with its `event:` line (the SDK skips frames without one).
 * @example
 *   renderAnthropicStream(response, request)[0] // 'event: message_start\ndata: {...}\n\n'
 */
export function renderAnthropicStream(answer: CanonicalResponse, request: CanonicalRequest, seal?: ReasoningSeal): string[] {
  const response = anthropicAnswer(answer, request);
  const frames: string[] = [];
  const emit = (data: { type: string } & Record<string, unknown>) => frames.push(sseFrame(data, data.type));
  // The real API counts the first output token in message_start; message_delta carries the total.
  emit({ type: 'message_start', message: { ...envelope(response, []), usage: usage(response, Math.min(1, response.usage.outputTokens), null) } });
  frames.push(sseFrame({ type: 'ping' }, 'ping'));
  let index = 0;
  const thinking = thinkingBlock(response, request, seal);
  if (thinking?.type === 'redacted_thinking') {
    // Redacted thinking arrives whole in its content_block_start.
    emit({ type: 'content_block_start', index, content_block: thinking });
    emit({ type: 'content_block_stop', index });
    index += 1;
  } else if (thinking) {
    emit({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const piece of thinking.thinking === '' ? [] : chunkText(thinking.thinking, response.stream.chunkSize)) {
      emit({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
    }
    // The signature comes last, just before the block's content_block_stop.
    emit({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: thinking.signature } });
    emit({ type: 'content_block_stop', index });
    index += 1;
  }
  if (hasTextBlock(response)) {
    emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } });
    const pieces = response.stream.chunks ?? chunkText(response.text, response.stream.chunkSize);
    for (const text of pieces) emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    emit({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const call of response.toolCalls) {
    emit({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {}, caller: { type: 'direct' } },
    });
    const json = JSON.stringify(call.arguments ?? {});
    // An empty input still gets one (empty) delta, as the API sends.
    const pieces = json === '{}' ? [''] : chunkText(json, response.stream.chunkSize);
    for (const partial_json of pieces) emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    emit({ type: 'content_block_stop', index });
    index += 1;
  }
  emit({
    type: 'message_delta',
    delta: { stop_reason: stopReason(response), stop_sequence: stopSequence(response, request), stop_details: stopDetails(response), container: null },
    usage: {
      input_tokens: response.usage.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: response.usage.outputTokens,
      output_tokens_details: thinking ? { thinking_tokens: response.usage.reasoningTokens ?? 0 } : null,
      server_tool_use: null,
    },
  });
  emit({ type: 'message_stop' });
  return frames;
}

/**
 * Anthropic's error body: `{ type: 'error', error: { type, message }, request_id }`; near misses of a
 * no-match go under `error.details`, which the SDK exposes as `err.details`.
 * @example
 *   anthropicErrorBody({ status: 529, message: 'busy', headers: {} }, 'req_1').error.type // 'overloaded_error'
 */
function anthropicErrorBody(error: CanonicalError, requestId: string): { type: 'error'; error: Record<string, unknown>; request_id: string } {
  const inner: Record<string, unknown> = { type: error.type ?? anthropicErrorType(error.status), message: error.message };
  if (error.details !== undefined) inner.details = error.details;
  return { type: 'error', error: inner, request_id: requestId };
}

/**
 * The `error` event of a stream that fails, as the Messages API streams it: the SDK's Stream throws
 * it as an APIError with the event's `error.type`. The status (a 500 when the step gives none)
 * picks the type the step leaves out (529 → `overloaded_error`).
 * @example
 *   anthropicStreamErrorFrame({ message: 'Overloaded', status: 529 })
 *   // 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
 */
export function anthropicStreamErrorFrame(error: CanonicalStreamError): string {
  return sseFrame({ type: 'error', error: { type: error.type ?? anthropicErrorType(error.status ?? 500), message: error.message } }, 'error');
}

/** A rendered Anthropic error with the step's headers (`retry-after`) and `request-id`. */
export function renderAnthropicError(error: CanonicalError): RenderedResponse {
  const requestId = mintAnthropicRequestId();
  return {
    status: error.status,
    headers: { 'request-id': requestId, ...error.headers },
    json: anthropicErrorBody(error, requestId),
  };
}
