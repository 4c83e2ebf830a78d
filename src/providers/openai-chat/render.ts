/**
 * Canonical response → `chat.completion` JSON or `chat.completion.chunk` SSE frames, field by
 * field as the API sends them (checked against OpenAI's OpenAPI description in the tests).
 */
import type { RenderedResponse } from '../adapter.ts';
import { withPrefix } from '../common/ids.ts';
import { LazyStream } from '../common/lazy-stream.ts';
import {
  argumentsText,
  chatCompletionText,
  choiceCount,
  namedToolChoice,
  openAIFinishReason,
  openAIUsage,
  reasoningContent,
  renderChatCompletion,
  serviceTier,
  SYSTEM_FINGERPRINT,
} from './completion.ts';
import { chunkText, SSE_DONE } from '../common/sse.ts';
import { requestReasons } from '../openai-shared/reasoning-models.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

export { argumentsText, openAIFinishReason, openAIUsage, renderChatCompletion };

type Json = Record<string, unknown>;

/** Padding for `obfuscation` (the API pads chunks to blur their sizes); a slice of it per chunk. */
const OBFUSCATION_PAD = 'Qz7Xk2Lm9Pw4Rt6Vb1Nc8Hd3Jf5Gs0Ya';

/** The deltas of one choice as JSON, in the API's order: role, text, each tool call (head, then argument pieces), finish. */
function choiceDeltas(res: CanonicalResponse, req: CanonicalRequest): { delta: string; finish: string }[] {
  const out: { delta: string; finish: string }[] = [];
  const none = 'null';
  const push = (delta: unknown) => out.push({ delta: JSON.stringify(delta), finish: none });
  const size = res.stream.chunkSize;
  const pieces = res.stream.chunks ?? chunkText(res.text, size);
  const hasText = res.text !== '' || (res.stream.chunks?.length ?? 0) > 0;
  const calls = res.toolCalls.map((call, index) => ({
    head: { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
    args: chunkText(argumentsText(call), size).map((a) => ({ index, function: { arguments: a } })),
  }));
  const thinking = reasoningContent(res, req);
  if (thinking !== undefined || res.refusal !== undefined) {
    // As DeepSeek and OpenAI stream them: the role first, then the reasoning, the text, the refusal, the calls.
    push({ role: 'assistant', content: null, ...(thinking === undefined ? {} : { reasoning_content: '' }), refusal: res.refusal === undefined ? null : '' });
    for (const piece of thinking === undefined ? [] : chunkText(thinking, size)) push({ reasoning_content: piece });
    if (hasText) for (const piece of pieces) push({ content: piece });
    for (const piece of res.refusal === undefined ? [] : chunkText(res.refusal, size)) push({ refusal: piece });
    for (const c of calls) {
      push({ tool_calls: [c.head] });
      for (const a of c.args) push({ tool_calls: [a] });
    }
  } else if (hasText || calls.length === 0) {
    push({ role: 'assistant', content: '', refusal: null });
    // Text deltas are most of a long answer: only the piece needs encoding.
    for (const piece of pieces) out.push({ delta: `{"content":${JSON.stringify(piece)}}`, finish: none });
    for (const c of calls) {
      push({ tool_calls: [c.head] });
      for (const a of c.args) push({ tool_calls: [a] });
    }
  } else {
    // A tool-call-only answer opens with the role and the first call's head in one delta.
    calls.forEach((c, i) => {
      push(i === 0 ? { role: 'assistant', content: null, tool_calls: [c.head], refusal: null } : { tool_calls: [c.head] });
      for (const a of c.args) push({ tool_calls: [a] });
    });
  }
  out.push({ delta: '{}', finish: JSON.stringify(openAIFinishReason(res.finishReason, req)) });
  return out;
}

/** A streamed answer: its frames as strings, or the same as one body of bytes. */
export interface ChatStream {
  frames(): string[];
  bytes(): Buffer<ArrayBuffer>;
}

/**
 * The streamed answer: complete SSE frames ending in `data: [DONE]`.
 * @example
 *   renderChatChunks(response, request).frames().at(-1) // 'data: [DONE]\n\n'
 */
export function renderChatChunks(res: CanonicalResponse, req: CanonicalRequest): ChatStream {
  const options = (req.params.stream_options ?? {}) as Json;
  const includeUsage = options.include_usage === true;
  const obfuscate = options.include_obfuscation !== false;
  const tier = serviceTier(req);
  const n = choiceCount(req);
  // Every chunk shares its envelope: encode it once and splice each chunk's choices in
  // (a 1,000-token answer is 1,000 frames). Key order is the API's: id, object, created, model,
  // choices, service_tier, system_fingerprint, usage, obfuscation.
  const head = JSON.stringify({ id: withPrefix('chatcmpl-', res.id), object: 'chat.completion.chunk', created: res.created, model: res.model });
  const open = `data: ${head.slice(0, -1)},"choices":`;
  const tail = `,"service_tier":${JSON.stringify(tier)},"system_fingerprint":"${SYSTEM_FINGERPRINT}"`;
  const close = (usage: string, padFrom: number): string =>
    `${tail}${includeUsage ? `,"usage":${usage}` : ''}${obfuscate ? `,"obfuscation":"${OBFUSCATION_PAD.slice(0, 1 + (padFrom % 12))}"` : ''}}\n\n`;
  const build = (): string[] => {
    const closings = Array.from({ length: 12 }, (_, i) => close('null', i));
    const out: string[] = [];
    const deltas = choiceDeltas(res, req);
    for (let index = 0; index < n; index++) {
      for (const d of deltas) {
        out.push(`[{"index":${index},"delta":${d.delta},"logprobs":null,"finish_reason":${d.finish}}]${closings[out.length % 12]}`);
      }
    }
    return out;
  };
  const bodies = build();
  const last: string[] = [];
  if (includeUsage) last.push(`${open}[]${close(JSON.stringify(openAIUsage(res, req)), bodies.length)}`);
  last.push(SSE_DONE);
  let all: string[] | undefined;
  const frames = () => (all ??= [...bodies.map((body) => open + body), ...last]);
  // Encoded in one go; an answer asked for again comes from its template (common/answer-templates.ts).
  return { frames, bytes: () => Buffer.from(frames().join(''), 'utf8') };
}

/**
 * A `chat.completion` answer: its text for the wire, the object only when someone reads it
 * (readers, tests). A transport writes the text, so building the dozen objects per answer too was
 * work nobody used; a prototype getter keeps the instance's shape fixed.
 */
class RenderedCompletion implements RenderedResponse {
  readonly status = 200;
  readonly headers: Record<string, string>;
  readonly text: string | undefined;
  readonly #res: CanonicalResponse;
  readonly #req: CanonicalRequest;
  #json: Json | undefined = undefined;

  constructor(headers: Record<string, string>, res: CanonicalResponse, req: CanonicalRequest) {
    this.headers = headers;
    this.text = chatCompletionText(res, req);
    this.#res = res;
    this.#req = req;
  }

  get json(): Json {
    return (this.#json ??= renderChatCompletion(this.#res, this.#req));
  }
}

/**
 * JSON or SSE as the request asked.
 * @example
 *   renderChat(response, request).stream?.frames.length
 */
export function renderChat(res: CanonicalResponse, req: CanonicalRequest): RenderedResponse {
  const headers = { 'openai-version': '2020-10-01', ...res.headers };
  if (!req.stream) return new RenderedCompletion(headers, res, req);
  const chunks = renderChatChunks(res, req);
  // Frames as strings only when a transport asks (pacing, cuts); otherwise the body is assembled as bytes.
  const timing = { chunkDelayMs: res.stream.chunkDelayMs, disconnectAfterChunks: res.stream.disconnectAfterChunks };
  return { status: 200, headers, stream: new LazyStream({ framing: 'sse', timing }, () => chunks.frames(), () => chunks.bytes()) };
}

/**
 * What of a Chat Completions request the rendering reads besides the answer, the model and `stream`
 * (the key of its answers' templates, common/answer-templates.ts).
 * @example
 *   chatTemplateKey(request) // '[null,null,null]' for a request without stream_options, service_tier, n
 */
export function chatTemplateKey(req: CanonicalRequest): string {
  const { stream_options = null, service_tier = null, n = null } = req.params;
  // A named tool_choice changes the finish reason (openAIFinishReason): its own key.
  const named = namedToolChoice(req.params.tool_choice);
  // Whether the request reasons decides the usage it reports (openAIUsage); the model is in the key already, the effort not.
  const reasons = requestReasons(req.model, req.params);
  // Most requests carry none of them: one constant, no encoding per request.
  if (stream_options === null && service_tier === null && n === null && !named) return reasons ? '[null,null,null]' : '[null,null,null,"no reasoning"]';
  return JSON.stringify([stream_options, service_tier, n, named, reasons]);
}
