import { describe, expect, it } from 'vitest';
import { HexIds } from './hex-ids.ts';

describe('HexIds', () => {
  it('gives ids of the asked length, distinct within one instance', () => {
    const ids = new HexIds();
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const id = ids.next(24);
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(1000);
  });

  it('keeps two instances apart although both count from 1', () => {
    const a = new HexIds();
    const b = new HexIds();
    expect(a.next(32)).not.toBe(b.next(32));
    expect(a.next(32).slice(0, 12)).not.toBe(b.next(32).slice(0, 12));
  });
});
