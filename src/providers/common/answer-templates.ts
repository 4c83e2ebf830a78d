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
import type { ProviderAdapter, RenderedResponse } from '../adapter.ts';
import { binaryFrames, contentKey, cut, TextNumbers, fillFrames, fillHeaders, otherValues, RecordingRandom, ReplayedRandom, reproduces, valuesOf, type Template } from './answer-template.ts';
import type { RandomBytes } from './ids.ts';
import { LazyStream } from './lazy-stream.ts';
import { lend } from './reusable-bytes.ts';
import { SourceKeys } from './source-keys.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/** Where `created` and its ISO form sit among an answer's values (see `valuesOf`). */
const CREATED = 1;
const CREATED_ISO = 2;

/**
 * Writes a value (latin1, as ids and numbers are) at each of its places: encoded once where it first
 * sits, then copied within the buffer, with no buffer per value. (`set` from a view of those bytes
 * measured faster alone, 0.44 µs against 0.69 µs for 45 copies, and made tool-call answers cost 1.16x to
 * 1.38x more after a server had streamed long answers: kept `copyWithin`. A byte-by-byte loop for
 * short values cost ~30 instructions a byte under callgrind, more than the calls it saved.)
 */
function writeAt(buf: Buffer, positions: number[], value: string): void {
  if (positions.length === 0) return;
  const first = positions[0];
  const end = first + buf.write(value, first, value.length, 'latin1');
  for (let i = 1; i < positions.length; i++) buf.copyWithin(positions[i], first, end);
}

/** Past this many places a value is copied a word at a time (`writeManyAt`), not by `copyWithin`. */
const MANY_PLACES = 16;

/**
 * `writeAt` for a value with many places (a long stream's id and `created` sit in every chunk), where the
 * buffer holds `held` (a value of the same length) at every place: only the part from the first character
 * that differs is written (an id's fixed prefix, `chatcmpl-`, stays), and after the first place each copy
 * is eight 32-bit writes through `view` of words held in locals, 32 bytes a pass (the last word of a
 * shorter part, and the last pass of a longer one, overlap what came before rather than copying a tail
 * byte by byte). Inlined by the compiler, where `copyWithin` is a runtime call per copy; the words in
 * locals, not read from an array per write: a 1,000-token stream's id, 8.8 µs → 2.4 µs alone.
 */
function writeManyAt(buf: Buffer, view: DataView, positions: number[], value: string, held: string): void {
  let skip = 0;
  while (skip < value.length && value.charCodeAt(skip) === held.charCodeAt(skip)) skip++;
  if (skip === value.length) return;
  const first = positions[0] + skip;
  const length = buf.write(value.slice(skip), first, value.length - skip, 'latin1');
  if (length < 4) {
    for (let i = 1; i < positions.length; i++) for (let j = 0; j < length; j++) buf[positions[i] + skip + j] = buf[first + j];
    return;
  }
  const span = Math.min(32, length);
  // Offsets of the eight words within a pass: every 4 bytes, none past the span's last word.
  const last = span - 4;
  const [o1, o2, o3, o4, o5, o6, o7] = [4, 8, 12, 16, 20, 24, 28].map((o) => Math.min(o, last));
  for (let block = 0; ; block += 32) {
    const start = Math.min(block, length - span);
    const at = first + start;
    const w0 = view.getInt32(at, true);
    const w1 = view.getInt32(at + o1, true);
    const w2 = view.getInt32(at + o2, true);
    const w3 = view.getInt32(at + o3, true);
    const w4 = view.getInt32(at + o4, true);
    const w5 = view.getInt32(at + o5, true);
    const w6 = view.getInt32(at + o6, true);
    const w7 = view.getInt32(at + o7, true);
    for (let i = 1; i < positions.length; i++) {
      const to = positions[i] + skip + start;
      view.setInt32(to, w0, true);
      view.setInt32(to + o1, w1, true);
      view.setInt32(to + o2, w2, true);
      view.setInt32(to + o3, w3, true);
      view.setInt32(to + o4, w4, true);
      view.setInt32(to + o5, w5, true);
      view.setInt32(to + o6, w6, true);
      view.setInt32(to + o7, w7, true);
    }
    if (start + span >= length) return;
  }
}

/**
 * Most handed-back buffers a template keeps: as many as a busy port has answers of it in flight. The
 * server writes a loop turn's answers together (write-batch.ts), so all of a turn's answers are rendered
 * before the first is handed back; with 4 kept, 16 connections made 12 fresh buffers a turn.
 */
