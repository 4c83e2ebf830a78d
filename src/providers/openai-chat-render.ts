/**
 * Canonical response → `chat.completion` JSON or `chat.completion.chunk` SSE frames, field by
 * field as the API sends them (checked against OpenAI's OpenAPI description in the tests).
 */
import type { RenderedResponse } from './adapter.ts';
import { withPrefix } from './ids.ts';
import { chunkText, SSE_DONE, sseFrame } from './sse.ts';
import type { CanonicalRequest, CanonicalResponse, CanonicalToolCall, FinishReason } from '../scenario/canonical.ts';

type Json = Record<string, unknown>;

/** What the API says about the backend; constant so goldens stay stable. */
const SYSTEM_FINGERPRINT = 'fp_ghostwire';
/** Padding for `obfuscation` (the API pads chunks to blur their sizes); a slice of it per chunk. */
const OBFUSCATION_PAD = 'Qz7Xk2Lm9Pw4Rt6Vb1Nc8Hd3Jf5Gs0Ya';

/** OpenAI has no `stop_sequence`: a stop sequence ends the turn with `stop`. */
export function openAIFinishReason(reason: FinishReason): string {
  return reason === 'stop_sequence' ? 'stop' : reason;
}

/** Usage with the detail objects the API always includes. */
export function openAIUsage(res: CanonicalResponse): Json {
  const { inputTokens, outputTokens } = res.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** Arguments as the wire carries them: a JSON string (a string kept as sent). */
export function argumentsText(call: CanonicalToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

function serviceTier(req: CanonicalRequest): string {
  const asked = req.params.service_tier;
  return typeof asked === 'string' && asked !== 'auto' ? asked : 'default';
}

function choiceCount(req: CanonicalRequest): number {
  const n = req.params.n;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1;
}

/**
 * The non-streaming `chat.completion` body.
 * @example
 *   renderChatCompletion(response, request).choices[0].message.content
 */
export function renderChatCompletion(res: CanonicalResponse, req: CanonicalRequest): Json {
  const message: Json = {
    role: 'assistant',
    // A tool-call-only answer has `content: null`, as the API sends it.
    content: res.text === '' && res.toolCalls.length > 0 ? null : res.text,
    refusal: null,
    annotations: [],
  };
  if (res.toolCalls.length > 0) {
    message.tool_calls = res.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsText(c) } }));
  }
  const choices = Array.from({ length: choiceCount(req) }, (_, index) => ({
    index,
    message,
    logprobs: null,
    finish_reason: openAIFinishReason(res.finishReason),
  }));
  return {
    id: withPrefix('chatcmpl-', res.id),
    object: 'chat.completion',
    created: res.created,
    model: res.model,
    choices,
    usage: openAIUsage(res),
    service_tier: serviceTier(req),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** The deltas of one choice, in the API's order: role, text, each tool call (head, then argument pieces), finish. */
function choiceDeltas(res: CanonicalResponse): { delta: Json; finish: string | null }[] {
  const out: { delta: Json; finish: string | null }[] = [];
  const size = res.stream.chunkSize;
  const pieces = res.stream.chunks ?? chunkText(res.text, size);
  const hasText = res.text !== '' || (res.stream.chunks?.length ?? 0) > 0;
  const calls = res.toolCalls.map((call, index) => ({
    head: { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
    args: chunkText(argumentsText(call), size).map((a) => ({ index, function: { arguments: a } })),
  }));
  if (hasText || calls.length === 0) {
    out.push({ delta: { role: 'assistant', content: '', refusal: null }, finish: null });
    for (const piece of pieces) out.push({ delta: { content: piece }, finish: null });
    for (const c of calls) {
      out.push({ delta: { tool_calls: [c.head] }, finish: null });
      for (const a of c.args) out.push({ delta: { tool_calls: [a] }, finish: null });
    }
  } else {
    // A tool-call-only answer opens with the role and the first call's head in one delta.
    calls.forEach((c, i) => {
      const delta = i === 0 ? { role: 'assistant', content: null, tool_calls: [c.head], refusal: null } : { tool_calls: [c.head] };
      out.push({ delta, finish: null });
      for (const a of c.args) out.push({ delta: { tool_calls: [a] }, finish: null });
    });
  }
  out.push({ delta: {}, finish: openAIFinishReason(res.finishReason) });
  return out;
}

/**
 * The streamed answer: complete SSE frames ending in `data: [DONE]`.
 * @example
 *   renderChatChunks(response, request).at(-1) // 'data: [DONE]\n\n'
 */
export function renderChatChunks(res: CanonicalResponse, req: CanonicalRequest): string[] {
  const options = (req.params.stream_options ?? {}) as Json;
  const includeUsage = options.include_usage === true;
  const obfuscate = options.include_obfuscation !== false;
  const head: Json = { id: withPrefix('chatcmpl-', res.id), object: 'chat.completion.chunk', created: res.created, model: res.model };
  const tail: Json = { service_tier: serviceTier(req), system_fingerprint: SYSTEM_FINGERPRINT };
  const frame = (choices: unknown[], usage: unknown, padFrom: number): string => {
    const chunk: Json = { ...head, choices, ...tail };
    if (includeUsage) chunk.usage = usage;
    if (obfuscate) chunk.obfuscation = OBFUSCATION_PAD.slice(0, 1 + (padFrom % 12));
    return sseFrame(chunk);
  };
  const frames: string[] = [];
  const deltas = choiceDeltas(res);
  for (let index = 0; index < choiceCount(req); index++) {
    for (const d of deltas) {
      const choice = { index, delta: d.delta, logprobs: null, finish_reason: d.finish };
      frames.push(frame([choice], null, frames.length));
    }
  }
  if (includeUsage) frames.push(frame([], openAIUsage(res), frames.length));
  frames.push(SSE_DONE);
  return frames;
}

/**
 * JSON or SSE as the request asked.
 * @example
 *   renderChat(response, request).sse?.length
 */
export function renderChat(res: CanonicalResponse, req: CanonicalRequest): RenderedResponse {
  const headers = { 'openai-version': '2020-10-01', ...res.headers };
  if (!req.stream) return { status: 200, headers, json: renderChatCompletion(res, req) };
  return {
    status: 200,
    headers,
    sse: renderChatChunks(res, req),
    stream: { chunkDelayMs: res.stream.chunkDelayMs, disconnectAfterChunks: res.stream.disconnectAfterChunks },
  };
}
