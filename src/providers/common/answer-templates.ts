/**
 * Answers rendered from per-answer templates. Two answers of the same content differ on the wire only
 * in their per-answer values: the response id, `created`, tool call ids, and ids an adapter draws from
 * the mock's random pool while rendering (the Responses API's item ids). So the second time an answer
 * of some content is asked for, it is rendered twice, with two sets of those values, and the first
 * rendering is cut at each value into a template; the template is kept only if filling it with the
 * second set gives the second rendering byte for byte. From then on an answer of that content is its
 * template with this answer's values spliced in: nothing is re-encoded, and for a long stream the
 * buffer of an earlier answer that the transport handed back is reused with only the values rewritten.
 *
 * The key is the answer's content and what of the request the adapter's rendering reads
 * (`ProviderAdapter.templateKey`), never the request as a whole: every request of a load test
 * differs, and its answers still come from one template, with fresh ids and timestamps each time.
 * A rendering that depends on anything else the check can see (a value encoded in another form, a
 * length, a checksum, a clock read while rendering) fails the check and that content is rendered
 * directly from then on. See docs/decisions/answer-templates.md.
 *
 * Header values are cut like the body (a request id the adapter draws per answer is a value).
 * Binary stream frames (length-prefixed, checksummed) are cut as the text the adapter's `frameText`
 * reads them as, and each answer's frames are framed again by it: the check compares those bytes.
 */
import type { FrameText, ProviderAdapter, RenderedResponse, RenderedStream } from '../adapter.ts';
import { ID_ALPHABETS, RandomBytes } from './ids.ts';
import { lend } from './reusable-bytes.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/** One piece of a template: fixed text, or the index of a per-answer value. */
type Piece = string | number;

/** A random draw a rendering made: `chars(length, alphabet)`, or a `uuid()`. */
interface Draw {
  length: number;
  alphabet: string;
  uuid?: true;
}

interface Template {
  status: number;
  /** Header values as pieces, in order (a request id drawn per answer is a value). */
  headers: [string, Piece[]][];
  stream: Pick<RenderedStream, 'framing' | 'timing'> | null;
  /** Frames (one for a JSON body), each as pieces. */
  frames: Piece[][];
  /** Binary streams: the adapter's way from a frame's text back to the frame; null for text frames. */
  framer: FrameText | null;
  /** Binary streams: the frames that hold no value, as rendered (framed once, not per answer). */
  fixed: (Uint8Array | null)[];
  /** Random draws the rendering made, in order: each answer draws its own of the same shape. */
  draws: Draw[];
  /** Text streams: the first rendering's bytes, the values they hold, and where each value's bytes sit. */
  proto: Buffer | null;
  holds: string[];
  positions: number[][];
  /** Answered from since eviction last came round to it (second-chance LRU). */
  used: boolean;
  /** Does it hold `created` in its ISO form? */
  iso: boolean;
  /** Bytes this template holds. */
  size: number;
  /** Buffers of earlier answers the transport handed back, with the values they hold. */
  free: { buf: Buffer; holds: string[] }[];
}

const SEEN = 0;
const DIRECT = 1;
type Entry = typeof SEEN | typeof DIRECT | Template;

/** Values shorter than this are not cut out (a scenario's `call_1` would match everywhere): they stay in the key. */
const MIN_VALUE = 8;

/** A random pool that remembers what it was asked for (the draws a template must make afresh). */
class RecordingRandom extends RandomBytes {
  readonly drawn: (Draw & { value: string })[] = [];
  readonly #from: RandomBytes;
  constructor(from: RandomBytes) {
    super();
    this.#from = from;
  }
  override next(): number {
    return this.#from.next();
  }
  override chars(length: number, alphabet: string): string {
    const value = this.#from.chars(length, alphabet);
    this.drawn.push({ length, alphabet, value });
    return value;
  }
  override uuid(): string {
    const value = this.#from.uuid();
    this.drawn.push({ length: value.length, alphabet: '', uuid: true, value });
    return value;
  }
}

