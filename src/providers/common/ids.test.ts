import { describe, expect, it } from 'vitest';
import { ID_ALPHABETS, mintResponseId, mintToolCallId, RandomBytes, randomAlnum } from './ids.ts';

describe('tool call ids', () => {
  it('mints a prefix and a random part of the shape’s length and alphabet', () => {
    expect(mintToolCallId({ prefix: 'toolu_01', length: 22 }, 'get_weather')).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
    expect(mintToolCallId({ prefix: '', length: 8, alphabet: 'lower' }, 'get_weather')).toMatch(/^[a-z0-9]{8}$/);
    expect(mintToolCallId({ prefix: (name) => `${name}_`, length: 12, alphabet: 'lower' }, 'get_time')).toMatch(/^get_time_[a-z0-9]{12}$/);
  });

  it('draws every character of an alphabet, and only those (rejection keeps odd-sized alphabets uniform enough to reach all)', () => {
    for (const alphabet of [ID_ALPHABETS.base64url, ID_ALPHABETS.lower, ID_ALPHABETS.hex]) {
      const drawn = new Set(randomAlnum(20_000, alphabet));
      expect([...drawn].sort().join('')).toBe([...alphabet].sort().join(''));
    }
  });

  it('does not repeat ids across many mints', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => mintToolCallId({ prefix: '', length: 9 }, 't')));
    expect(ids.size).toBe(10_000);
  });
});

describe('response ids', () => {
  it("mints a prefix and a random part of the shape's length and alphabet, or a v4 UUID", () => {
    expect(mintResponseId({ prefix: 'msg_01', length: 22 })).toMatch(/^msg_01[A-Za-z0-9]{22}$/);
    expect(mintResponseId({ prefix: 'resp_', length: 48, alphabet: 'hex' })).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(mintResponseId({ prefix: '', length: 22, alphabet: 'base64url' })).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(mintResponseId('uuid')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('draws every hex digit at every position of a hex id (no UUID version or variant digit leaks in)', () => {
    const ids = Array.from({ length: 2_000 }, () => mintResponseId({ prefix: '', length: 48, alphabet: 'hex' }));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < 48; i += 1) expect(new Set(ids.map((id) => id[i])).size).toBe(16);
  });
});

describe('a RandomBytes pool', () => {
  it('gives ids of the shape from its pool, every character of an alphabet, none repeated across refills', () => {
    const random = new RandomBytes();
    expect(mintResponseId({ prefix: 'chatcmpl-', length: 29 }, random)).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(mintResponseId({ prefix: 'resp_', length: 48, alphabet: 'hex' }, random)).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(mintToolCallId({ prefix: 'tooluse_', length: 22, alphabet: 'base64url' }, 't', random)).toMatch(/^tooluse_[A-Za-z0-9_-]{22}$/);
    for (const alphabet of [ID_ALPHABETS.alnum, ID_ALPHABETS.base64url, ID_ALPHABETS.lower, ID_ALPHABETS.hex]) {
      expect([...new Set(randomAlnum(20_000, alphabet, random))].sort().join('')).toBe([...alphabet].sort().join(''));
    }
    // 10,000 ids of 22 characters: hundreds of refills.
    const ids = new Set(Array.from({ length: 10_000 }, () => mintResponseId({ prefix: 'msg_01', length: 22 }, random)));
    expect(ids.size).toBe(10_000);
  });

  it('maps each byte to its character uniformly: byte b gives alphabet[b % size], bytes past the last whole multiple are dropped', () => {
    // Every byte value once, in order, from a subclass's next(): the characters say what each byte became.
    const everyByte = () =>
      new (class extends RandomBytes {
        #n = 0;
        override next(): number {
          return this.#n++ % 256;
        }
      })();
    for (const alphabet of [ID_ALPHABETS.alnum, ID_ALPHABETS.base64url, ID_ALPHABETS.lower, ID_ALPHABETS.hex, 'ab']) {
      const limit = 256 - (256 % alphabet.length);
      const expected = Array.from({ length: limit }, (_, b) => alphabet[b % alphabet.length]).join('');
      expect(everyByte().chars(limit, alphabet)).toBe(expected);
      // The next characters start again at byte 0: bytes from `limit` to 255 gave none.
      const random = everyByte();
      expect(random.chars(limit + 3, alphabet)).toBe(expected + expected.slice(0, 3));
    }
  });

  it('reads its own pool the same way, across refills that grow the pool', () => {
    // Pools of 512, 1024, 2048, … bytes, each filled with 0, 1, …, 255, 0, 1, … : `chars` reads them in place.
    let fills: number[] = [];
    let random = new RandomBytes();
    for (const alphabet of [ID_ALPHABETS.alnum, ID_ALPHABETS.hex, 'ab']) {
      fills = [];
      random = new RandomBytes((buf) => {
        fills.push(buf.length);
        for (let i = 0; i < buf.length; i++) buf[i] = i % 256;
      });
      const limit = 256 - (256 % alphabet.length);
      const expected = Array.from({ length: limit }, (_, b) => alphabet[b % alphabet.length]).join('');
      // Whole rounds of 256 bytes: drawn in pieces of odd lengths, so draws start and end anywhere in a pool.
      let drawn = '';
      while (drawn.length < 40 * limit) drawn += random.chars(Math.min(37, 40 * limit - drawn.length), alphabet);
      expect(drawn).toBe(expected.repeat(40));
    }
    // 'ab' drew 40 × 256 bytes: pools of 512, 1024, 2048, 4096, then 8192 at most.
    expect(fills).toEqual([512, 1024, 2048, 4096, 8192]);
    // `next` goes on from where `chars` left off: 'ab' drops no byte, so at the start of a round.
    expect(random.next()).toBe(0);
    expect(random.next()).toBe(1);
  });
});
