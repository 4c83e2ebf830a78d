/**
 * Journal entries kept off the JavaScript heap until someone reads them. A server's journal holds
 * the latest 10,000 requests; kept as strings, each body survived two young-generation collections,
 * was copied into the old generation and died there in turn, so a busy server spent a tenth of its
 * CPU moving bodies nobody read (bench/answer-shapes.bench.ts; docs/decisions/journal-memory.md).
 * Here a request kept as it came (`RepeatableRequest`) has its body, its request id, its timings,
 * status and length written into byte chunks the journal reuses, and the journal holds a small
 * integer where the entry is (`Locator`), not an object: an object per entry outlived the young
 * generation in turn, and its promotion brought a major collection every ~20,000 requests. What the
 * entries share (method, path, step, the bodyless request) is one `Refs` per chunk for as long as it
 * does not change. Reading the journal decodes the entry and parses it, as `RepeatableRequest.parse` always did.
 */
import type { JournalEntry } from '../scenario/selection.ts';
import { NO_NEAR_MISSES, RepeatableRequest, type StoredEntry } from './kept-request.ts';

/**
 * A chunk's size: records are appended until the next does not fit. Small enough that a journal's
 * slack (the chunk being filled and one spare) stays 32 KiB whatever it holds; a body too long for
 * a chunk stays on the heap as before.
 */
const CHUNK_BYTES = 16 * 1024;
/** Bits of a locator that say where in its chunk a record starts (CHUNK_BYTES = 2^14). */
const OFFSET_BITS = 14;
/** Chunk numbers wrap at 2^16: a locator stays a small integer (2^30), and a journal never holds 65,536 chunks at once. */
const SEQ_MASK = 0xffff;
/**
 * Two timings (8 bytes each), three lengths (4 bytes each), the body's length in characters (4), the
 * status (2) and the index of its `Refs` in the chunk (2), before the request id, `content-length` and body.
 */
const HEAD_BYTES = 36;
/** The length logged for a request without `content-length` (HTTP/2, chunked uploads). */
const ABSENT = 0xffffffff;

/** Where a logged entry is: its chunk's number and its offset there, as one small integer. */
export type Locator = number;

/** What consecutive entries of a chunk share: references, not bytes. */
interface Refs {
  method: string;
  path: string;
  provider: string | null;
  step: JournalEntry['step'];
  request: RepeatableRequest;
}

interface Chunk {
  buf: Buffer;
  view: DataView;
  /** Its number while in use (a spare gets a new one). */
  seq: number;
  /** The ordinal of the last entry written into it. */
  last: number;
  refs: Refs[];
}

/**
 * One journal's chunks, oldest first. Entries leave a journal oldest first, so a chunk is free once
 * the last entry written into it has left: it becomes the spare the next chunk reuses (no fresh
 * memory, so no page faults, at a steady rate of requests).
 */
export class EntryLog {
  /** Chunks in use, oldest first, their numbers consecutive (mod 2^16). */
  readonly #chunks: Chunk[] = [];
  #pos = 0;
  #spare: Chunk | null = null;
  #nextSeq = 0;
  /** The last entry's request without its body (the next one's, when alike). */
  #request: RepeatableRequest | null = null;
  /** Chunks allocated so far (the rest of the chunks it used were reused). */
  chunksMade = 0;
  readonly #maxChunks: number;

  /**
   * `maxChunks` in use at most (1 GiB by default): chunk numbers wrap at 2^16, so no more may be live at
   * once; past it (a journal without limits) entries stay on the heap as they are.
   */
  constructor(maxChunks = SEQ_MASK + 1) {
    this.#maxChunks = Math.min(maxChunks, SEQ_MASK + 1);
  }

