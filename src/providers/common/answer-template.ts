/**
 * One answer template (see answer-templates.ts): a rendering cut at each occurrence of its per-answer
 * values, how an answer's values are drawn and filled back in, and the check that a template gives
 * another rendering byte for byte. The cache of templates lives in answer-templates.ts.
 */
import type { FrameText, RenderedResponse, RenderedStream } from '../adapter.ts';
import { ID_ALPHABETS, RandomBytes } from './ids.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/** One piece of a template: fixed text, or the index of a per-answer value. */
type Piece = string | number;

/** A random draw a rendering made: `chars(length, alphabet)`, or a `uuid()`. */
interface Draw {
  length: number;
  alphabet: string;
  uuid?: true;
}

export interface Template {
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
  free: { buf: Buffer; holds: string[]; view?: DataView }[];
  /** Dropped from the cache: buffers still lent out are not taken back. */
  dropped: boolean;
}

/** Values shorter than this are not cut out (a scenario's `call_1` would match everywhere): they stay in the key. */
export const MIN_VALUE = 8;

/** A random pool that remembers what it was asked for (the draws a template must make afresh). */
export class RecordingRandom extends RandomBytes {
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
export class ReplayedRandom extends RandomBytes {
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

const fill = (pieces: Piece[], values: string[]): string => (pieces.length === 1 && typeof pieces[0] === 'string' ? pieces[0] : pieces.map((p) => (typeof p === 'string' ? p : values[p])).join(''));

export function fillFrames(template: Template, values: string[]): string[] {
  return template.frames.map((pieces) => fill(pieces, values));
}

export function fillHeaders(template: Template, values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, pieces] of template.headers) out[name] = fill(pieces, values);
  return out;
}

/**
 * Binary frames of an answer: those that hold a value filled and framed again by the adapter (their
 * lengths and checksums are the values'), the others as the template keeps them.
 */
export function binaryFrames(template: Template, framer: FrameText, values: string[]): Uint8Array[] {
  return template.frames.map((pieces, i) => template.fixed[i] ?? framer.frame(fill(pieces, values)));
}

/** Does the template filled with `values` give `check` (another rendering with those values) byte for byte? */
export function reproduces(template: Template, values: string[], check: RenderedResponse): boolean {
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
const KEYED: Record<Exclude<keyof CanonicalResponse, 'id' | 'created' | 'toolCalls' | 'text' | 'source'>, true> = {
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

/**
 * Everything of the answer but its per-answer values and its text, and what of the request every
 * rendering reads; the text goes into the key as its number (see `TextNumbers`).
 */
export function contentKey(response: CanonicalResponse, request: CanonicalRequest): string {
  // Joined by hand, each part JSON: one JSON.stringify over the whole list, most of it undefined fields
  // and empty records, was the larger part of a short stream's template lookup.
  let key = `${JSON.stringify(request.model)},${request.stream},${JSON.stringify(request.path)},${JSON.stringify(response.id.length < MIN_VALUE ? response.id : '')}`;
  for (const field of KEYED_FIELDS) key += `,${part(response[field])}`;
  for (const c of response.toolCalls) key += `,${JSON.stringify(c.id.length < MIN_VALUE ? c.id : '')},${JSON.stringify(c.name)},${part(c.arguments)}`;
  return key;
}

/** One part of a key as JSON; an absent value and an empty record as short marks of their own. */
function part(value: unknown): string {
  if (value === undefined) return '-';
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    let empty = true;
    for (const _ in value) {
      empty = false;
      break;
    }
    if (empty) return '{}';
  }
  return JSON.stringify(value) ?? '-';
}

/**
 * A number per answer text, for keys: a step's text is the same string object answer after answer,
 * whose hash the engine keeps, so looking it up here costs nothing per character, where a key holding
 * a 4 KiB text would be copied and hashed whole for every request. Numbers are never reused: when the
 * table passes its bounds it starts over, and keys of the texts it forgot simply stop matching.
 * @example
 *   const numbers = new TextNumbers();
 *   numbers.of(text) === numbers.of(text) // true
 */
export class TextNumbers {
  readonly #numbers = new Map<string, number>();
  #next = 0;
  #chars = 0;
  readonly #maxEntries: number;
  readonly #maxChars: number;

  constructor(maxEntries = 4096, maxChars = 16 * 2 ** 20) {
    this.#maxEntries = maxEntries;
    this.#maxChars = maxChars;
  }

  /** Characters of the texts remembered (each held at most once). */
  get chars(): number {
    return this.#chars;
  }

  of(text: string): number {
    const known = this.#numbers.get(text);
    if (known !== undefined) return known;
    if (this.#numbers.size >= this.#maxEntries || this.#chars + text.length > this.#maxChars) {
      this.#numbers.clear();
      this.#chars = 0;
    }
    const n = this.#next++;
    // A text past the bound is numbered afresh each time rather than held.
    if (text.length <= this.#maxChars) {
      this.#numbers.set(text, n);
      this.#chars += text.length;
    }
    return n;
  }
}

/** The index of `created`'s ISO form among an answer's values. */
const ISO = 2;

/** `created` as an ISO 8601 time (Ollama's `created_at`); empty when it is none. */
function isoOf(created: number): string {
  const date = new Date(created * 1000);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** The values of an answer, in the order `cut` numbers them: id, created (seconds, then ISO), tool call ids, then draws. */
export function valuesOf(response: CanonicalResponse, draws: Draw[], random: RandomBytes, drawn?: string[], iso = true): string[] {
  // The ISO form only where a template holds it (a Date per answer is not free).
  const values = [response.id, String(response.created), iso ? isoOf(response.created) : ''];
  for (const c of response.toolCalls) values.push(c.id);
  if (drawn) values.push(...drawn);
  else for (const d of draws) values.push(d.uuid ? random.uuid() : random.chars(d.length, d.alphabet));
  return values;
}

const TAIL_ALPHABETS = [ID_ALPHABETS.hex, ID_ALPHABETS.lower, ID_ALPHABETS.alnum, ID_ALPHABETS.base64url];

/** The same answer with other per-answer values of the same shapes. */
export function otherValues(response: CanonicalResponse, random: RandomBytes): CanonicalResponse {
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
export function cut(rendered: RenderedResponse, response: CanonicalResponse, drawn: RecordingRandom, framer: FrameText | null): Template | null {
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
    dropped: false,
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