/** A random pool that gives back the draws of a templated answer, in order (for `ProviderAdapter.templated`). */
class ReplayedRandom extends RandomBytes {
  readonly #values: string[];
  #at = 0;
  constructor(values: string[]) {
    super();
    this.#values = values;
  }
  override chars(length: number, alphabet: string): string {
    const value = this.#values[this.#at++];
    // Drawn the way the rendering drew it; anything else is a fresh draw.
    return value !== undefined && value.length === length ? value : super.chars(length, alphabet);
  }
  override uuid(): string {
    const value = this.#values[this.#at++];
    return value !== undefined && value.length === 36 ? value : super.uuid();
  }
}

export interface AnswerTemplatesOptions {
  /** Most distinct answers kept (templates and answers seen once). */
  maxEntries?: number;
  /** Most bytes of templates and handed-back buffers kept, over all entries. */
  maxBytes?: number;
}

/**
 * The templates of one router's answers (shared by the mocks of a server, as its adapters are).
 * @example
 *   const templates = new AnswerTemplates();
 *   const rendered = templates.render(adapter, response, request, state, random);
 */
export class AnswerTemplates {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;
  #hits = 0;

  constructor(options: AnswerTemplatesOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 1024;
    this.#maxBytes = options.maxBytes ?? 64 * 2 ** 20;
  }

  /** Answers given from a template so far. */
  get hits(): number {
    return this.#hits;
  }

