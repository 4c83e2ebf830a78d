/**
 * The responses a Responses adapter rendered (`store` not false), by id: what
 * `previous_response_id` continues from and what `GET /v1/responses/{id}` returns. One store per
 * mock (the adapter's per-mock state), bounded in entries and in bytes: the oldest are forgotten first.
 * Chained conversations repeat earlier turns in every entry, so a count alone would not bound memory.
 */
import type { CanonicalMessage } from '../../scenario/canonical.ts';

/** One stored response. */
export interface StoredResponse {
  /** The conversation through this response: earlier turns, this request's input, then the output as an assistant turn (instructions excluded: they do not carry over). */
  conversation: CanonicalMessage[];
  /** The response object as rendered (the final one, for a streamed response). */
  object: Record<string, unknown>;
}

/** How many responses a store keeps by default. */
export const RESPONSE_STORE_LIMIT = 1000;
/** How many bytes of stored conversations a store keeps by default (estimated from their text). */
export const RESPONSE_STORE_BYTES = 64 * 2 ** 20;

/** Fixed cost of an entry: the response object's fields and the map's own. */
const ENTRY_OVERHEAD = 2048;

/** An estimate of an entry's size: its conversation's text (UTF-16) and tool-call arguments, plus a fixed part. */
function weigh(stored: StoredResponse): number {
  let bytes = ENTRY_OVERHEAD;
  for (const m of stored.conversation) {
    bytes += m.content.length * 2;
    for (const call of m.toolCalls ?? []) bytes += (call.name.length + JSON.stringify(call.arguments ?? null).length) * 2;
  }
  return bytes;
}

/**
 * Stored responses by id, oldest forgotten first once `limit` entries or `limitBytes` are reached
 * (the newest entry always stays, so a conversation can continue).
 * @example
 *   const store = new ResponseStore();
 *   store.set('resp_1', { conversation, object });
 *   store.get('resp_1')?.conversation
 */
export class ResponseStore {
  readonly #entries = new Map<string, { stored: StoredResponse; bytes: number }>();
  readonly #limit: number;
  readonly #limitBytes: number;
  #bytes = 0;

  constructor(limit: number = RESPONSE_STORE_LIMIT, limitBytes: number = RESPONSE_STORE_BYTES) {
    this.#limit = limit;
    this.#limitBytes = limitBytes;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  get(id: string): StoredResponse | undefined {
    return this.#entries.get(id)?.stored;
  }

  /** `extraBytes`: what the object holds beyond its conversation's text (a reasoning item's encrypted content). */
  set(id: string, stored: StoredResponse, extraBytes = 0): void {
    this.delete(id);
    const bytes = weigh(stored) + extraBytes;
    this.#entries.set(id, { stored, bytes });
    this.#bytes += bytes;
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.#entries.size > 1 && (this.#entries.size > this.#limit || this.#bytes > this.#limitBytes)) {
      this.delete(this.#entries.keys().next().value!);
    }
  }

  delete(id: string): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    this.#bytes -= entry.bytes;
    return this.#entries.delete(id);
  }

  get size(): number {
    return this.#entries.size;
  }
}
