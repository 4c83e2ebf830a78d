/**
 * Canonical response → `chat.completion` JSON or `chat.completion.chunk` SSE frames, field by
 * field as the API sends them (checked against OpenAI's OpenAPI description in the tests).
 */
import type { RenderedResponse } from '../adapter.ts';
import { withPrefix } from '../common/ids.ts';
import {
  argumentsText,
  chatCompletionText,
  type CompletionTails,
  choiceCount,
  openAIFinishReason,
  openAIUsage,
  reasoningContent,
  renderChatCompletion,
  serviceTier,
  SYSTEM_FINGERPRINT,
} from './completion.ts';
import { lend } from '../common/reusable-bytes.ts';
import { chunkText, SSE_DONE } from '../common/sse.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

export { argumentsText, openAIFinishReason, openAIUsage, renderChatCompletion };

type Json = Record<string, unknown>;

/** Padding for `obfuscation` (the API pads chunks to blur their sizes); a slice of it per chunk. */
const OBFUSCATION_PAD = 'Qz7Xk2Lm9Pw4Rt6Vb1Nc8Hd3Jf5Gs0Ya';

/** The deltas of one choice as JSON, in the API's order: role, text, each tool call (head, then argument pieces), finish. */
function choiceDeltas(res: CanonicalResponse): { delta: string; finish: string }[] {
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
  const thinking = reasoningContent(res);
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
  out.push({ delta: '{}', finish: JSON.stringify(openAIFinishReason(res.finishReason)) });
  return out;
}

/** One answer's frame bodies (everything after the envelope head), as strings and encoded. */
interface FrameBodies {
  strings: string[];
  bytes: Buffer;
  /** Byte offset where each body ends in `bytes`. */
  ends: number[];
  /** The frames last assembled with an envelope head of some length (see `assemble`). */
  template?: { open: Buffer; frames: Buffer; starts: number[] };
  /** Assembled buffers the transport handed back, each with the head its frames now carry. */
  free?: { buf: Buffer; open: Buffer }[];
  /** The cache's budget for handed-back buffers, shared by its entries. */
  budget?: { bytes: number };
}

/** Room after the frames in a reusable buffer for the closing frames (usage, `[DONE]`). */
const TAIL_ROOM = 1024;

/**
 * Every frame, `open` + its body, as one buffer, with `extra` bytes of room after them. Answers of one
 * step differ only in their envelope head (the id, minted per response; `created`), so once a head of
 * the same length has been laid out, the next answer is that layout with the head's differing bytes set
 * in each frame: in a buffer the transport handed back when there is one (no allocation, no copy), else
 * in a copy of the layout. Cached answers' buffers are lent (see reusable-bytes.ts).
 */
function assemble(bodies: FrameBodies, open: Buffer, extra: number, keep: boolean): { out: Buffer; at: number } {
  const t = bodies.template;
  if (t && t.open.length === open.length && extra <= TAIL_ROOM) {
    const reused = keep ? bodies.free?.pop() : undefined;
    let buf: Buffer;
    let was: Buffer;
    if (reused) {
      bodies.budget!.bytes -= reused.buf.length;
      ({ buf, open: was } = reused);
    } else {
      buf = Buffer.allocUnsafeSlow(t.frames.length + TAIL_ROOM);
      t.frames.copy(buf, 0);
      was = t.open;
    }
    let lo = 0;
    let hi = open.length;
    while (lo < hi && open[lo] === was[lo]) lo++;
    while (hi > lo && open[hi - 1] === was[hi - 1]) hi--;
    const patch = open.subarray(lo, hi);
    if (patch.length > 0) for (const start of t.starts) buf.set(patch, start + lo);
    const out = buf.subarray(0, t.frames.length + extra);
    if (!keep) return { out, at: t.frames.length };
    lend(out, () => {
      // Read at hand-back time: an entry evicted meanwhile has no budget and takes nothing back.
      // Nor does one whose layout was replaced (a head of another length): these frames sit elsewhere.
      const { budget } = bodies;
      const free = (bodies.free ??= []);
      if (!budget || bodies.template !== t || budget.bytes + buf.length > REUSE_BUDGET || free.length >= 4) return;
      budget.bytes += buf.length;
      free.push({ buf, open });
    });
    return { out, at: t.frames.length };
  }
  const out = Buffer.allocUnsafeSlow(open.length * bodies.ends.length + bodies.bytes.length + extra);
  const starts: number[] = [];
  let at = 0;
  let start = 0;
  for (const end of bodies.ends) {
    starts.push(at);
    at += open.copy(out, at);
    at += bodies.bytes.copy(out, at, start, end);
    start = end;
  }
  // The layout is kept as a copy (`out` goes to the socket, and a caller may still hold it), and only
  // for cached bodies: a one-off answer has no next time.
  if (keep) {
    bodies.template = { open, frames: Buffer.from(out.subarray(0, at)), starts };
    for (const { buf } of bodies.free?.splice(0) ?? []) bodies.budget!.bytes -= buf.length;
  }
  return { out, at };
}

