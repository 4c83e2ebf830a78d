import OpenAI from 'openai';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { Redactor } from '../goldens/redact.ts';
import { defaultAdapters } from '../providers/registry.ts';
import type { JournalEntry } from '../scenario/selection.ts';
import { EntryLog } from './entry-log.ts';
import { Journal } from './journal.ts';
import { RepeatableRequest, RequestKeeper, type StoredEntry } from './kept-request.ts';
import { startMockLLMServer } from './server.ts';

const chat = defaultAdapters().find((a) => a.id === 'openai')!;
const keeper = new RequestKeeper(new Redactor());

/** An entry as the core journals a Chat Completions request kept as it came. */
function entry(n: number, body: string, headers: Record<string, string> = {}, extra: Partial<JournalEntry> = {}): JournalEntry {
  const bodyText = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: body }] });
  const all = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(bodyText)), ...headers };
  const parsed = chat.parse({ method: 'POST', path: '/v1/chat/completions', url: new URL('http://x/v1/chat/completions'), headers: new Headers(all), bodyText }, undefined);
  const journaled: JournalEntry = {
    requestId: `req_${n}`, method: 'POST', path: '/v1/chat/completions', provider: 'openai', request: parsed, status: 200, step: null, nearMisses: [],
    startedAt: 1_764_400_000_000 + n + 0.5, durationMs: n / 3, bodyLength: bodyText.length, ...extra,
  };
  return keeper.entry(journaled, chat, { method: 'POST', path: '/v1/chat/completions', bodyText }) as JournalEntry;
}

describe('EntryLog', () => {
  it('gives back each entry as it was journaled: ids, exact timings, non-ASCII bodies, header values of its own', () => {
    const journal = new Journal();
    const sent = [
      entry(1, 'plain'),
      entry(2, 'Grüße, 東京 🌦', { 'user-agent': 'a' }),
      entry(3, 'same headers, other body', { 'user-agent': 'a' }),
      entry(4, 'other agent', { 'user-agent': 'b' }),
    ];
    const expected = sent.map((e) => ({ ...e, request: (e.request as unknown as RepeatableRequest).parse() }));
    for (const e of sent) journal.push(e);
    const read = journal.entries;
    expect(read).toEqual(expected);
    expect(read.map((e) => Object.keys(e))).toEqual(expected.map((e) => Object.keys(e)));
    expect(read[1].request!.messages[0].content).toBe('Grüße, 東京 🌦');
    expect(read[1].request!.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Grüße, 東京 🌦' }] }))));
    expect(read.map((e) => e.request!.headers['user-agent'])).toEqual([undefined, 'a', 'a', 'b']);
    expect(read[2].startedAt).toBe(1_764_400_000_003.5);
    expect(read[2].durationMs).toBe(1);
  });

  it('keeps on the heap what it cannot log: notes, near misses, a body longer than a chunk', () => {
    const journal = new Journal();
    const noted = entry(1, 'hi', {}, { reasoning: { text: 'thought' } } as Partial<JournalEntry>);
    const missed = entry(2, 'hi', {}, { nearMisses: [{ step: { scenario: 's', index: 0 }, failed: ['model'] }] } as Partial<JournalEntry>);
    const long = entry(3, 'x'.repeat(20_000));
    for (const e of [noted, missed, long]) journal.push(e);
    const read = journal.entries;
    expect(read[0].reasoning).toEqual({ text: 'thought' });
    expect(read[1].nearMisses).toHaveLength(1);
    expect(read[2].request!.messages[0].content).toBe('x'.repeat(20_000));
    expect(read.map((e) => e.request instanceof RepeatableRequest)).toEqual([false, false, false]);
  });

  it('reuses its chunks as entries leave: a full journal holds the chunk being filled and one spare, whatever passes through', () => {
    const log = new EntryLog();
    for (let n = 0; n < 5_000; n++) {
      expect(log.logged(entry(n, 'y'.repeat(900)), n)).not.toBeNull();
      // A journal of the latest three: entries before n - 2 have left.
      log.released(n - 2);
    }
    expect(log.heldBytes).toBeLessThanOrEqual(3 * 16 * 1024);
    // 4.6 MB of records went through three chunks.
    expect(log.chunksMade).toBeLessThanOrEqual(3);
    log.clear();
    expect(log.heldBytes).toBe(0);
  });
});

describe('logged entries on the heap', () => {
  it('hold no object per entry: 10,000 entries of a load cost the heap a few bytes each', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const base = entry(0, 'the same question, asked again and again');
    // Warmed up first: the first pushes also pay for compiled code and first-use allocations.
    const warm = new Journal();
    for (let n = 0; n < 10_000; n++) warm.push({ ...base, requestId: `warm_${n}`, startedAt: n } as StoredEntry);
    const journal = new Journal();
    gc();
    const before = getHeapStatistics().used_heap_size;
    for (let n = 0; n < 10_000; n++) journal.push({ ...base, requestId: `req_${n}`, startedAt: n } as StoredEntry);
    gc();
    const perEntry = (getHeapStatistics().used_heap_size - before) / 10_000;
    // The journal's arrays (a small integer and a size per entry, with up to half again as much slack:
    // 15-24 bytes); an object per entry is 50 bytes or more on its own (the code before: 108).
    expect(perEntry).toBeLessThan(40);
    expect(journal.entries.map((e) => e.requestId).slice(-2)).toEqual(['req_9998', 'req_9999']);
  });

  it('logs into no more chunks than it may have in use at once; past that, entries stay as they are', () => {
    const log = new EntryLog(3);
    // 5,000 characters: a chunk takes one (its room is checked at 3 bytes a character).
    const base = entry(0, 'w'.repeat(5_000));
    const at = Array.from({ length: 4 }, (_, n) => log.logged({ ...base, requestId: `req_${n}` } as StoredEntry, n));
    expect(at[3]).toBeNull();
    expect(at.slice(0, 3).map((l) => log.read(l!).requestId)).toEqual(['req_0', 'req_1', 'req_2']);
    // Once the oldest has left, its chunk is free again.
    log.released(1);
    const next = log.logged({ ...base, requestId: 'req_4' } as StoredEntry, 4);
    expect(log.read(next!).requestId).toBe('req_4');
    expect(log.read(at[2]!).requestId).toBe('req_2');
  });

  it('reads entries right after their chunks were numbered past 65,536 (a locator is a small integer)', () => {
    // One entry a chunk, so every entry takes the next chunk number; the two latest stay in use.
    const base = entry(0, 'z'.repeat(5_000));
    const log = new EntryLog();
    const at: number[] = [];
    for (let n = 0; n < 65_540; n++) {
      const locator = log.logged({ ...base, requestId: `req_${n}`, startedAt: n } as StoredEntry, n);
      expect(locator).not.toBeNull();
      at[n] = locator!;
      log.released(n - 1);
      if (n % 16_384 === 0 || n >= 65_534) {
        for (const k of n === 0 ? [0] : [n - 1, n]) expect([log.read(at[k]).requestId, log.read(at[k]).startedAt], `after ${n}`).toEqual([`req_${k}`, k]);
      }
    }
    expect(log.chunksMade).toBeLessThanOrEqual(3);
    // Through a journal, too.
    const journal = new Journal({ entries: 2 });
    for (let n = 0; n < 70_000; n++) journal.push({ ...base, requestId: `req_${n}`, startedAt: n } as StoredEntry);
    expect(journal.entries.map((e) => e.requestId)).toEqual(['req_69998', 'req_69999']);
  });
});