  /** Bytes held now (templates, keys and handed-back buffers). */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The adapter's rendering of this answer: from its template when there is one, else rendered.
   * @example
   *   templates.render(adapter, response, request, state, random).stream?.body?.()
   */
  render(adapter: ProviderAdapter, response: CanonicalResponse, request: CanonicalRequest, state: unknown, random: RandomBytes): RenderedResponse {
    const direct = () => adapter.render(response, request, state, random);
    const s = response.stream;
    // Paced, cut or failing streams are rare and go frame by frame: rendered as they are.
    if (s.chunkDelayMs > 0 || s.disconnectAfterChunks != null || s.error !== undefined) return direct();
    const adapterKey = adapter.templateKey?.(response, request, state);
    if (adapterKey === undefined) return direct();
    const key = `${adapter.id}\u0000${adapterKey}\u0000${contentKey(response, request)}`;
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      // Seen once: most answers of a test suite are, and rendering them twice more would be waste.
      this.#add(key, SEEN, key.length * 2);
      return direct();
    }
    if (entry === DIRECT) return direct();
    if (entry === SEEN) return this.#build(key, adapter, response, request, state, random);
    // A hit: marked, not moved (a Map's delete and set of a long key cost more than the rest of a hit);
    // eviction gives a marked template a second chance.
    entry.used = true;
    this.#hits += 1;
    const values = valuesOf(response, entry.draws, random, undefined, entry.iso);
    // What the rendering would have done to the mock's state, with the draws it would have made.
    adapter.templated?.(response, request, state, new ReplayedRandom(values.slice(values.length - entry.draws.length)));
    return this.#fill(entry, values);
  }

  #add(key: string, entry: Entry, size: number): void {
    const old = this.#entries.get(key);
    if (old !== undefined) this.#drop(key, old);
    this.#entries.set(key, entry);
    this.#bytes += size + (typeof entry === 'object' ? key.length * 2 : 0);
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const [oldest, value] = this.#entries.entries().next().value!;
      if (typeof value === 'object' && value.used && value !== entry) {
        // Used since it last came round: to the back of the line, unmarked.
        value.used = false;
        this.#entries.delete(oldest);
        this.#entries.set(oldest, value);
        continue;
      }
      this.#drop(oldest, value);
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    if (typeof entry !== 'object') {
      this.#bytes -= key.length * 2;
      return;
    }
    this.#bytes -= entry.size + key.length * 2;
    for (const f of entry.free.splice(0)) this.#bytes -= f.buf.length;
    // Buffers still lent out find no list to go back to.
    entry.free = [];
    Object.freeze(entry.free);
  }

  #build(key: string, adapter: ProviderAdapter, response: CanonicalResponse, request: CanonicalRequest, state: unknown, random: RandomBytes): RenderedResponse {
    const first = new RecordingRandom(random);
    const rendered = adapter.render(response, request, state, first);
    const second = new RecordingRandom(random);
    const other = otherValues(response, random);
    // A rendering that writes the mock's state (it has `templated`) is checked in a state of its own: the
    // check's made-up ids must not reach the mock's (a stored response, a call's id). One that only reads
    // it (a seal's signatures, keyed by the seal) is checked in the mock's own, to give the same bytes.
    const check = adapter.render(other, request, adapter.templated ? (adapter.createState?.() ?? state) : state, second);
    const template = cut(rendered, response, first, adapter.frameText ?? null);
    const ok =
      template !== null &&
      first.drawn.length === second.drawn.length &&
      reproduces(template, valuesOf(other, [], random, second.drawn.map((d) => d.value)), check) &&
      check.status === rendered.status;
    if (ok) this.#add(key, template, template.size);
    else this.#add(key, DIRECT, key.length * 2);
    return rendered;
  }

  #fill(template: Template, values: string[]): RenderedResponse {
    const { status, stream, framer } = template;
    const headers = fillHeaders(template, values);
    if (!stream) {
      const text = fillFrames(template, values)[0];
      return { status, headers, text, get json() { return JSON.parse(text) as unknown; } };
    }
    if (framer) {
      let binary: Uint8Array[] | undefined;
      const framed = () => (binary ??= binaryFrames(template, framer, values));
      return {
        status,
        headers,
        stream: { framing: stream.framing, timing: stream.timing, get frames() { return framed(); }, body: () => Buffer.concat(framed()) as Buffer<ArrayBuffer> },
      };
    }
    let frames: string[] | undefined;
    return {
      status,
      headers,
      stream: {
        framing: stream.framing,
        timing: stream.timing,
        get frames() {
          return (frames ??= fillFrames(template, values));
        },
        body: () => this.#bytesOf(template, values),
      },
    };
  }

  /**
   * The whole stream as one buffer: a handed-back one, or a copy of the first rendering, with the
   * values that differ rewritten where they sit (values keep their lengths: ids of one shape, a
   * `created` of ten digits); piece by piece when one does not.
   */
  #bytesOf(template: Template, values: string[]): Buffer<ArrayBuffer> {
    const proto = template.proto!;
    if (!values.every((v, i) => v.length === template.holds[i].length)) return Buffer.from(fillFrames(template, values).join(''), 'utf8') as Buffer<ArrayBuffer>;
    let buf: Buffer;
    let holds: string[];
    const reused = template.free.pop();
    if (reused) {
      this.#bytes -= reused.buf.length;
      ({ buf, holds } = reused);
    } else {
      buf = proto.length > 4096 ? Buffer.allocUnsafeSlow(proto.length) : Buffer.allocUnsafe(proto.length);
      proto.copy(buf, 0);
      holds = template.holds;
    }
    for (let v = 0; v < values.length; v++) {
      if (values[v] === holds[v]) continue;
      // Encoded once, then copied into place: a copy of bytes is far cheaper than encoding a string per frame.
      const value = Buffer.from(values[v], 'latin1');
      const positions = template.positions[v];
      for (let i = 0; i < positions.length; i++) buf.set(value, positions[i]);
    }
    if (proto.length <= 4096) return buf as Buffer<ArrayBuffer>;
    return lend(buf as Buffer<ArrayBuffer>, () => {
      // Handed back: it waits for the next answer of this template (unless the template was dropped).
      if (Object.isFrozen(template.free) || template.free.length >= 4 || this.#bytes + buf.length > this.#maxBytes) return;
      this.#bytes += buf.length;
      template.free.push({ buf, holds: values });
    });
  }
}

const fill = (pieces: Piece[], values: string[]): string => (pieces.length === 1 && typeof pieces[0] === 'string' ? pieces[0] : pieces.map((p) => (typeof p === 'string' ? p : values[p])).join(''));

function fillFrames(template: Template, values: string[]): string[] {
  return template.frames.map((pieces) => fill(pieces, values));
}

function fillHeaders(template: Template, values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, pieces] of template.headers) out[name] = fill(pieces, values);
  return out;
}

/**
 * Binary frames of an answer: those that hold a value filled and framed again by the adapter (their
 * lengths and checksums are the values'), the others as the template keeps them.
 */