const MOST_FREE = 32;

const SEEN = 0;
const DIRECT = 1;
type Entry = typeof SEEN | typeof DIRECT | Template;

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
  /** Answer texts by number, for keys (a step's text is hashed once, not per request). */
  readonly #texts = new TextNumbers();
  /** Keys of answers that are their step's own. */
  readonly #sourceKeys = new SourceKeys();
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
    // Vectors are the whole of an embeddings answer: a key of them is a JSON pass over every number, which
    // costs more than rendering them (base64, or the same JSON once), and a computed vector seldom repeats.
    if (response.embeddings !== undefined && response.embeddings.length > 0) return direct();
    const adapterKey = adapter.templateKey?.(response, request, state);
    if (adapterKey === undefined) return direct();
    // An answer from a step's own content keys on the step (a number), not on the content: no pass over
    // the text, the arguments and every other field per request.
    const source = response.source;
    const key = source
      ? this.#sourceKeys.of(source, adapter.id, adapterKey, response, request)
      : `${adapter.id}\u0000${adapterKey}\u0000${this.#texts.of(response.text)}\u0000${contentKey(response, request)}`;
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
    entry.dropped = true;
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
    if (!stream) return new FilledJson(status, headers, fillFrames(template, values)[0]);
    if (framer) {
      const binary: LazyStream<Uint8Array> = new LazyStream(stream, () => binaryFrames(template, framer, values), () => Buffer.concat(binary.frames) as Buffer<ArrayBuffer>);
      return { status, headers, stream: binary };
    }
    return { status, headers, stream: new LazyStream(stream, () => fillFrames(template, values), () => this.#bytesOf(template, values)) };
  }

  /**
   * The whole stream as one buffer: a handed-back one, or a copy of the first rendering, with the
   * values that differ rewritten where they sit (values keep their lengths: ids of one shape, a
   * `created` of ten digits); piece by piece when one does not.
   */
  #bytesOf(template: Template, values: string[]): Buffer<ArrayBuffer> {
    const proto = template.proto!;
    const kept = template.holds;
    for (let v = 0; v < values.length; v++) if (values[v].length !== kept[v].length) return Buffer.from(fillFrames(template, values).join(''), 'utf8') as Buffer<ArrayBuffer>;
    let buf: Buffer;
    let holds: string[];
    let view: DataView | undefined;
    const reused = template.free.pop();
    if (reused) {
      this.#bytes -= reused.buf.length;
      ({ buf, holds, view } = reused);
    } else {
      // `created` (seconds, and its ISO form) changes once a second, not per answer: the first rendering
      // follows it, so the copies made within that second already hold it.
      for (let v = CREATED; v <= CREATED_ISO; v++) if (values[v] !== kept[v]) writeAt(proto, template.positions[v], (kept[v] = values[v]));
      buf = proto.length > 4096 ? Buffer.allocUnsafeSlow(proto.length) : Buffer.allocUnsafe(proto.length);
      proto.copy(buf, 0);
      holds = kept;
    }
    // Ids differ from answer to answer: written without comparing (comparing two fresh strings is a
    // runtime call); only `created` is compared, as it usually matches what the buffer holds.
    for (let v = 0; v < values.length; v++) {
      if (v === CREATED || v === CREATED_ISO ? values[v] === holds[v] : false) continue;
      const positions = template.positions[v];
      if (positions.length <= MANY_PLACES) writeAt(buf, positions, values[v]);
      else writeManyAt(buf, (view ??= new DataView(buf.buffer, buf.byteOffset, buf.length)), positions, values[v], holds[v]);
    }
    if (proto.length <= 4096) return buf as Buffer<ArrayBuffer>;
    return lend(buf as Buffer<ArrayBuffer>, () => {
      // Handed back: it waits for the next answer of this template (unless the template was dropped).
      if (template.dropped || template.free.length >= MOST_FREE || this.#bytes + buf.length > this.#maxBytes) return;
      this.#bytes += buf.length;
      template.free.push({ buf, holds: values, view });
    });
  }
}

/** A JSON answer from a template: its text as filled, parsed only if a reader asks for `json` (a class: see lazy-stream.ts). */
class FilledJson implements RenderedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;

  constructor(status: number, headers: Record<string, string>, text: string) {
    this.status = status;
    this.headers = headers;
    this.text = text;
  }

  get json(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}
