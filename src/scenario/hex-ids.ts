/**
 * Unique hex ids cheap enough for the request path (no entropy per id): a random prefix drawn once
 * per instance, then a counter. The 48-bit prefix keeps instances (engines, MockLLMs, sessions,
 * workers, processes) apart; the counter keeps one instance's ids apart.
 */
import { randomBytes } from 'node:crypto';

/** Hex digits as char codes. */
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * A per-instance id source.
 * @example
 *   const ids = new HexIds();
 *   ids.next(32) // 'f3a9c0d21b7e00000000000000000001'
 *   ids.next(32, 'req_') // 'req_f3a9c0d21b7e00000000000000000002'
 */
export class HexIds {
  /** The instance's prefix as hex digits (12 bytes of ASCII). */
  readonly #prefix = Buffer.from(randomBytes(6).toString('hex'), 'latin1');
  #count: number;
  #scratch = Buffer.allocUnsafeSlow(64);

  /** `count`: ids already given (the next id's counter is one more); 0 for a new source. */
  constructor(count = 0) {
    this.#count = count;
  }

  /**
   * The next id: `prefix`, then `length` hex characters (at least 20; longer only past 2^32 ids at
   * 20). Written into a scratch buffer and read as one string: a journal keeps request ids, and a
   * string built by concatenation is kept as a tree of its parts (three or four heap objects).
   */
  next(length: number, prefix = ''): string {
    let n = ++this.#count;
    let digits = 1;
    for (let rest = n; rest >= 16; rest = Math.floor(rest / 16)) digits += 1;
    const counterLength = Math.max(length - this.#prefix.length, digits);
    const size = prefix.length + this.#prefix.length + counterLength;
    if (this.#scratch.length < size) this.#scratch = Buffer.allocUnsafeSlow(size);
    const out = this.#scratch;
    for (let i = 0; i < prefix.length; i++) out[i] = prefix.charCodeAt(i);
    this.#prefix.copy(out, prefix.length);
    // The counter's digits from the right, then zeros: integer digits while the count fits 32 bits (a
    // division of doubles per digit, over 20 digits mostly zero, was the larger part of an id).
    let i = size - 1;
    if (n <= 0xffffffff) {
      for (let rest = n >>> 0; rest !== 0; rest >>>= 4) out[i--] = HEX[rest & 15];
    } else {
      for (; n > 0; n = Math.floor(n / 16)) out[i--] = HEX[n % 16];
    }
    out.fill(48 /* 0 */, size - counterLength, i + 1);
    return out.toString('latin1', 0, size);
  }
}