/** Bytes of handed-back buffers one cache keeps for reuse, over all its entries. */
const REUSE_BUDGET = 32 * 1024 * 1024;

function encodeBodies(strings: string[]): FrameBodies {
  const bytes = Buffer.from(strings.join(''), 'utf8');
  const ends: number[] = [];
  let offset = 0;
  for (const body of strings) ends.push((offset += Buffer.byteLength(body, 'utf8')));
  return { strings, bytes, ends };
}

/**
 * Frame bodies keyed by what they depend on. A step answers the same text many times and its
 * frames differ only in the envelope head (id, created, model), so a hit skips re-rendering and
 * re-encoding a 1,000-frame answer. Bounded; one per adapter instance.
 */
export class ChunkCache {
  // By text, then by the rest of the key: the text is the step's own string each time, whose hash V8
  // keeps, so a lookup does not re-serialise and re-hash a long answer per request.
  readonly #entries = new Map<string, Map<string, FrameBodies>>();
  readonly #order: [string, string][] = [];
  readonly #max: number;
  readonly #budget = { bytes: 0 };

  constructor(max = 32) {
    this.#max = max;
  }

  get(text: string, rest: string, build: () => string[]): FrameBodies {
    let byRest = this.#entries.get(text);
    let hit = byRest?.get(rest);
    if (!hit) {
      hit = { ...encodeBodies(build()), budget: this.#budget };
      if (this.#order.length >= this.#max) {
        const [oldText, oldRest] = this.#order.shift()!;
        const inner = this.#entries.get(oldText)!;
        const evicted = inner.get(oldRest)!;
        // Its handed-back buffers go with it, and buffers still lent out do not come back.
        for (const { buf } of evicted.free?.splice(0) ?? []) this.#budget.bytes -= buf.length;
        evicted.budget = undefined;
        inner.delete(oldRest);
        if (inner.size === 0) this.#entries.delete(oldText);
        byRest = this.#entries.get(text);
      }
      if (!byRest) this.#entries.set(text, (byRest = new Map()));
      byRest.set(rest, hit);
      this.#order.push([text, rest]);
    }
    return hit;
  }
}

/** A streamed answer: its frames as strings, or the same bytes assembled without joining them. */
export interface ChatStream {
  frames(): string[];
  bytes(): Buffer<ArrayBuffer>;
}

/**
 * The streamed answer: complete SSE frames ending in `data: [DONE]`.
 * @example
 *   renderChatChunks(response, request).frames().at(-1) // 'data: [DONE]\n\n'
 */
export function renderChatChunks(res: CanonicalResponse, req: CanonicalRequest, cache?: ChunkCache): ChatStream {
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
    const deltas = choiceDeltas(res);
    for (let index = 0; index < n; index++) {
      for (const d of deltas) {
        out.push(`[{"index":${index},"delta":${d.delta},"logprobs":null,"finish_reason":${d.finish}}]${closings[out.length % 12]}`);
      }
    }
    return out;
  };
  // Very long answers are not kept: the cache must stay small. Nor are tool-call answers: their
  // call ids are minted per response, so they would never hit and would push out the entries that do.
  const cached = cache !== undefined && res.toolCalls.length === 0 && res.text.length < 100_000 && res.reasoning === undefined && res.refusal === undefined;
  const bodies = cached
    ? cache.get(res.text, JSON.stringify([res.stream.chunks, res.stream.chunkSize, res.finishReason, n, includeUsage, obfuscate, tier]), build)
    : encodeBodies(build());
  const last: string[] = [];
  if (includeUsage) last.push(`${open}[]${close(JSON.stringify(openAIUsage(res)), bodies.ends.length)}`);
  last.push(SSE_DONE);
  let frames: string[] | undefined;
  return {
    frames: () => (frames ??= [...bodies.strings.map((body) => open + body), ...last]),
    bytes() {
      const lastBytes = Buffer.from(last.join(''), 'utf8');
      const { out, at } = assemble(bodies, Buffer.from(open, 'utf8'), lastBytes.length, cached);
      lastBytes.copy(out, at);
      return out as Buffer<ArrayBuffer>;
    },
  };
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

  constructor(headers: Record<string, string>, res: CanonicalResponse, req: CanonicalRequest, tails: CompletionTails | undefined) {
    this.headers = headers;
    this.text = chatCompletionText(res, req, tails);
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
export function renderChat(res: CanonicalResponse, req: CanonicalRequest, cache?: ChunkCache, tails?: CompletionTails): RenderedResponse {
  const headers = { 'openai-version': '2020-10-01', ...res.headers };
  if (!req.stream) return new RenderedCompletion(headers, res, req, tails);
  const chunks = renderChatChunks(res, req, cache);
  return {
    status: 200,
    headers,
    stream: {
      framing: 'sse',
      // Frames as strings only when a transport asks (pacing, cuts); otherwise the body is assembled as bytes.
      get frames() {
        return chunks.frames();
      },
      body: () => chunks.bytes(),
      timing: { chunkDelayMs: res.stream.chunkDelayMs, disconnectAfterChunks: res.stream.disconnectAfterChunks },
    },
  };
}
