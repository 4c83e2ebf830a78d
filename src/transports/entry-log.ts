/**
 * Journal entries kept off the JavaScript heap until someone reads them. A server's journal holds
 * the latest 10,000 requests; kept as strings, each body survived two young-generation collections,
 * was copied into the old generation and died there in turn, so a busy server spent a tenth of its
 * CPU moving bodies nobody read (bench/answer-shapes.bench.ts; docs/decisions/journal-memory.md).
 * Here a request kept as it came (`RepeatableRequest`) has its body, its request id and its timings
 * written into byte chunks the journal reuses; what stays on the heap is one small object of
 * references to shared values (headers, step, adapter). Reading the journal decodes the entry and
 * parses it, as `RepeatableRequest.parse` always did.
 */
import type { JournalEntry } from '../scenario/selection.ts';
import { NO_NEAR_MISSES, RepeatableRequest, type StoredEntry } from './kept-request.ts';

/**
 * A chunk's size: records are appended until the next does not fit. Small enough that a journal's
 * slack (the chunk being filled and one spare) stays 32 KiB whatever it holds; a body too long for
 * a chunk stays on the heap as before.
 */
const CHUNK_BYTES = 16 * 1024;
/** Two timings (8 bytes each) and three lengths (4 bytes each) before the request id, `content-length` and body. */
const HEAD_BYTES = 28;
/** The length logged for a request without `content-length` (HTTP/2, chunked uploads). */
const ABSENT = 0xffffffff;

/** A logged entry: the request's parts that are references, and where its bytes are. */
export class LoggedEntry {
  readonly #request: RepeatableRequest;
  readonly #chunk: Buffer;
  readonly #at: number;
  readonly method: string;
  readonly path: string;
  readonly provider: string | null;
  readonly status: number;
  readonly step: JournalEntry['step'];
  readonly bodyLength: number;

  constructor(entry: StoredEntry, request: RepeatableRequest, chunk: Buffer, at: number) {
    this.#request = request;
    this.#chunk = chunk;
    this.#at = at;
    this.method = entry.method;
    this.path = entry.path;
    this.provider = entry.provider;
    this.status = entry.status;
    this.step = entry.step;
    this.bodyLength = entry.bodyLength;
  }

  /** The entry as it was journaled, its request parsed (the keys in the order the core wrote them). */
  read(): JournalEntry {
    const chunk = this.#chunk;
    const at = this.#at;
    const idBytes = chunk.readUInt32LE(at + 16);
    const lengthField = chunk.readUInt32LE(at + 20);
    const bodyBytes = chunk.readUInt32LE(at + 24);
    const lengthAt = at + HEAD_BYTES + idBytes;
    const bodyAt = lengthField === ABSENT ? lengthAt : lengthAt + lengthField;
    const contentLength = lengthField === ABSENT ? undefined : chunk.toString('latin1', lengthAt, bodyAt);
    return {
      requestId: chunk.toString('utf8', at + HEAD_BYTES, lengthAt),
      method: this.method,
      path: this.path,
      provider: this.provider,
      request: this.#request.withBody(chunk.toString('utf8', bodyAt, bodyAt + bodyBytes), contentLength).parse(),
      status: this.status,
      step: this.step,
      // Only entries without near misses are logged: the one shared empty list.
      nearMisses: NO_NEAR_MISSES,
      startedAt: chunk.readDoubleLE(at),
      durationMs: chunk.readDoubleLE(at + 8),
      bodyLength: this.bodyLength,
    };
  }
}

/**
 * One journal's chunks, oldest first. Entries leave a journal oldest first, so a chunk is free once
 * the last entry written into it has left: it becomes the spare the next chunk reuses (no fresh
 * memory, so no page faults, at a steady rate of requests).
 */
export class EntryLog {
  /** Chunks in use, oldest first; each knows the ordinal of the last entry written into it. */
  readonly #chunks: Chunk[] = [];
  #pos = 0;
  #spare: Chunk | null = null;
  /** The last entry's request without its body (the next one's, when alike). */
  #request: RepeatableRequest | null = null;
  /** Chunks allocated so far (the rest of the chunks it used were reused). */
  chunksMade = 0;

  /**
   * The entry in its logged form, or null when it must stay as it is: not a request kept as it came,
   * something beyond the plain fields (notes, a frame, near misses), or a body too long for a chunk.
   */
  logged(entry: StoredEntry, ordinal: number): LoggedEntry | null {
    const request = entry.request;
    if (!(request instanceof RepeatableRequest) || !plain(entry)) return null;
    const body = request.bodyText;
    const id = entry.requestId;
    const length = request.contentLength;
    // UTF-8 takes at most 3 bytes a UTF-16 unit (header values are Latin-1, a byte a character): room
    // is checked before writing, without measuring.
    const most = HEAD_BYTES + 3 * (id.length + body.length) + (length?.length ?? 0);
    if (most > CHUNK_BYTES) return null;
    let chunk = this.#chunks.at(-1);
    if (chunk === undefined || this.#pos + most > CHUNK_BYTES) {
      chunk = this.#spare ?? this.#made();
      this.#spare = null;
      this.#chunks.push(chunk);
      this.#pos = 0;
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
    this.#pos = pos + bodyBytes;
    chunk.last = ordinal;
    // Requests of a load differ in their bodies alone: one bodyless request serves all their entries.
    this.#request = request.bodyless(this.#request);
    return new LoggedEntry(entry, this.#request, buf, at);
  }

  #made(): Chunk {
    this.chunksMade += 1;
    const buf = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    return { buf, view: new DataView(buf.buffer, buf.byteOffset, CHUNK_BYTES), last: 0 };
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

interface Chunk {
  buf: Buffer;
  view: DataView;
  /** The ordinal of the last entry written into it. */
  last: number;
}

/** Only the fields every entry has, in the core's order (a logged entry gives back exactly these). */
function plain(entry: StoredEntry): boolean {
  return entry.nearMisses.length === 0 && entry.reasoning === undefined && entry.violation === undefined && entry.authoringError === undefined && entry.frame === undefined;
}
