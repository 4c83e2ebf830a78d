import { describe, expect, it } from 'vitest';
import { ID_ALPHABETS, mintToolCallId, randomAlnum } from './ids.ts';

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
