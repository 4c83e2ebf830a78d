// The admin API is not an open door: DNS rebinding (a foreign Host), CSRF (a foreign Origin, or a
// text/plain POST a web page can send without a preflight), a token beyond loopback, and journals
// that never show a secret.
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

/** A raw request to 127.0.0.1:port with any headers, Host included (fetch will not send a foreign Host). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pwn = JSON.stringify({ steps: [{ respond: { text: 'pwned' } }], priority: 100 });
const ask = (server: MockLLMServer) =>
  new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

describe('admin API against a web page', () => {
  it('refuses a text/plain POST (no preflight needed) and a foreign Origin; answers stay unchanged', async () => {
    const server = await start();
    const textPlain = await send(server.port, 'POST', '/__ghostwire/sessions/default/steps', { 'content-type': 'text/plain;charset=UTF-8' }, pwn);
    expect(textPlain.status).toBe(415);
    expect(textPlain.json.error.message).toMatch(/needs "content-type: application\/json"/);
    const form = await send(server.port, 'POST', '/__ghostwire/sessions/default/reset', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expect(form.status).toBe(415);
    const foreign = await send(server.port, 'POST', '/__ghostwire/sessions/default/steps', { 'content-type': 'application/json', origin: 'https://evil.example' }, pwn);
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.message).toMatch(/Origin "https:\/\/evil.example" is refused/);
    expect((await ask(server)).choices[0].message.content).toBe('hello');
    // The same write from a local tool (JSON, no Origin or a loopback one) is accepted.
    const local = await send(server.port, 'POST', '/__ghostwire/sessions/default/steps', { 'content-type': 'application/json', origin: 'http://localhost:5173' }, pwn);
    expect(local.status).toBe(200);
    expect((await ask(server)).choices[0].message.content).toBe('pwned');
  });

  it('refuses a rebound DNS name in Host on every route, admin and provider alike', async () => {
    const server = await start();
    const admin = await send(server.port, 'GET', '/__ghostwire/sessions', { host: `attacker.example:${server.port}` });
    expect(admin.status).toBe(403);
    expect(admin.json.error.message).toMatch(/Host "attacker.example:\d+" is not a loopback name/);
    const chat = await send(server.port, 'POST', '/v1/chat/completions', { host: 'attacker.example', 'content-type': 'application/json' }, '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}');
    expect(chat.status).toBe(403);
    // OpenAI's own error envelope.
    expect(chat.json.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/not a loopback name/) });
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`]) {
      expect((await send(server.port, 'GET', '/__ghostwire/health', { host })).status, host).toBe(200);
    }
  });

  it('accepts a Host named in allowedHosts', async () => {
    const server = await start({ allowedHosts: ['mock.internal'] });
    expect((await send(server.port, 'GET', '/__ghostwire/health', { host: `mock.internal:${server.port}` })).status).toBe(200);
  });
});

describe('admin token', () => {
  it('is minted when the server listens beyond loopback, and every admin call needs it', async () => {
    const server = await start({ host: '0.0.0.0' });
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const without = await send(server.port, 'GET', '/__ghostwire/sessions', {});
    expect(without.status).toBe(401);
    expect(without.json.error.message).toMatch(/requires its admin token/);
    expect((await send(server.port, 'GET', '/__ghostwire/sessions', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await send(server.port, 'GET', '/__ghostwire/sessions', { authorization: `Bearer ${server.token}` })).status).toBe(200);
    // Beyond loopback the Host is any name the machine is reached by; the token is the guard.
    expect((await send(server.port, 'GET', '/__ghostwire/health', { host: 'build-box.lan', authorization: `Bearer ${server.token}` })).status).toBe(200);
    // Provider routes take the SDK's own key, not the admin token.
    const chat = await send(server.port, 'POST', '/v1/chat/completions', { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}');
    expect(chat.status).toBe(200);
  });

  it('is required on loopback too when one is given; none by default there', async () => {
    const guarded = await start({ token: 'given-token-123' });
    expect((await send(guarded.port, 'GET', '/__ghostwire/health', {})).status).toBe(401);
    expect((await send(guarded.port, 'GET', '/__ghostwire/health', { authorization: 'Bearer given-token-123' })).status).toBe(200);
    const open = await start();
    expect(open.token).toBeUndefined();
    expect((await send(open.port, 'GET', '/__ghostwire/health', {})).status).toBe(200);
  });
});

describe('journals', () => {
  it('never show auth headers, cookies or listed values (the goldens redaction)', async () => {
    const server = await start({ redact: { values: ['acct-998877'] } });
    const client = new OpenAI({ apiKey: 'sk-live-0123456789abcdef', baseURL: `${server.url}/v1`, maxRetries: 0, defaultHeaders: { cookie: 'session=s3cr3t' } });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'my account is acct-998877' }] });
    const res = await fetch(`${server.url}/__ghostwire/sessions/default/requests`);
    const text = await res.text();
    expect(text).not.toContain('sk-live-0123456789abcdef');
    expect(text).not.toContain('s3cr3t');
    expect(text).not.toContain('acct-998877');
    const [entry] = JSON.parse(text).requests;
    expect(entry.request.headers).toMatchObject({ authorization: '[REDACTED]', cookie: '[REDACTED]', 'content-type': 'application/json' });
    expect(entry.request.messages[0].content).toBe('my account is [REDACTED]');
    // In-process journals get the same redaction.
    expect(server.mock.requests[0].request?.headers.authorization).toBe('[REDACTED]');
  });
});