function binaryFrames(template: Template, framer: FrameText, values: string[]): Uint8Array[] {
  return template.frames.map((pieces, i) => template.fixed[i] ?? framer.frame(fill(pieces, values)));
}

/** Does the template filled with `values` give `check` (another rendering with those values) byte for byte? */
function reproduces(template: Template, values: string[], check: RenderedResponse): boolean {
  if (JSON.stringify(fillHeaders(template, values)) !== JSON.stringify(check.headers)) return false;
  const { framer } = template;
  if (!framer) return sameFrames(fillFrames(template, values), textFrames(check, null));
  const frames = check.stream?.frames ?? [];
  const filled = binaryFrames(template, framer, values);
  return frames.length === filled.length && filled.every((frame, i) => typeof frames[i] !== 'string' && Buffer.from(frame).equals(frames[i]));
}

/**
 * The fields of an answer that go into its key as they are: every field but the per-answer values
 * (id, created, tool call ids) and the text, which is appended raw (no escaping pass over a long
 * answer). A field added to CanonicalResponse must be named here or the type check fails.
 */
const KEYED: Record<Exclude<keyof CanonicalResponse, 'id' | 'created' | 'toolCalls' | 'text'>, true> = {
  model: true,
  reasoning: true,
  refusal: true,
  json: true,
  usage: true,
  finishReason: true,
  stream: true,
  embeddings: true,
  headers: true,
  inputTranscript: true,
  goAway: true,
};
const KEYED_FIELDS = Object.keys(KEYED) as (keyof typeof KEYED)[];

/** Everything of the answer but its per-answer values, and what of the request every rendering reads. */
function contentKey(response: CanonicalResponse, request: CanonicalRequest): string {
  const parts: unknown[] = [request.model, request.stream, request.path, response.id.length < MIN_VALUE ? response.id : ''];
  for (const field of KEYED_FIELDS) parts.push(response[field]);
  for (const c of response.toolCalls) parts.push(c.id.length < MIN_VALUE ? c.id : '', c.name, c.arguments);
  return `${JSON.stringify(parts)}\u0000${response.text}`;
}

/** The index of `created`'s ISO form among an answer's values. */
const ISO = 2;

