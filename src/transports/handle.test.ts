import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ProviderAdapter } from '../providers/adapter.ts';
import { defaultAdapters } from '../providers/registry.ts';
import type { JournalEntry } from '../scenario/selection.ts';
import { createHandler } from './handle.ts';
import { createMockLLM } from './mock-llm.ts';

const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...extra });

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  new Request(`https://api.openai.com${path}`, { method: 'POST', headers: { authorization: 'Bearer sk-x', ...headers }, body });

describe('createHandler', () => {
  it('answers an unknown route with a 404 JSON error and journals it', async () => {
    const mock = createMockLLM();
    const res = await mock.handle(post('/v2/nope', '{}'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect((await res.json()).error.message).toBe('ghostwire: no mock API at POST /v2/nope');
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]).toMatchObject({ method: 'POST', path: '/v2/nope', provider: null, status: 404 });
  });

  it('echoes x-request-id when the client sends one, mints one otherwise, and journals it', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'a', steps: [{ respond: { text: 'x' }, consume: false }] }] });
    const echoed = await mock.handle(post('/v1/chat/completions', chatBody(), { 'x-request-id': 'req_mine' }));
    expect(echoed.headers.get('x-request-id')).toBe('req_mine');
    const minted = await mock.handle(post('/v1/chat/completions', chatBody()));
    expect(minted.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(mock.requests.map((r) => r.requestId)).toEqual(['req_mine', minted.headers.get('x-request-id')]);
  });

  it('routes on the path override (a session prefix removed by the transport)', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'a', steps: [{ match: { path: '/v1/chat/completions' }, respond: { text: 'x' } }] }] });
    const res = await mock.handle(post('/s/abc/v1/chat/completions', chatBody()), { path: '/v1/chat/completions' });
    expect(res.status).toBe(200);
    expect(mock.requests[0].path).toBe('/v1/chat/completions');
  });

  it('applies step headers and echoHeaders to the response', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'h', steps: [{ respond: { text: 'x', headers: { 'x-ratelimit-remaining-requests': '9' }, echoHeaders: ['x-run'] } }] }] });
    const res = await mock.handle(post('/v1/chat/completions', chatBody(), { 'x-run': 'r1' }));
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('9');
    expect(res.headers.get('x-run')).toBe('r1');
  });

  it('turns an engine that throws into a 500 in the provider shape', async () => {
    const journal: JournalEntry[] = [];
    const handle = createHandler({ engine: { select: () => { throw new Error('kaboom'); } }, adapters: defaultAdapters(), journal });
    const res = await handle(post('/v1/chat/completions', chatBody()));
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatchObject({ message: 'ghostwire: kaboom', type: 'server_error' });
    expect(journal[0].status).toBe(500);
  });

  it('asks the routed adapter for a model listing after its auth check, passing the scenario model names', async () => {
    const lister: ProviderAdapter = {
      ...defaultAdapters()[0],
      routes: (req) => req.method === 'GET' && req.path === '/v1/models',
      listModels: (req, catalog) => ({ status: 200, headers: {}, json: { data: catalog.names, any: catalog.answers('zz', ['openai']) } }),
    };
    const mock = createMockLLM({
      adapters: [lister, ...defaultAdapters()],
      scenarios: [{ name: 'm', steps: [{ match: { model: 'gpt-4o' }, respond: { text: 'x' } }, { match: { model: { equals: 'o3' } }, respond: { text: 'y' } }, { match: { model: { regex: '^x' } }, respond: { text: 'z' } }] }],
    });
    const res = await mock.handle(new Request('https://api.openai.com/v1/models', { headers: { authorization: 'Bearer sk-x' } }));
    expect(await res.json()).toEqual({ data: ['gpt-4o', 'o3'], any: false });
    expect(mock.requests[0]).toMatchObject({ path: '/v1/models', status: 200 });
    expect((await mock.handle(new Request('https://api.openai.com/v1/models'))).status).toBe(401);
    expect((await mock.handle(new Request('https://api.openai.com/v1/other'))).status).toBe(404);
  });
});

