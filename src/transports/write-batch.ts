/**
 * Whole answers held until the event loop has read every request that was ready, then written
 * together (in its check phase, the same turn: no timer, no added wait).
 *
 * Why: on a loaded port the client is often asleep when an answer goes out, and the write that wakes
 * it pays for the wake-up (on a VM an interrupt to the other CPU, taken on the writer's account).
 * Written one by one between reads, nearly every answer woke the client anew. Written together, the
 * first wakes it and the rest find it running. Measured per request on a streamed tool call: 0.80–0.97
 * of the CPU of writing each at once (docs/decisions/benchmarks-from-outside-the-process.md).
 * Only whole bodies up to 32 KiB wait; longer ones and paced streams are written as they come. Order per connection is kept: the
 * batch is written first in, first out, and node queues pipelined answers in order anyway.
 */
import type { ServerResponse } from 'node:http';
import type { RawResponse } from './handle.ts';

/** The longest body a batch holds: bytes, or characters of a string body (near enough). */
const MOST = 32 * 1024;

/**
 * A batch of answers for one server.
 * @example
 *   const batch = new WriteBatch((res, out) => writeRawResponse(res, out), fail);
 *   batch.add(res, answer); // written once this turn's requests are read
 */
export class WriteBatch {
  /**
   * Whether an answer waits for the batch: whole bodies up to 32 KiB (JSON answers, short streams, tool
   * calls). A longer one is written at once: its own write outweighs a wake-up, and held with others it
   * cost more (a 1,000-token stream took 2.9x bare batched, against 1.3–1.4x written at once).
   */
  static takes(body: RawResponse['body']): boolean {
    return typeof body === 'string' ? body.length <= MOST : body instanceof Uint8Array && body.byteLength <= MOST;
  }

  /** Responses and their answers, alternately: one array, no pair object per answer. */
  #pending: (ServerResponse | RawResponse)[] = [];
  #spare: (ServerResponse | RawResponse)[] = [];
  readonly #write: (res: ServerResponse, out: RawResponse) => void;
  readonly #fail: (res: ServerResponse, err: unknown) => void;
  readonly #flush = () => this.flush();

  constructor(write: (res: ServerResponse, out: RawResponse) => void, fail: (res: ServerResponse, err: unknown) => void) {
    this.#write = write;
    this.#fail = fail;
  }

  /** Holds an answer for this turn's batch. */
  add(res: ServerResponse, out: RawResponse): void {
    if (this.#pending.length === 0) setImmediate(this.#flush);
    this.#pending.push(res, out);
  }

  /** Writes every held answer now, in the order they came; one that throws fails alone. */
  flush(): void {
    const list = this.#pending;
    // Swapped, not spliced: an answer added while this one writes waits for the next turn's flush.
    this.#pending = this.#spare;
    for (let i = 0; i < list.length; i += 2) {
      const res = list[i] as ServerResponse;
      try {
        this.#write(res, list[i + 1] as RawResponse);
      } catch (err) {
        this.#fail(res, err);
      }
    }
    list.length = 0;
    this.#spare = list;
  }

  /** Answers held now. */
  get size(): number {
    return this.#pending.length / 2;
  }
}