describe('a server journal', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('reads back what the openai SDK sent: its request ids, the bodies, the timings, past the entry limit', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'chat', steps: [{ respond: { text: 'ok' }, consume: false }] }], journalLimit: 50 });
    servers.push(server);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = Date.now();
    const ids: string[] = [];
    for (let n = 0; n < 120; n++) {
      const content = `question ${n} — ¿qué tal? 🌍`;
      if (n % 2 === 0) {
        const res = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] }, { headers: { 'x-request-id': `client-${n}` } });
        ids.push(res._request_id!);
      } else {
        const { data: stream, request_id } = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }], stream: true }).withResponse();
        for await (const _ of stream);
        ids.push(request_id!);
      }
    }
    const entries = server.mock.requests;
    expect(entries).toHaveLength(50);
    expect(entries.map((e) => e.requestId)).toEqual(ids.slice(70));
    expect(entries[0].requestId).toBe('client-70');
    expect(entries.map((e) => e.request!.messages[0].content)).toEqual(ids.slice(70).map((_, i) => `question ${70 + i} — ¿qué tal? 🌍`));
    expect(entries.map((e) => e.request!.stream)).toEqual(ids.slice(70).map((_, i) => i % 2 === 1));
    for (const e of entries) {
      expect(e.startedAt).toBeGreaterThanOrEqual(before);
      expect(e.startedAt).toBeLessThanOrEqual(Date.now());
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.request!.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(e.request!.raw))));
      expect(e.request!.headers.authorization).toBe('[REDACTED]');
    }
    expect(server.mock.requests[0]).toBe(entries[0]);
  });
});
