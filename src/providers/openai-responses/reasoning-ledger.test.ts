import { describe, expect, it } from 'vitest';
import { ReasoningLedger } from './reasoning-ledger.ts';
import { ResponseStore } from './store.ts';

describe('ReasoningLedger', () => {
  it('knows which reasoning item each output item needs', () => {
    const ledger = new ReasoningLedger();
    ledger.add('rs_1', { followers: ['fc_1', 'fc_2'], stored: false });
    expect(ledger.requiredBy('fc_2')).toBe('rs_1');
    expect(ledger.requiredBy('fc_3')).toBeUndefined();
    expect(ledger.get('rs_1')).toEqual({ followers: ['fc_1', 'fc_2'], stored: false });
  });

  it('forgets the oldest entries past its entry limit or its id limit, keeping the newest', () => {
    const byCount = new ReasoningLedger(2, 1000);
    for (const n of [1, 2, 3]) byCount.add(`rs_${n}`, { followers: [`fc_${n}`], stored: true });
    expect(byCount.size).toBe(2);
    expect(byCount.get('rs_1')).toBeUndefined();
    expect(byCount.requiredBy('fc_1')).toBeUndefined();
    expect(byCount.requiredBy('fc_3')).toBe('rs_3');

    const byIds = new ReasoningLedger(1000, 4);
    byIds.add('rs_a', { followers: ['fc_a'], stored: true });
    byIds.add('rs_b', { followers: ['fc_b1', 'fc_b2'], stored: true });
    expect(byIds.get('rs_a')).toBeUndefined();
    byIds.add('rs_c', { followers: Array.from({ length: 10 }, (_, i) => `fc_c${i}`), stored: true });
    // Past the limit on its own, the newest stays (a conversation can go on).
    expect(byIds.size).toBe(1);
    expect(byIds.requiredBy('fc_c9')).toBe('rs_c');
  });
});

describe('ResponseStore with reasoning', () => {
  it("weighs a response's sealed reasoning beside its conversation, so the byte limit bounds it too", () => {
    const store = new ResponseStore(10, 2048 * 2 + 500);
    store.set('resp_1', { conversation: [], object: {} }, 400);
    expect(store.bytes).toBe(2048 + 400);
    store.set('resp_2', { conversation: [], object: {} }, 400);
    expect(store.get('resp_1')).toBeUndefined();
    expect(store.size).toBe(1);
  });
});
