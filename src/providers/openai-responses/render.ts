/**
 * Canonical response → OpenAI Responses wire: the `response` object, and the streaming events
 * (`response.created` … `response.completed`, numbered by `sequence_number`) from which the
 * `openai` SDK's ResponseStream rebuilds exactly that object. Every item carries an id, and every
 * item-scoped event names it, because the SDK's accumulator checks both.
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { openAIStreamErrorObject } from '../openai-shared/error.ts';
import { ID_ALPHABETS, randomAlnum, withPrefix, type RandomBytes } from '../common/ids.ts';
import { chunkText, sseFrame } from '../common/sse.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import { ReasoningSeal } from '../common/reasoning-seal.ts';
import { requestReasons } from '../openai-shared/reasoning-models.ts';
import { reasoningUsage } from '../common/reasoning-usage.ts';

type Item = Record<string, unknown>;

/** Request fields the response object echoes, with the API's defaults when the request left them out. */
function echoed(request: CanonicalRequest): Record<string, unknown> {
  const raw = (request.raw ?? {}) as Json;
  const pick = (key: string, fallback: unknown) => (raw[key] === undefined ? fallback : raw[key]);
  const tools = Array.isArray(raw.tools)
    ? raw.tools.map((t: Json) =>
        t.type === 'function'
          ? { type: 'function', name: t.name, description: t.description ?? null, parameters: t.parameters ?? null, strict: t.strict ?? true }
          : t,
      )
    : [];
  return {
    instructions: pick('instructions', null),
    max_output_tokens: pick('max_output_tokens', null),
    parallel_tool_calls: pick('parallel_tool_calls', true),
    previous_response_id: pick('previous_response_id', null),
    reasoning: pick('reasoning', { effort: null, summary: null }),
    store: pick('store', true),
    temperature: pick('temperature', 1),
    text: pick('text', { format: { type: 'text' }, verbosity: 'medium' }),
    tool_choice: pick('tool_choice', 'auto'),
    tools,
    top_p: pick('top_p', 1),
    truncation: pick('truncation', 'disabled'),
    metadata: pick('metadata', {}),
    // The spec types `user` as a string only: present when the request set it.
    ...(typeof raw.user === 'string' ? { user: raw.user } : {}),
  };
}

/** The request fields `echoed` reads. */
const ECHOED = ['instructions', 'max_output_tokens', 'parallel_tool_calls', 'previous_response_id', 'reasoning', 'store', 'temperature', 'text', 'tool_choice', 'tools', 'top_p', 'truncation', 'metadata', 'user'];

/**
 * What of a Responses request the rendering reads besides the answer, model and `stream`: the fields
 * the response object echoes, `reasoning` among them (the key of its answers' templates,
 * common/answer-templates.ts). Undefined for an answer with a reasoning item: its
 * `encrypted_content` is sealed under this mock's key, fresh each time.
 * @example
 *   responsesTemplateKey(response, request) // '[[],[],…]' for a request that sets none of them
 */
export function responsesTemplateKey(response: CanonicalResponse, request: CanonicalRequest): string | undefined {
  if (response.reasoning && reasons(request)) return undefined;
  const raw = (request.raw ?? {}) as Json;
  // A field left out ([]) is echoed as its default, one set to null as null.
  return JSON.stringify(ECHOED.map((key) => (raw[key] === undefined ? [] : [raw[key]])));
}

/** Does the request reason (its body's `reasoning.effort`, the model)? See `requestReasons`. */
const reasons = (request: CanonicalRequest): boolean => requestReasons(request.model, (request.raw ?? {}) as Json);

