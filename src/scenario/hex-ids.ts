/**
 * Unique hex ids cheap enough for the request path (a string op or two, no entropy per id): a
 * random prefix drawn once per instance, then a counter. The 48-bit prefix keeps instances
 * (engines, MockLLMs, sessions, workers, processes) apart; the counter keeps one instance's ids apart.
 */
import { randomBytes } from 'node:crypto';

/**
 * A per-instance id source.
 * @example
 *   const ids = new HexIds();
 *   ids.next(32) // 'f3a9c0d21b7e00000000000000000001'
 */
export class HexIds {
  readonly #prefix = randomBytes(6).toString('hex');
  #count = 0;

  /** The next id, `length` hex characters (at least 20; longer only past 2^32 ids at 20). */
  next(length: number): string {
    return this.#prefix + (++this.#count).toString(16).padStart(length - this.#prefix.length, '0');
  }
}
