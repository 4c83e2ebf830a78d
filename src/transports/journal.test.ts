// The journal's bounds: entries, bytes, and a budget shared across journals that drops the oldest
// entries first and is given back when a journal empties (a session reset or deleted).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../scenario/selection.ts';
import { entryBytes, Journal, JournalBudget } from './journal.ts';
import { createMockLLM } from './mock-llm.ts';
import { SessionRegistry } from './sessions.ts';

let clock = 0;
const entry = (bodyLength: number, tag = ''): JournalEntry => ({
  requestId: `req_${tag}${clock}`,
  method: 'POST',
  path: '/v1/chat/completions',
  provider: 'openai',
  request: null,
  status: 200,
  step: null,
  nearMisses: [],
  startedAt: clock++,
  durationMs: 0,
  bodyLength,
});

describe('Journal', () => {
  it('lets a dropped entry go at once, not at the next compaction of the dead prefix', async () => {
    // The collector on demand, for this check only: the dropped entry must be unreachable.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const journal = new Journal({ entries: 100 });
    for (let i = 0; i < 100; i++) journal.push(entry(10));
    const first = new WeakRef(journal.entries[0]);
    const kept = new WeakRef(journal.entries[99]);
    journal.push(entry(10)); // drops the first; 1 dead slot, far from the compaction at 64 and half
    expect(journal.length).toBe(100);
    // WeakRef targets stay alive until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(kept.deref()).toBeDefined();
    expect(first.deref()).toBeUndefined();
  });

  it('keeps the latest entries within its entry and byte limits', () => {
    const byCount = new Journal({ entries: 3 });
    for (let i = 0; i < 200; i++) byCount.push(entry(10, `c${i}-`));
    expect(byCount.entries.map((e) => e.requestId.split('-')[0])).toEqual(['req_c197', 'req_c198', 'req_c199']);
    const byBytes = new Journal({ bytes: 3 * entryBytes(1000) });
    for (let i = 0; i < 10; i++) byBytes.push(entry(1000));
    expect(byBytes.length).toBe(3);
    expect(byBytes.bytes).toBe(3 * entryBytes(1000));
  });

  it('shares a budget: the oldest entries go first, whichever journal holds them', () => {
    const budget = new JournalBudget(4 * entryBytes(1000));
    const a = new Journal({ budget });
    const b = new Journal({ budget });
    a.push(entry(1000, 'a'));
    a.push(entry(1000, 'a'));
    b.push(entry(1000, 'b'));
    b.push(entry(1000, 'b'));
    b.push(entry(1000, 'b'));
    expect([a.length, b.length]).toEqual([1, 3]);
    expect(budget.usedBytes).toBe(a.bytes + b.bytes);
    // One entry larger than the whole budget still keeps the newest entry of the journal it went to.
    a.push(entry(10 * 4096, 'a'));
    expect([a.length, b.length]).toEqual([1, 0]);
  });

  it('with many journals on one budget keeps exactly what evicting the oldest entry anywhere would keep', () => {
    const size = entryBytes(100);
    const budget = new JournalBudget(150 * size);
    const journals = Array.from({ length: 100 }, (_, i) => new Journal({ budget, entries: i % 2 ? 3 : Infinity }));
    // The reference: every journal's entries, and on overflow the globally oldest live one goes.
    const model: { requestId: string; startedAt: number }[][] = journals.map(() => []);
    const limits = journals.map((_, i) => (i % 2 ? 3 : Infinity));
    let used = 0;
    for (let n = 0; n < 20_000; n++) {
      // Mostly round robin, with bursts into a few journals, and now and then a reset.
      const i = n % 7 === 0 ? n % 5 : (n * 37) % journals.length;
      if (n % 997 === 0) {
        journals[i].clear();
        used -= model[i].length * size;
        model[i] = [];
        continue;
      }
      const e = entry(100, `${i}-`);
      journals[i].push(e);
      model[i].push(e);
      used += size;
      while (model[i].length > 1 && model[i].length > limits[i]) {
        model[i].shift();
        used -= size;
      }
      while (used > budget.limitBytes) {
        let oldest = -1;
        for (let j = 0; j < model.length; j++) {
          if (model[j].length === 0 || (j === i && model[j].length <= 1)) continue;
          if (oldest < 0 || model[j][0].startedAt < model[oldest][0].startedAt) oldest = j;
        }
        if (oldest < 0) break;
        model[oldest].shift();
        used -= size;
      }
    }
    expect(journals.map((j) => j.entries.map((e) => e.requestId))).toEqual(model.map((m) => m.map((e) => e.requestId)));
    expect(budget.usedBytes).toBe(used);
    expect(budget.usedBytes).toBeLessThanOrEqual(budget.limitBytes);
    expect(budget.holders.size).toBe(model.filter((m) => m.length > 0).length);
  });

  it('gives its bytes back when a session is deleted', async () => {
    const budget = new JournalBudget(2 ** 20);
    const sessions = new SessionRegistry(createMockLLM(), { mock: { journalBudget: budget } });
    const s = sessions.create({ scenarios: [{ name: 'hi', steps: [{ respond: { text: 'hi' }, consume: false }] }] });
    const body = '{"model":"m","messages":[{"role":"user","content":"x"}]}';
    await s.mock.handle(new Request('http://localhost/v1/chat/completions', { method: 'POST', headers: { authorization: 'Bearer sk-x' }, body }));
    expect(budget.usedBytes).toBe(entryBytes(body.length));
    sessions.delete(s.id);
    expect(budget.usedBytes).toBe(0);
    expect(budget.holders.size).toBe(0);
  });
});