  /**
   * Logs the entry and says where, or null when it must stay as it is: not a request kept as it came,
   * something beyond the plain fields (notes, a frame, near misses), or a body too long for a chunk.
   */
  logged(entry: StoredEntry, ordinal: number): Locator | null {
    const request = entry.request;
    if (!(request instanceof RepeatableRequest) || !plain(entry)) return null;
    const body = request.bodyText;
    const id = entry.requestId;
    const length = request.contentLength;
    // UTF-8 takes at most 3 bytes a UTF-16 unit (header values are Latin-1, a byte a character): room
    // is checked before writing, without measuring.
    const most = HEAD_BYTES + 3 * (id.length + body.length) + (length?.length ?? 0);
    if (most > CHUNK_BYTES || entry.status > 0xffff || entry.bodyLength >= ABSENT) return null;
    let chunk = this.#chunks.at(-1);
    if (chunk === undefined || this.#pos + most > CHUNK_BYTES) {
      if (this.#chunks.length >= this.#maxChunks) return null;
      chunk = this.#spare ?? this.#made();
      this.#spare = null;
      chunk.seq = this.#nextSeq;
      this.#nextSeq = (this.#nextSeq + 1) & SEQ_MASK;
      chunk.refs.length = 0;
      this.#chunks.push(chunk);
      this.#pos = 0;
    }
    // Requests of a load differ in their bodies alone: one bodyless request serves all their entries.
    this.#request = request.bodyless(this.#request);
    const refs = chunk.refs;
    let shared = refs.at(-1);
    if (shared === undefined || !sameRefs(shared, entry, this.#request)) {
      shared = { method: entry.method, path: entry.path, provider: entry.provider, step: entry.step, request: this.#request };
      refs.push(shared);
    }
    const { buf, view } = chunk;
    const at = this.#pos;
    // Numbers through a DataView: inlined by the compiler, where Buffer's write methods are calls.
    view.setFloat64(at, entry.startedAt, true);
    view.setFloat64(at + 8, entry.durationMs, true);
    let pos = at + HEAD_BYTES;
    const idBytes = buf.write(id, pos, 'utf8');
    pos += idBytes;
    const lengthBytes = length === undefined ? 0 : buf.write(length, pos, 'latin1');
    pos += lengthBytes;
    const bodyBytes = buf.write(body, pos, 'utf8');
    view.setUint32(at + 16, idBytes, true);
    view.setUint32(at + 20, length === undefined ? ABSENT : lengthBytes, true);
    view.setUint32(at + 24, bodyBytes, true);
    view.setUint32(at + 28, entry.bodyLength, true);
    view.setUint16(at + 32, entry.status, true);
    view.setUint16(at + 34, refs.length - 1, true);
    this.#pos = pos + bodyBytes;
    chunk.last = ordinal;
    return (chunk.seq << OFFSET_BITS) | at;
  }

  /** The entry logged at `locator`, as it was journaled, its request parsed (the keys in the order the core wrote them). */
  read(locator: Locator): JournalEntry {
    const seq = locator >>> OFFSET_BITS;
    const first = this.#chunks[0];
    const chunk = first === undefined ? undefined : this.#chunks[(seq - first.seq) & SEQ_MASK];
    if (chunk?.seq !== seq) throw new Error(`ghostwire: journal entry ${locator} is no longer logged`);
    const at = locator & (CHUNK_BYTES - 1);
    const { buf, view } = chunk;
    const idBytes = view.getUint32(at + 16, true);
    const lengthField = view.getUint32(at + 20, true);
    const bodyBytes = view.getUint32(at + 24, true);
    const refs = chunk.refs[view.getUint16(at + 34, true)];
    const lengthAt = at + HEAD_BYTES + idBytes;
    const bodyAt = lengthField === ABSENT ? lengthAt : lengthAt + lengthField;
    const contentLength = lengthField === ABSENT ? undefined : buf.toString('latin1', lengthAt, bodyAt);
    return {
      requestId: buf.toString('utf8', at + HEAD_BYTES, lengthAt),
      method: refs.method,
      path: refs.path,
      provider: refs.provider,
      request: refs.request.withBody(buf.toString('utf8', bodyAt, bodyAt + bodyBytes), contentLength).parse(),
      status: view.getUint16(at + 32, true),
      step: refs.step,
      // Only entries without near misses are logged: the one shared empty list.
      nearMisses: NO_NEAR_MISSES,
      startedAt: view.getFloat64(at, true),
      durationMs: view.getFloat64(at + 8, true),
      bodyLength: view.getUint32(at + 28, true),
    };
  }

  #made(): Chunk {
    this.chunksMade += 1;
    const buf = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    return { buf, view: new DataView(buf.buffer, buf.byteOffset, CHUNK_BYTES), seq: 0, last: 0, refs: [] };
  }

  /** Bytes of memory the log holds: its chunks and its spare. */
  get heldBytes(): number {
    return (this.#chunks.length + (this.#spare ? 1 : 0)) * CHUNK_BYTES;
  }

  /** Entries before ordinal `dropped` have left: their chunks (all but the one being filled) are free. */
  released(dropped: number): void {
    const chunks = this.#chunks;
    while (chunks.length > 1 && chunks[0].last < dropped) {
      const free = chunks.shift()!;
      free.refs.length = 0;
      this.#spare ??= free;
    }
  }

  /** Every entry has left (a reset): the memory goes too. */
  clear(): void {
    this.#chunks.length = 0;
    this.#pos = 0;
    this.#spare = null;
    this.#request = null;
  }
}

/** Only the fields every entry has, in the core's order (a logged entry gives back exactly these). */
function plain(entry: StoredEntry): boolean {
  return entry.nearMisses.length === 0 && entry.reasoning === undefined && entry.violation === undefined && entry.authoringError === undefined && entry.frame === undefined;
}

function sameRefs(refs: Refs, entry: StoredEntry, request: RepeatableRequest): boolean {
  return refs.request === request && refs.method === entry.method && refs.path === entry.path && refs.provider === entry.provider && refs.step === entry.step;
}