/** `created` as an ISO 8601 time (Ollama's `created_at`); empty when it is none. */
function isoOf(created: number): string {
  const date = new Date(created * 1000);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** The values of an answer, in the order `cut` numbers them: id, created (seconds, then ISO), tool call ids, then draws. */
function valuesOf(response: CanonicalResponse, draws: Draw[], random: RandomBytes, drawn?: string[], iso = true): string[] {
  // The ISO form only where a template holds it (a Date per answer is not free).
  const values = [response.id, String(response.created), iso ? isoOf(response.created) : ''];
  for (const c of response.toolCalls) values.push(c.id);
  if (drawn) values.push(...drawn);
  else for (const d of draws) values.push(d.uuid ? random.uuid() : random.chars(d.length, d.alphabet));
  return values;
}

const TAIL_ALPHABETS = [ID_ALPHABETS.hex, ID_ALPHABETS.lower, ID_ALPHABETS.alnum, ID_ALPHABETS.base64url];

/** The same answer with other per-answer values of the same shapes. */
function otherValues(response: CanonicalResponse, random: RandomBytes): CanonicalResponse {
  // Of the replaced tail's own alphabet: a rendering may reshape an id (hex digits kept, a UUID's dashes put back).
  const other = (id: string) => {
    if (id.length < MIN_VALUE) return id;
    const tail = id.slice(id.length - MIN_VALUE);
    const alphabet = TAIL_ALPHABETS.find((a) => [...tail].every((c) => a.includes(c))) ?? ID_ALPHABETS.alnum;
    return id.slice(0, id.length - MIN_VALUE) + random.chars(MIN_VALUE, alphabet);
  };
  return { ...response, id: other(response.id), created: response.created + 1, toolCalls: response.toolCalls.map((c) => ({ ...c, id: other(c.id) })) };
}

/** The frames as text: binary ones as `framer` reads them (null without one, or when one does not read, or frames of both kinds). */
function textFrames(rendered: RenderedResponse, framer: FrameText | null): string[] | null {
  if (rendered.stream) {
    const frames = rendered.stream.frames;
    if (frames.every((f) => typeof f === 'string')) return frames as string[];
    if (!framer || frames.some((f) => typeof f === 'string')) return null;
    const texts: string[] = [];
    for (const f of frames as Uint8Array[]) {
      const text = framer.text(f);
      if (text === null) return null;
      texts.push(text);
    }
    return texts;
  }
  return [rendered.text ?? JSON.stringify(rendered.json ?? null)];
}

function sameFrames(a: string[], b: string[] | null): boolean {
  return b !== null && a.length === b.length && a.every((f, i) => f === b[i]);
}

/** `text` cut at each occurrence of the values numbered `cutAt`. */
function cutText(text: string, values: string[], cutAt: number[]): Piece[] {
  let parts: Piece[] = [text];
  for (const i of cutAt) {
    const v = values[i];
    parts = parts.flatMap((part) => {
      if (typeof part !== 'string' || !part.includes(v)) return [part];
      const out: Piece[] = [];
      part.split(v).forEach((s, k) => {
        if (k > 0) out.push(i);
        if (s !== '') out.push(s);
      });
      return out;
    });
  }
  return parts;
}

/**
 * The rendering cut at each occurrence of a per-answer value, in its frames and header values; null
 * when it cannot be (binary frames the adapter cannot read as text, values of another shape).
 */
function cut(rendered: RenderedResponse, response: CanonicalResponse, drawn: RecordingRandom, framer: FrameText | null): Template | null {
  const frames = textFrames(rendered, framer);
  if (frames === null) return null;
  const binary = rendered.stream !== undefined && rendered.stream.frames.some((f) => typeof f !== 'string');
  const values = valuesOf(response, [], drawn, drawn.drawn.map((d) => d.value));
  // ASCII values only: the buffers are rewritten in place, a byte a character.
  if (values.some((v) => !/^[\x20-\x7e]*$/.test(v))) return null;
  if (drawn.drawn.some((d) => d.length < MIN_VALUE)) return null;
  const cutAt = values.map((v, i) => (v.length >= MIN_VALUE || i === 1 ? i : -1)).filter((i) => i >= 0);
  let size = 0;
  const counted = (parts: Piece[]) => {
    for (const p of parts) if (typeof p === 'string') size += p.length * 2;
    return parts;
  };
  const pieces = frames.map((frame) => counted(cutText(frame, values, cutAt)));
  const headers = Object.entries(rendered.headers).map(([name, value]): [string, Piece[]] => [name, counted(cutText(value, values, cutAt))]);
  const stream = rendered.stream ? { framing: rendered.stream.framing, timing: rendered.stream.timing } : null;
  const draws = drawn.drawn.map(({ length, alphabet, uuid }): Draw => (uuid ? { length, alphabet, uuid } : { length, alphabet }));
  const template: Template = {
    status: rendered.status,
    headers,
    stream,
    frames: pieces,
    framer: binary ? framer : null,
    fixed: [],
    draws,
    proto: null,
    holds: values,
    positions: values.map(() => []),
    iso: pieces.some((frame) => frame.includes(ISO)) || headers.some(([, h]) => h.includes(ISO)),
    used: false,
    size,
    free: [],
  };
  // Answers of a template without it leave it empty (and their values stay of the template's lengths).
  if (!template.iso) template.holds = values.map((v, i) => (i === ISO ? '' : v));
  if (binary) {
    // A frame without values is the same bytes in every answer: kept as rendered (transports only read frames).
    template.fixed = pieces.map((p, i) => (p.some((piece) => typeof piece === 'number') ? null : (rendered.stream!.frames[i] as Uint8Array)));
    for (const f of template.fixed) template.size += f?.length ?? 0;
  }
  if (stream && !binary) {
    // The first rendering as bytes, and the byte offset of every value in it.
    const parts: Buffer[] = [];
    let at = 0;
    for (const frame of pieces) {
      for (const p of frame) {
        const bytes = Buffer.from(typeof p === 'string' ? p : values[p], 'utf8');
        if (typeof p === 'number') template.positions[p].push(at);
        parts.push(bytes);
        at += bytes.length;
      }
    }
    template.proto = Buffer.concat(parts, at);
    template.size += at;
  }
  return template;
}
