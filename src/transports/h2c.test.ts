import { connect as connectHttp2 } from 'node:http2';
import { connect as connectTcp } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from './server.ts';

const chat = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

function h2Post(url: string, path: string, body: string, extra: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const session = connectHttp2(url);
    session.on('error', reject);
    const req = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json', authorization: 'Bearer sk-test', ...extra });
    let status = 0;
    let text = '';
    req.on('response', (headers) => (status = Number(headers[':status'])));
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      session.close();
      resolve({ status, body: text });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP/2 cleartext beside HTTP/1.1 on the real port', () => {
  let server: MockLLMServer | undefined;
  afterEach(async () => server?.close());

  it('answers an HTTP/2 prior-knowledge client with the same core, journaled without pseudo-headers', async () => {
    server = await startMockLLMServer({ scenarios: [{ name: 'a', steps: [{ respond: { text: 'hello' }, consume: false }] }] });
    const res = await h2Post(server.url, '/v1/chat/completions', chat);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).choices[0].message.content).toBe('hello');
    const headers = server.mock.requests[0].request!.headers;
    expect(Object.keys(headers).filter((k) => k.startsWith(':'))).toEqual([]);
    expect(headers.host).toBe(new URL(server.url).host);
    const h1 = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' }, body: chat });
    expect(h1.status).toBe(200);
  });

  it('survives a connection reset before its first bytes', async () => {
    server = await startMockLLMServer({ scenarios: [{ name: 'a', steps: [{ respond: { text: 'still here' }, consume: false }] }] });
    const { port } = server;
    await new Promise<void>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1', () => {
        socket.resetAndDestroy();
        resolve();
      });
    });
    await new Promise((r) => setTimeout(r, 20));
    const res = await h2Post(server.url, '/v1/chat/completions', chat);
    expect(JSON.parse(res.body).choices[0].message.content).toBe('still here');
  });

  it('puts HTTP/2 requests through the same Host/Origin guard, body limit and redacting journal', async () => {
    server = await startMockLLMServer({ bodyLimit: 1024, scenarios: [{ name: 'a', steps: [{ respond: { text: 'hi' }, consume: false }] }] });
    const rebound = await h2Post(server.url, '/v1/chat/completions', chat, { ':authority': `attacker.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/Host "attacker.example:\d+" is not a loopback name/);
    const foreign = await h2Post(server.url, '/v1/chat/completions', chat, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const big = await h2Post(server.url, '/v1/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(4096) }] }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.code).toBe('request_too_large');
    const ok = await h2Post(server.url, '/v1/chat/completions', chat);
    expect(ok.status).toBe(200);
    expect(server.mock.requests.map((r) => r.status)).toEqual([403, 403, 413, 200]);
    // Refused requests are journaled without their head; the answered one with its credentials redacted.
    expect(server.mock.requests[3].request?.headers.authorization).toBe('[REDACTED]');
    expect(JSON.stringify(server.mock.requests)).not.toContain('sk-test');
  });
});
