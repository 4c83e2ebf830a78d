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

  it('puts a prefix first, pads the counter to the length, and grows past it only when the counter needs more digits', () => {
    const ids = new HexIds();
    const first = ids.next(32, 'req_');
    expect(first).toMatch(/^req_[0-9a-f]{12}0{19}1$/);
    const instance = first.slice(4, 16);
    expect(ids.next(20)).toBe(`${instance}00000002`);
    for (let i = 3; i < 0x11; i++) ids.next(20);
    expect(ids.next(20)).toBe(`${instance}00000011`);
    // A counter wider than the room left (two digits after the 12-digit prefix at length 14) is not cut.
    const wide = new HexIds();
    for (let i = 1; i < 0x100; i++) wide.next(14);
    expect(wide.next(14).slice(12)).toBe('100');
  });

  it('writes counters past 32 bits whole', () => {
    const ids = new HexIds(0xfffffffe);
    const at = (id: string) => id.slice(12);
    expect(at(ids.next(24))).toBe('0000ffffffff');
    expect(at(ids.next(24))).toBe('000100000000');
    expect(at(ids.next(24))).toBe('000100000001');
    const big = new HexIds(2 ** 52);
    expect(at(big.next(24))).toBe('10000000000001');
  });

  it('keeps two instances apart although both count from 1', () => {
    const a = new HexIds();
    const b = new HexIds();
    expect(a.next(32)).not.toBe(b.next(32));
    expect(a.next(32).slice(0, 12)).not.toBe(b.next(32).slice(0, 12));
  });
});
