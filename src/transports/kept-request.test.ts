import OpenAI from 'openai';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../goldens/redact.ts';
import type { CanonicalRequest } from '../scenario/canonical.ts';
import type { JournalEntry } from '../scenario/selection.ts';
import { defaultAdapters } from '../providers/registry.ts';
import { RequestKeeper } from './kept-request.ts';
import { createMockLLM } from './mock-llm.ts';
import { startMockLLMServer } from './server.ts';

const request = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  provider: 'openai',
  path: '/v1/chat/completions',
  model: 'gpt-4o',
  stream: false,
  messages: [{ role: 'user', content: 'hi sk-secret' }],
  tools: [],
  headers: { authorization: 'Bearer sk-secret', 'content-length': '80', 'content-type': 'application/json', host: '127.0.0.1:1' },
  params: {},
  raw: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi sk-secret' }] },
  ...over,
});

describe('RequestKeeper', () => {
  it('keeps what a reader saw before: the same keys in the same order, equal values, the auth header redacted', () => {
    const original = request({ params: { temperature: 0 }, tools: [{ name: 'weather', parameters: { type: 'object' } }] });
    const kept = new RequestKeeper(new Redactor()).keep(original);
    expect(Object.keys(kept)).toEqual(Object.keys(original));
    expect(kept).toStrictEqual({ ...original, headers: { ...original.headers, authorization: '[REDACTED]' } });
    expect(JSON.stringify(kept)).toBe(JSON.stringify({ ...original, headers: { ...original.headers, authorization: '[REDACTED]' } }));
  });

  it('shares one frozen empty tool list and parameter record between requests that have none', () => {
    const keeper = new RequestKeeper(new Redactor());
    const a = keeper.keep(request());
    const b = keeper.keep(request());
    expect(a.tools).toBe(b.tools);
    expect(a.params).toBe(b.params);
    expect(a.tools).toEqual([]);
    expect(a.params).toEqual({});
    expect(Object.isFrozen(a.tools) && Object.isFrozen(a.params)).toBe(true);
    // Lists with content stay the request's own.
    const tools = [{ name: 'weather' }];
    expect(keeper.keep(request({ tools })).tools).toBe(tools);
  });

  it('readies an entry: one frozen empty near-miss list for all, a request kept, a near miss list with content left alone', () => {
    const keeper = new RequestKeeper(new Redactor());
    const entry = (nearMisses: JournalEntry['nearMisses']): JournalEntry => ({
      requestId: 'req_1', method: 'POST', path: '/v1/chat/completions', provider: 'openai', request: request(), status: 200, step: null, nearMisses, startedAt: 0, durationMs: 0, bodyLength: 80,
    });
    const a = keeper.entry(entry([]));
    const b = keeper.entry(entry([]));
    expect(a.nearMisses).toBe(b.nearMisses);
    expect(Object.isFrozen(a.nearMisses) && a.nearMisses.length === 0).toBe(true);
    expect((a.request as CanonicalRequest).headers.authorization).toBe('[REDACTED]');
    expect(a.path).toBe('/v1/chat/completions');
    const misses = [{ step: { scenario: 's', index: 0 }, failed: ['model'] }];
    expect(keeper.entry(entry(misses)).nearMisses).toBe(misses);
  });

  it('redacts listed values in the body, messages and parameters, and leaves the request it was given alone', () => {
    const original = request({ params: { user: 'sk-secret' } });
    const kept = new RequestKeeper(new Redactor({ values: ['sk-secret'] })).keep(original);
    expect(JSON.stringify(kept)).not.toContain('sk-secret');
    expect(kept.messages[0].content).toBe('hi [REDACTED]');
    expect(kept.params).toEqual({ user: '[REDACTED]' });
    expect(original.headers.authorization).toBe('Bearer sk-secret');
    expect((original.raw as { messages: Array<{ content: string }> }).messages[0].content).toBe('hi sk-secret');
  });

  it('keeps every header value and path right past the point where its memo starts over, long ones too', () => {
    const keeper = new RequestKeeper(new Redactor());
    const long = 'x'.repeat(500);
    for (let i = 0; i < 600; i++) {
      const kept = keeper.keep(request({ path: `/v1/responses/resp_${i}`, headers: { 'x-n': `value-${i}`, host: 'h', 'user-agent': long } }));
      expect(kept.headers).toEqual({ 'x-n': `value-${i}`, host: 'h', 'user-agent': long });
      expect(kept.path).toBe(`/v1/responses/resp_${i}`);
    }
  });
});