describe('timing and cuts, seen through the openai SDK', () => {
  const client = (mock: ReturnType<typeof createMockLLM>) =>
    new OpenAI({ apiKey: 'sk-test', maxRetries: 0, fetch: (url, init) => mock.handle(new Request(url, init)) });

  it('waits latencyMs before the first byte', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'slow', steps: [{ respond: { text: 'late', latencyMs: 120 } }] }] });
    const t0 = performance.now();
    const c = await client(mock).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    expect(c.choices[0].message.content).toBe('late');
  });

  it('spaces SSE frames by chunkDelayMs', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'd', steps: [{ respond: { text: 'abcd', stream: { chunkSize: 1, chunkDelayMs: 25 } } }] }] });
    const stream = await client(mock).chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const at: number[] = [];
    for await (const _ of stream) at.push(performance.now());
    // role, 4 letters, finish: 6 chunks, 5 gaps of ~25 ms
    expect(at).toHaveLength(6);
    expect(at.at(-1)! - at[0]).toBeGreaterThanOrEqual(5 * 25 - 10);
  });

  it('cuts the stream after disconnectAfterChunks frames: the SDK throws after the frames it got', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'cut', steps: [{ respond: { text: 'abcdefgh', stream: { chunkSize: 2, disconnectAfterChunks: 3 } } }] }] });
    const stream = await client(mock).chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    let text = '';
    const err = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message ?? err)).toMatch(/disconnect|terminated|connection/i);
    expect(text).toBe('abcd');
    expect(mock.requests[0].status).toBe(200);
  });

  it('cuts before any frame with disconnectAfterChunks: 0', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'cut0', steps: [{ respond: { text: 'abc', stream: { disconnectAfterChunks: 0 } } }] }] });
    const stream = await client(mock).chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const chunks: unknown[] = [];
    const err = await (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(chunks).toEqual([]);
  });
});

describe('MockLLM', () => {
  it('assertAllConsumed lists what was never asked for; reset starts over; use adds scenarios', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'two', steps: [{ respond: { text: 'one' } }, { match: { model: 'gpt-4o' }, respond: { text: 'two' } }] }] });
    await mock.handle(post('/v1/chat/completions', chatBody({ model: 'other' })));
    expect(mock.unconsumed()).toEqual([{ scenario: 'two', index: 1 }]);
    expect(() => mock.assertAllConsumed()).toThrow(/1 scenario step\(s\) were never asked for:\n {2}- two#1 \(match \{"model":"gpt-4o"\}/);
    mock.reset();
    expect(mock.requests).toEqual([]);
    expect(mock.unconsumed()).toHaveLength(2);
    mock.use({ name: 'extra', steps: [{ respond: { text: 'first!' } }] });
    const res = await mock.handle(post('/v1/chat/completions', chatBody()));
    expect((await res.json()).choices[0].message.content).toBe('first!');
  });
});

describe('journalLimit', () => {
  it('keeps only the latest entries', async () => {
    const mock = createMockLLM({ journalLimit: 2, scenarios: [{ name: 'a', steps: [{ respond: { text: 'x' }, consume: false }] }] });
    for (const id of ['r1', 'r2', 'r3']) await mock.handle(post('/v1/chat/completions', chatBody(), { 'x-request-id': id }));
    expect(mock.requests.map((r) => r.requestId)).toEqual(['r2', 'r3']);
    const big = createMockLLM({ journalLimit: 100, scenarios: [{ name: 'a', steps: [{ respond: { text: 'x' }, consume: false }] }] });
    for (let i = 0; i < 350; i++) await big.handle(post('/v1/chat/completions', chatBody(), { 'x-request-id': `r${i}` }));
    expect(big.requests).toHaveLength(100);
    expect(big.requests[0].requestId).toBe('r250');
    expect(big.requests.at(-1)!.requestId).toBe('r349');
    big.reset();
    expect(big.requests).toEqual([]);
  });
});
