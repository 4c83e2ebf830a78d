// Every edge of the real port is bounded: bodies, nesting, journals (entries and bytes), sessions
// (count and idle time), paths; each refusal is a 4xx in the routed provider's own shape.
import Anthropic from '@anthropic-ai/sdk';
import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from './server.ts';

const hello = { name: 'hello', steps: [{ respond: { text: 'hello' }, consume: false }] };
const servers: MockLLMServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function start(options: Parameters<typeof startMockLLMServer>[0] = {}): Promise<MockLLMServer> {
  const server = await startMockLLMServer({ scenarios: [hello], ...options });
  servers.push(server);
  return server;
}

const chatBody = (extra = '') => `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]${extra}}`;
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', ...headers }, body });

describe('body limit', () => {
  it('answers 413 in the provider shape for a declared length past the limit, without reading the body', async () => {
    const server = await start({ bodyLimit: 1024 });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const err = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(4096) }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toMatch(/larger than the server's limit of 1024 bytes/);

    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const aerr = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(4096) }] }).catch((e: unknown) => e);
    expect((aerr as InstanceType<typeof Anthropic.APIError>).status).toBe(413);
    // Anthropic's own envelope: { type: 'error', error: { type, message } }.
    expect((aerr as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { message: expect.stringMatching(/limit of 1024 bytes/) } });
    // A healthy request on the same server still works.
    expect((await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('hello');
  });

  it('stops a chunked body (no declared length) as soon as it passes the limit', async () => {
    const server = await start({ bodyLimit: 64 * 1024 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // 4 MiB offered in 64 KiB chunks; the answer comes after about one limit's worth.
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 64) {
          sent += 1;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(server.mock.requests.at(-1)).toMatchObject({ status: 413, provider: 'openai' });
  });
});

describe('nesting and paths', () => {
  it('answers a 20,000-deep body with a 400 in the provider shape, and keeps the journal readable', async () => {
    const server = await start();
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const res = await post(`${server.url}/v1/chat/completions`, chatBody(`,"metadata":${deep}`));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/more than 256 levels deep/) });
    // 200 levels is within the limit: answered, journaled, and the journal still serialises.
    const ok = await post(`${server.url}/v1/chat/completions`, chatBody(`,"metadata":{"x":${'['.repeat(200)}${']'.repeat(200)}}`));
    expect(ok.status).toBe(200);
    const adminDeep = await post(`${server.url}/__ghostwire/sessions/default/steps`, `{"steps":${deep}}`);
    expect(adminDeep.status).toBe(400);
    expect((await adminDeep.json()).error.message).toBe('ghostwire admin: the request body nests arrays and objects more than 256 levels deep');
    const journal = await fetch(`${server.url}/__ghostwire/sessions/default/requests`);
    expect(journal.status).toBe(200);
    expect((await journal.json()).requests.map((r: { status: number }) => r.status)).toEqual([400, 200]);
  });

  it('treats malformed percent-escapes as a client error (404), never a 500', async () => {
    const server = await start();
    for (const path of ['/s/%/v1/models', '/s/%E0%A4%A/v1/chat/completions', '/__ghostwire/sessions/%E0%A4%A', '/__ghostwire/sessions/%']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(404);
    }
  });

  it('admin routes refuse extra path segments', async () => {
    const server = await start();
    for (const path of ['health/extra', 'sessions/default/requests/extra', 'sessions/default/reset/x/y']) {
      expect((await fetch(`${server.url}/__ghostwire/${path}`)).status, path).toBe(404);
    }
  });
});

describe('journal bounds', () => {
  it('keeps journal bytes under the budget with 1 MB requests, across sessions, oldest dropped first', async () => {
    const budget = 8 * 2 ** 20;
    const server = await start({ journalBytes: budget });
    const other = server.sessions.create({ id: 'other' });
    const big = chatBody(`,"metadata":{"pad":"${'x'.repeat(2 ** 20)}"}`);
    for (let i = 0; i < 12; i++) expect((await post(`${server.url}/s/other/v1/chat/completions`, big)).status).toBe(200);
    for (let i = 0; i < 24; i++) expect((await post(`${server.url}/v1/chat/completions`, big)).status).toBe(200);
    const total = server.mock.journalBytes + other.mock.journalBytes;
    expect(total).toBeLessThanOrEqual(budget);
    // The oldest entries went first: the budget holds only the default session's newest ones.
    // Each 1 MiB body counts 2.5 times its length plus 1 KiB: three fit in 8 MiB.
    expect(server.mock.requests.length).toBe(3);
    expect(other.mock.requests.length).toBe(0);
  });

  it('keeps at most journalLimit entries per session', async () => {
    const server = await start({ journalLimit: 5 });
    for (let i = 0; i < 12; i++) await post(`${server.url}/v1/chat/completions`, chatBody());
    expect(server.mock.requests).toHaveLength(5);
  });
});

describe('sessions', () => {
  const admin = (server: MockLLMServer, path: string, body?: unknown) =>
    fetch(`${server.url}/__ghostwire/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('start from the served scenarios, from their own when given, or empty on request', async () => {
    const server = await start();
    const seeded = await (await admin(server, 'sessions', { id: 'seeded' })).json();
    const client = (url: string) => new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const ask = (url: string) => client(url).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask(seeded.url)).choices[0].message.content).toBe('hello');
    const empty = await (await admin(server, 'sessions', { id: 'empty', empty: true })).json();
    expect(await ask(empty.url).catch((e: unknown) => (e as { status: number }).status)).toBe(404);
    await admin(server, 'sessions', { id: 'mine', scenarios: [{ name: 'own', steps: [{ respond: { text: 'mine' } }] }] });
    expect((await ask(`${server.url}/s/mine`)).choices[0].message.content).toBe('mine');
    // Its own scenarios replace the served ones: the one step is consumed, nothing else answers.
    expect(await ask(`${server.url}/s/mine`).catch((e: unknown) => (e as { status: number }).status)).toBe(404);
  });

  it('are limited in number (429 naming the limit) and expire when idle', async () => {
    // Idle long enough that a loaded machine cannot expire the first two before the third asks.
    const server = await start({ maxSessions: 2, sessionIdleMs: 1000 });
    expect((await admin(server, 'sessions', {})).status).toBe(201);
    expect((await admin(server, 'sessions', {})).status).toBe(201);
    const full = await admin(server, 'sessions', {});
    expect(full.status).toBe(429);
    expect((await full.json()).error.message).toMatch(/2 sessions already exist/);
    await new Promise((r) => setTimeout(r, 1200));
    // Both idle sessions expired: room again, and only the new one and `default` are listed.
    expect((await admin(server, 'sessions', { id: 'fresh' })).status).toBe(201);
    const { sessions } = await (await admin(server, 'sessions')).json();
    expect(sessions.map((s: { id: string }) => s.id)).toEqual(['default', 'fresh']);
  });
});