describe('requests kept as they came (adapters with repeatableParse)', () => {
  const weather = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
  const steps = [
    { respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
    { respond: { text: 'Sunny' }, consume: false },
  ];
  /** The same traffic through the openai SDK to a mock whose Chat Completions adapter keeps requests as they came, or not. */
  async function journal(repeatable: boolean, redact?: { values: string[] }) {
    const parses = { count: 0 };
    const adapters = defaultAdapters().map((a) =>
      a.id === 'openai' ? { ...a, repeatableParse: repeatable, parse: (...args: Parameters<typeof a.parse>) => (parses.count++, a.parse(...args)) } : a,
    );
    const mock = createMockLLM({ scenarios: [{ name: 'loop', steps }], adapters, redact });
    const client = new OpenAI({ apiKey: 'sk-live-secret', fetch: (input, init) => mock.handle(new Request(input, init)), maxRetries: 0 });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'developer', content: 'Be brief' },
      { role: 'user', content: 'Weather in Paris? my token is tok-123' },
    ];
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: [weather], temperature: 0.2 });
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: first.choices[0].message.tool_calls![0].id, content: '{"sky":"clear"}' });
    await client.chat.completions.create({ model: 'gpt-4o', messages, tools: [weather], stream: true, stream_options: { include_usage: true } }).then(async (s) => {
      for await (const _ of s);
    });
    // A tool result for a call the conversation never made: refused by the protocol rules, journaled all the same.
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'tool', tool_call_id: 'call_nowhere', content: 'x' }] }).catch(() => {});
    return Object.assign(mock, { parses });
  }
  const strip = (entries: readonly JournalEntry[]) => entries.map(({ requestId: _r, startedAt: _s, durationMs: _d, ...rest }) => rest);

  it('reads back what the journal kept from the parsed request: the same entries, secrets redacted, as JSON too', async () => {
    const [lazy, eager] = await Promise.all([journal(true), journal(false)]);
    // Parsed once per request as it came, then once more per entry on the first read only.
    expect(lazy.parses.count).toBe(3);
    expect(lazy.requests).toHaveLength(3);
    expect(lazy.parses.count).toBe(6);
    void lazy.requests;
    expect(lazy.parses.count).toBe(6);
    void eager.requests;
    expect(eager.parses.count).toBe(3);
    expect(lazy.requests.map((e) => e.status)).toEqual([200, 200, 400]);
    // Call ids and response ids differ between the two mocks: the requests carry the first answer's call id.
    const callId = (m: typeof lazy) => (m.requests[1].request!.messages[2].toolCalls![0].id);
    const same = (m: typeof lazy) => JSON.parse(JSON.stringify(strip(m.requests)).replaceAll(callId(m), 'call_X'));
    expect(same(lazy)).toEqual(same(eager));
    expect(lazy.requests[0].request!.headers.authorization).toBe('[REDACTED]');
    expect(lazy.requests[0].request!.messages[0]).toEqual({ role: 'system', content: 'Be brief' });
    expect(lazy.requests[1].request!.params).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('gives the same entry objects on every read, before and after more requests, past the entry limit too', async () => {
    const mock = await journal(true);
    const [a, b] = mock.requests;
    expect(mock.requests[0]).toBe(a);
    const client = new OpenAI({ apiKey: 'sk-test', fetch: (input, init) => mock.handle(new Request(input, init)), maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'One more' }] });
    expect(mock.requests[1]).toBe(b);
    expect(mock.requests[0].request).toBe(a.request);
    expect(mock.requests[3].request!.messages).toEqual([{ role: 'user', content: 'One more' }]);
    expect(mock.parses.count).toBe(4 + 4);

    // A journal of two: entries dropped unread, and the one read before the drop, leave as any other.
    const small = createMockLLM({ scenarios: [{ name: 'chat', steps: [{ respond: { text: 'ok' }, consume: false }] }], journalLimit: 2 });
    const smallClient = new OpenAI({ apiKey: 'sk-test', fetch: (input, init) => small.handle(new Request(input, init)), maxRetries: 0 });
    for (const content of ['one', 'two', 'three']) await smallClient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
    const kept = small.requests;
    expect(kept.map((e) => e.request!.messages[0].content)).toEqual(['two', 'three']);
    await smallClient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'four' }] });
    expect(small.requests.map((e) => e.request!.messages[0].content)).toEqual(['three', 'four']);
    expect(small.requests[0]).toBe(kept[1]);
  });

  it("requests alike but for their bodies share kept headers, and each reads back its own content-length", async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'chat', steps: [{ respond: { text: 'ok' }, consume: false }] }] });
    try {
      const client = new OpenAI({ apiKey: 'sk-live-secret', baseURL: `${server.url}/v1`, maxRetries: 0 });
      const ask = (content: string, headers?: Record<string, string>) => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] }, { headers });
      // A body longer than a journal chunk stays a kept request (parsed on read) where the others are logged.
      for (const [content, headers] of [['a'], ['bb'.repeat(10)], ['x'.repeat(20_000)], ['ccc'], ['dd', { 'x-trace': 't-1' }], ['eeee']] as const) await ask(content, headers);
      // Another key: alike all the same, since the journal keeps no key.
      await new OpenAI({ apiKey: 'sk-other-secret', baseURL: `${server.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'fffff' }] });
      const entries = server.mock.requests;
      expect(entries.map((e) => e.request!.messages[0].content.length)).toEqual([1, 20, 20_000, 3, 2, 4, 5]);
      for (const e of entries) {
        expect(e.request!.headers['content-length']).toBe(String(e.bodyLength));
        expect(e.request!.headers.authorization).toBe('[REDACTED]');
      }
      expect(entries.map((e) => e.request!.headers['x-trace'])).toEqual([undefined, undefined, undefined, undefined, 't-1', undefined, undefined]);
      expect(JSON.stringify(entries)).not.toMatch(/sk-(live|other)-secret/);
    } finally {
      await server.close();
    }
  });

  it('keeps no body alive once the entry that had it is gone (the keeper outlives entries)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const chat = defaultAdapters().find((a) => a.id === 'openai')!;
    const keeper = new RequestKeeper(new Redactor());
    const keep = (content: string) => {
      const bodyText = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
      const headers = { 'content-type': 'application/json', 'content-length': String(bodyText.length) };
      const request = chat.parse({ method: 'POST', path: '/v1/chat/completions', url: new URL('http://x/v1/chat/completions'), headers: new Headers(headers), bodyText }, undefined);
      const entry = { requestId: 'r', method: 'POST', path: '/v1/chat/completions', provider: 'openai', request, status: 200, step: null, nearMisses: [], startedAt: 0, durationMs: 0, bodyLength: bodyText.length };
      return keeper.entry(entry, chat, { method: 'POST', path: '/v1/chat/completions', bodyText }).request as unknown as { bodyText: string };
    };
    gc();
    const before = getHeapStatistics().used_heap_size;
    expect(keep('x'.repeat(20_000_000)).bodyText.length).toBeGreaterThan(20_000_000);
    // The next request is alike (same headers but content-length), and shares what the keeper kept.
    expect(keep('small').bodyText).toContain('small');
    gc();
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(5_000_000);
  });

  it('keeps the parsed request when secrets in bodies are redacted: the body text would hold them', async () => {
    const mock = await journal(true, { values: ['tok-123'] });
    const kept = mock.requests[0].request!;
    expect(kept.messages[1].content).toBe('Weather in Paris? my token is [REDACTED]');
    expect(JSON.stringify(kept.raw)).not.toContain('tok-123');
  });
});