function usage(response: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  // Chat models (gpt-4o, gpt-4.1) and effort `none` do not reason: they count none (common/reasoning-usage.ts).
  const counted = reasoningUsage(response.usage, reasons(request));
  const { inputTokens, outputTokens } = counted;
  const reasoningTokens = counted.reasoningTokens ?? 0;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

/**
 * An output item's id: the prefix and 48 hex digits, as the API's `fc_68…`/`msg_68…` ids, from the
 * mock's id pool as its response and tool call ids (randomUUIDs without one).
 */
const randomItemId = (prefix: string, random: RandomBytes | undefined) => prefix + randomAlnum(48, ID_ALPHABETS.hex, random);

/** The output items, in order: a reasoning item, a message when there is text or a refusal (or nothing else), then function calls. */
interface Plan {
  reasoning: { id: string; summary: string[]; encrypted: string } | null;
  message: { id: string; text: string; refusal: string | undefined } | null;
  calls: { id: string; callId: string; name: string; arguments: string }[];
}

const SUMMARY_MODES = new Set(['auto', 'concise', 'detailed']);

/** Does the request ask for a reasoning summary (`reasoning.summary`, or the deprecated `reasoning.generate_summary`)? */
function summaryAsked(request: CanonicalRequest): boolean {
  const reasoning = (request.raw as Json | null)?.reasoning;
  return isObject(reasoning) && (SUMMARY_MODES.has(reasoning.summary as string) || SUMMARY_MODES.has(reasoning.generate_summary as string));
}

/**
 * The reasoning item: a reasoning request's (`requestReasons`), when the step scripts reasoning. Its summary parts (the
 * text's paragraphs) only when the request asks for a summary and the reasoning is not redacted;
 * its `encrypted_content` always (the API populates it by default), sealed by this mock.
 */
function reasoningPlan(response: CanonicalResponse, request: CanonicalRequest, random: RandomBytes | undefined, seal: ReasoningSeal): Plan['reasoning'] {
  const reasoning = response.reasoning;
  if (!reasoning || !reasons(request)) return null;
  const summary = summaryAsked(request) && !reasoning.redacted ? reasoning.text.split(/\n\s*\n/).filter((p) => p.trim() !== '') : [];
  return { id: randomItemId('rs_', random), summary, encrypted: seal.encrypt(reasoning.text) };
}

function plan(response: CanonicalResponse, request: CanonicalRequest, random: RandomBytes | undefined, seal: ReasoningSeal): Plan {
  const hasMessage = response.text.length > 0 || response.refusal !== undefined || response.toolCalls.length === 0;
  return {
    reasoning: reasoningPlan(response, request, random, seal),
    message: hasMessage ? { id: randomItemId('msg_', random), text: response.text, refusal: response.refusal } : null,
    calls: response.toolCalls.map((c) => ({
      id: randomItemId('fc_', random),
      callId: c.id,
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
    })),
  };
}

const textPart = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
const refusalPart = (refusal: string) => ({ type: 'refusal', refusal });
const summaryPart = (text: string) => ({ type: 'summary_text', text });

/** A refusal answer's message carries the refusal part only; text (if any) comes first. */
const hasTextPart = (m: NonNullable<Plan['message']>) => m.text !== '' || m.refusal === undefined;

function messageContent(m: NonNullable<Plan['message']>): Item[] {
  return [...(hasTextPart(m) ? [textPart(m.text)] : []), ...(m.refusal === undefined ? [] : [refusalPart(m.refusal)])];
}

function messageItem(m: NonNullable<Plan['message']>, done: boolean): Item {
  return { id: m.id, type: 'message', status: done ? 'completed' : 'in_progress', content: done ? messageContent(m) : [], role: 'assistant' };
}

function reasoningItem(r: NonNullable<Plan['reasoning']>, done: boolean): Item {
  // While in progress the item has no summary yet, and its encrypted content is not final (the SDK says to use the done item's).
  if (!done) return { id: r.id, type: 'reasoning', summary: [], status: 'in_progress' };
  return { id: r.id, type: 'reasoning', summary: r.summary.map(summaryPart), encrypted_content: r.encrypted, status: 'completed' };
}

function callItem(c: Plan['calls'][number], done: boolean): Item {
  return { id: c.id, type: 'function_call', status: done ? 'completed' : 'in_progress', arguments: done ? c.arguments : '', call_id: c.callId, name: c.name };
}

function outputItems(p: Plan): Item[] {
  return [...(p.reasoning ? [reasoningItem(p.reasoning, true)] : []), ...(p.message ? [messageItem(p.message, true)] : []), ...p.calls.map((c) => callItem(c, true))];
}

/** `length` and `content_filter` end a response as `incomplete`, with the reason. */
function incompleteReason(response: CanonicalResponse): string | null {
  if (response.finishReason === 'length') return 'max_output_tokens';
  if (response.finishReason === 'content_filter') return 'content_filter';
  return null;
}

function responseObject(response: CanonicalResponse, request: CanonicalRequest, p: Plan, done: boolean): Record<string, unknown> {
  const reason = incompleteReason(response);
  return {
    id: withPrefix('resp_', response.id),
    object: 'response',
    created_at: response.created,
    status: done ? (reason ? 'incomplete' : 'completed') : 'in_progress',
    background: false,
    completed_at: done && !reason ? response.created : null,
    error: null,
    incomplete_details: done && reason ? { reason } : null,
    model: response.model,
    output: done ? outputItems(p) : [],
    service_tier: 'default',
    top_logprobs: 0,
    // Usage is known once the response is done; the spec has no null for it.
    ...(done ? { usage: usage(response, request) } : {}),
    ...echoed(request),
  };
}

/**
 * The non-streaming `response` object.
 * @example
 *   renderResponsesObject(response, request).output[0].type // 'message'
 */
export function renderResponsesObject(response: CanonicalResponse, request: CanonicalRequest, random?: RandomBytes, seal: ReasoningSeal = new ReasoningSeal()): Record<string, unknown> {
  return responseObject(response, request, plan(response, request, random, seal), true);
}

/**
 * The event objects of a streamed response, in order, with `sequence_number` from 0.
 * @example
 *   renderResponsesEvents(response, request).map((e) => e.type) // ['response.created', 'response.in_progress', ...]
 */
export function renderResponsesEvents(response: CanonicalResponse, request: CanonicalRequest, random?: RandomBytes, seal: ReasoningSeal = new ReasoningSeal()): Record<string, unknown>[] {
  const p = plan(response, request, random, seal);
  const events: Record<string, unknown>[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => events.push({ type, sequence_number: events.length, ...fields });
  emit('response.created', { response: responseObject(response, request, p, false) });
  emit('response.in_progress', { response: responseObject(response, request, p, false) });
  let outputIndex = 0;
  const size = response.stream.chunkSize;
  if (p.reasoning) {
    const r = p.reasoning;
    emit('response.output_item.added', { output_index: outputIndex, item: reasoningItem(r, false) });
    r.summary.forEach((text, summaryIndex) => {
      const at = { item_id: r.id, output_index: outputIndex, summary_index: summaryIndex };
      emit('response.reasoning_summary_part.added', { ...at, part: summaryPart('') });
      for (const delta of chunkText(text, size)) emit('response.reasoning_summary_text.delta', { ...at, delta });
      emit('response.reasoning_summary_text.done', { ...at, text });
      emit('response.reasoning_summary_part.done', { ...at, part: summaryPart(text) });
    });
    emit('response.output_item.done', { output_index: outputIndex, item: reasoningItem(r, true) });
    outputIndex += 1;
  }
  if (p.message) {
    const m = p.message;
    emit('response.output_item.added', { output_index: outputIndex, item: messageItem(m, false) });
    let contentIndex = 0;
    if (hasTextPart(m)) {
      const at = { item_id: m.id, output_index: outputIndex, content_index: contentIndex++ };
      emit('response.content_part.added', { ...at, part: textPart('') });
      const pieces = response.stream.chunks ?? chunkText(m.text, size);
      for (const delta of pieces) emit('response.output_text.delta', { ...at, delta, logprobs: [] });
      emit('response.output_text.done', { ...at, text: m.text, logprobs: [] });
      emit('response.content_part.done', { ...at, part: textPart(m.text) });
    }
    if (m.refusal !== undefined) {
      const at = { item_id: m.id, output_index: outputIndex, content_index: contentIndex++ };
      emit('response.content_part.added', { ...at, part: refusalPart('') });
      for (const delta of chunkText(m.refusal, size)) emit('response.refusal.delta', { ...at, delta });
      emit('response.refusal.done', { ...at, refusal: m.refusal });
      emit('response.content_part.done', { ...at, part: refusalPart(m.refusal) });
    }
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(m, true) });
    outputIndex += 1;
  }
  for (const c of p.calls) {
    const at = { item_id: c.id, output_index: outputIndex };
    emit('response.output_item.added', { output_index: outputIndex, item: callItem(c, false) });
    for (const delta of chunkText(c.arguments, size)) emit('response.function_call_arguments.delta', { ...at, delta });
    emit('response.function_call_arguments.done', { ...at, name: c.name, arguments: c.arguments });
    emit('response.output_item.done', { output_index: outputIndex, item: callItem(c, true) });
    outputIndex += 1;
  }
  const final = responseObject(response, request, p, true);
  emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return events;
}

/**
 * The SSE frames of a streamed response's events (`event:` line plus JSON `data:`), as the API sends them.
 * @example
 *   responsesEventFrames(renderResponsesEvents(response, request))[0] // 'event: response.created\ndata: {...}\n\n'
 */
export function responsesEventFrames(events: Record<string, unknown>[]): string[] {
  return events.map((e) => sseFrame(e, e.type as string));
}

/**
 * The `error` event of a stream that fails: the error object flat, as the API reference types the
 * event, and nested under `error` too, as OpenAI sends it (the SDK's Stream and ResponseStream both
 * read the nested one when present and throw it as an APIError).
 * @example
 *   responsesErrorFrame({ message: 'overloaded' }, 4) // 'event: error\ndata: {"type":"error","code":null,…,"sequence_number":4}\n\n'
 */
export function responsesErrorFrame(error: CanonicalStreamError, sequence: number): string {
  const object = openAIStreamErrorObject(error);
  return sseFrame({ type: 'error', code: object.code, message: object.message, param: object.param, error: object, sequence_number: sequence }, 'error');
}
