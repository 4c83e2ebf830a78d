/**
 * The responses a Responses adapter rendered (`store` not false), by id: what
 * `previous_response_id` continues from and what `GET /v1/responses/{id}` returns. One store per
 * adapter instance (so per MockLLM), bounded: the oldest are forgotten first.
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

/**
 * Stored responses by id, oldest forgotten first once `limit` is reached.
 * @example
 *   const store = new ResponseStore();
 *   store.set('resp_1', { conversation, object });
 *   store.get('resp_1')?.conversation
 */
export class ResponseStore {
  readonly #entries = new Map<string, StoredResponse>();
  readonly #limit: number;

  constructor(limit: number = RESPONSE_STORE_LIMIT) {
    this.#limit = limit;
  }

  get(id: string): StoredResponse | undefined {
    return this.#entries.get(id);
  }

  set(id: string, stored: StoredResponse): void {
    this.#entries.delete(id);
    this.#entries.set(id, stored);
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.#entries.size > this.#limit) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(id: string): boolean {
    return this.#entries.delete(id);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
