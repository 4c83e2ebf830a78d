import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateOpenAI } from '../providers/testing/openapi.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { startMockLLMServer, type MockLLMServer } from './server.ts';

const hello: ScenarioInput = {
  name: 'hello',
  steps: [
    { match: { stream: false }, respond: { text: 'Hello over the wire' }, consume: false },
    { match: { stream: true }, respond: { text: 'streamed over the wire', stream: { chunkSize: 4 } }, consume: false },
  ],
};

describe('startMockLLMServer', () => {
  let server: MockLLMServer;
  let client: OpenAI;
  beforeAll(async () => {
    server = await startMockLLMServer({ scenarios: [hello] });
    client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1 on a free port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers the openai SDK, JSON and SSE, with bodies that validate against the spec', async () => {
    const raw = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(raw.data.choices[0].message.content).toBe('Hello over the wire');
    expect(raw.response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(validateOpenAI('CreateChatCompletionResponse', raw.data)).toEqual([]);

    const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    let count = 0;
    for await (const chunk of stream) {
      count++;
      expect(validateOpenAI('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('streamed over the wire');
    expect(count).toBe(1 + 6 + 1 + 1); // role, 22 chars / 4, finish, usage
  });

  it('streams with chunk delays and cuts the connection mid-stream (the SDK throws)', async () => {
    server.mock.use({ name: 'cut', priority: 10, steps: [{ match: { model: 'cut' }, respond: { text: 'abcdefghij', stream: { chunkSize: 2, chunkDelayMs: 5, disconnectAfterChunks: 3 } } }] });
    const stream = await client.chat.completions.create({ model: 'cut', stream: true, messages: [{ role: 'user', content: 'x' }] });
    let text = '';
    const err = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(text).toBe('abcd');
  });

  it('keeps connections alive between requests', async () => {
    const { Agent, request } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const reused: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = request(`${server.url}/v1/chat/completions`, { method: 'POST', agent, headers: { authorization: 'Bearer sk', 'content-type': 'application/json' } }, (res) => {
          expect(res.headers['content-length']).toBeDefined();
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        reused.push(req.reusedSocket);
        req.end(body);
      });
    }
    agent.destroy();
    expect(reused).toEqual([false, true, true]);
  });

  it('answers an unknown session with 404 and an unknown route with 404', async () => {
    const res = await fetch(`${server.url}/s/nope/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('unknown_session');
    const res2 = await fetch(`${server.url}/v9/x`, { method: 'POST', body: '{}' });
    expect(res2.status).toBe(404);
  });
});

describe('sessions on one server', () => {
  let server: MockLLMServer;
  beforeAll(async () => {
    server = await startMockLLMServer();
  });
  afterAll(() => server.close());

  const admin = async (method: string, path: string, body?: unknown) => {
    const init = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const res = await fetch(`${server.url}/__ghostwire/${path}`, { method, ...init });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };

  it('keeps two sessions apart while both run in parallel', async () => {
    const make = async (who: string) => {
      const { status, body } = await admin('POST', 'sessions', {
        scenarios: [{ name: 'who', steps: [{ respond: { text: `I am ${who}`, stream: { chunkSize: 3, chunkDelayMs: 1 } }, times: 10 }] }],
      });
      expect(status).toBe(201);
      return body as { id: string; url: string };
    };
    const [a, b] = await Promise.all([make('A'), make('B')]);
    expect(a.url).toBe(`${server.url}/s/${a.id}`);
    const run = async (s: { url: string }, stream: boolean) => {
      const c = new OpenAI({ apiKey: 'sk', baseURL: `${s.url}/v1`, maxRetries: 0 });
      if (!stream) return (await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'who?' }] })).choices[0].message.content;
      let t = '';
      for await (const ch of await c.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'who?' }] })) t += ch.choices[0]?.delta.content ?? '';
      return t;
    };
    const jobs = Array.from({ length: 10 }, (_, i) => [run(a, i % 2 === 0), run(b, i % 2 === 1)]).flat();
    const answers = await Promise.all(jobs);
    answers.forEach((answer, i) => expect(answer).toBe(i % 2 === 0 ? 'I am A' : 'I am B'));

    const sa = await admin('GET', `sessions/${a.id}`);
    expect(sa.body.counters).toMatchObject({ requests: 10, byStatus: { 200: 10 }, byStep: { 'who#0': 10 } });
    expect(sa.body.unconsumed).toEqual([]);
    const journal = await admin('GET', `sessions/${b.id}/requests`);
    expect(journal.body.requests).toHaveLength(10);
    expect(journal.body.requests[0].path).toBe('/v1/chat/completions');
    expect(server.mock.requests).toHaveLength(0);
  });

  it('pushes scenarios and steps, resets and deletes through the admin API', async () => {
    const { body: s } = await admin('POST', 'sessions', { id: 'manual' });
    expect(s.id).toBe('manual');
    expect((await admin('POST', 'sessions', { id: 'manual' })).status).toBe(409);
    const c = new OpenAI({ apiKey: 'sk', baseURL: `${s.url}/v1`, maxRetries: 0 });
    const ask = () => c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });

    expect(await ask().catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await admin('POST', 'sessions/manual/steps', { steps: [{ respond: { text: 'pushed' } }] })).status).toBe(200);
    expect((await ask()).choices[0].message.content).toBe('pushed');
    expect((await admin('POST', 'sessions/manual/scenarios', [{ name: 'more', steps: [{ respond: { text: 'more' } }] }])).body).toEqual({ scenarios: ['more'] });
    expect((await ask()).choices[0].message.content).toBe('more');

    const before = await admin('GET', 'sessions/manual');
    expect(before.body.counters).toMatchObject({ requests: 3, byStatus: { 404: 1, 200: 2 }, unmatched: 1 });
    await admin('POST', 'sessions/manual/reset');
    expect((await admin('GET', 'sessions/manual')).body.counters.requests).toBe(0);
    expect((await admin('DELETE', 'sessions/manual')).status).toBe(204);
    expect((await admin('GET', 'sessions/manual')).status).toBe(404);
  });

  it('rejects invalid scenarios naming the JSON path and what was expected', async () => {
    const { status, body } = await admin('POST', 'sessions', { scenarios: [{ name: 'bad', steps: [{ respond: { text: 5 } }] }] });
    expect(status).toBe(400);
    expect(body.error.issues.join('\n')).toMatch(/\[0\]\.steps\[0\]\.respond\.text: expected a string/);
    const notJson = await fetch(`${server.url}/__ghostwire/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect((await admin('POST', 'sessions', { id: 'bad id!' })).status).toBe(400);
    expect((await admin('GET', 'health')).body).toEqual({ ok: true });
  });
});

describe('close()', () => {
  it('ends open streaming connections and resolves', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'slow', steps: [{ respond: { text: 'a'.repeat(50), stream: { chunkSize: 1, chunkDelayMs: 50 } } }] }] });
    const c = new OpenAI({ apiKey: 'sk', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await c.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const consumed = (async () => {
      for await (const _ of stream);
    })().catch((e) => e);
    await new Promise((r) => setTimeout(r, 80));
    const t0 = performance.now();
    await server.close();
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(await consumed).toBeInstanceOf(Error);
  });
});

describe('a session created empty', () => {
  it('answers through the SDK with what gives it scenarios on a server, then with them', async () => {
    const server = await startMockLLMServer({ scenarios: [hello] });
    try {
      const created = await fetch(`${server.url}/__ghostwire/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ empty: true }) });
      const { id, url } = (await created.json()) as { id: string; url: string };
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
      const ask = () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const err = await ask().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as Error).message).toContain('This mock has no scenarios at all');
      expect((err as Error).message).toContain('POST /__ghostwire/sessions/{id}/scenarios');
      const added = await fetch(`${server.url}/__ghostwire/sessions/${id}/scenarios`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(hello) });
      expect(added.status).toBe(200);
      expect((await ask()).choices[0].message.content).toBeTruthy();
    } finally {
      await server.close();
    }
  });
});
