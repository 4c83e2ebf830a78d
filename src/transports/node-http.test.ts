import { createServer, type IncomingHttpHeaders } from 'node:http';
import { PassThrough } from 'node:stream';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestWith } from '../providers/adapter.ts';
import { headerRecord } from '../providers/common/wire-json.ts';
import { NodeHeaders } from './node-headers.ts';
import { BodyTooLargeError, originForm, readBodyThen, withBody } from './node-http.ts';
import { startMockLLMServer } from './server.ts';

/** Sends raw header lines to a node server and hands back what node parsed. */
async function parsedHeaders(lines: [string, string][]): Promise<IncomingHttpHeaders> {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((req, res) => {
    seen = req.headers;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  // A raw socket: the header lines go out exactly as written (case and repeats kept).
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const head = lines.map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.end(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n${head}\r\n`);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
    socket.resume();
  });
  server.close();
  return seen;
}

describe('NodeHeaders', () => {
  const lines: [string, string][] = [
    ['Authorization', 'Bearer sk-x'],
    ['X-Custom', 'a'],
    ['x-custom', 'b'],
    ['Set-Cookie', 'a=1'],
    ['set-cookie', 'b=2'],
    ['Content-Type', 'application/json'],
  ];

  it('reads like Fetch Headers built from the same request', async () => {
    const parsed = await parsedHeaders(lines);
    const fetchHeaders = new Headers();
    for (const [k, v] of Object.entries(parsed)) for (const one of [v ?? []].flat()) fetchHeaders.append(k, one);
    const headers = new NodeHeaders(parsed);
    expect([...headers]).toEqual([...fetchHeaders]);
    expect(headers.get('AUTHORIZATION')).toBe('Bearer sk-x');
    expect(headers.get('x-custom')).toBe(fetchHeaders.get('x-custom'));
    expect(headers.get('constructor')).toBeNull();
    expect(headers.has('Content-Type')).toBe(true);
    expect(headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const seen: string[] = [];
    headers.forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toEqual([...fetchHeaders].map(([k, v]) => `${k}=${v}`));
    expect(new Headers(headers).get('x-custom')).toBe('a, b');
  });

  it('copies on write: the node request keeps its headers', async () => {
    const parsed = await parsedHeaders(lines);
    const headers = new NodeHeaders(parsed);
    headers.set('X-Custom', 'c');
    headers.append('x-new', '1');
    headers.append('x-new', '2');
    headers.delete('authorization');
    expect(headers.get('x-custom')).toBe('c');
    expect(headers.get('x-new')).toBe('1, 2');
    expect(headers.has('authorization')).toBe(false);
    expect([...headers.keys()]).toContain('x-new');
    expect(parsed['x-custom']).toBe('a, b');
    expect(parsed.authorization).toBe('Bearer sk-x');
  });

  it("gives headerRecord's record as a copy of node's object, and iterates where a name has several values", async () => {
    const withoutCookies = lines.filter(([k]) => k.toLowerCase() !== 'set-cookie');
    const parsed = await parsedHeaders(withoutCookies);
    const headers = new NodeHeaders(parsed);
    const fetchHeaders = new Headers();
    for (const [k, v] of Object.entries(parsed)) fetchHeaders.append(k, String(v));
    const record = headers.toRecord();
    expect(record).toEqual(headerRecord(fetchHeaders));
    expect(headerRecord(headers)).toEqual(record);
    // A copy: writing it changes neither the request nor the next record.
    record!['x-custom'] = 'changed';
    expect(parsed['x-custom']).toBe('a, b');
    expect(headers.toRecord()!['x-custom']).toBe('a, b');
    headers.set('X-Custom', 'c');
    expect(headerRecord(headers)['x-custom']).toBe('c');
    // Several set-cookie values: no record of its own; headerRecord iterates, as over Fetch Headers.
    const cookies = new NodeHeaders(await parsedHeaders(lines));
    expect(cookies.toRecord()).toBeUndefined();
    expect(headerRecord(cookies)['set-cookie']).toBe('b=2');
  });
});

/** Sends `request` as raw bytes on a new connection and reads the answer until the server closes it. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

describe('node requests as parts', () => {
  const nodeRequest = (url: string) => ({ method: 'POST', url, headers: { host: 'x' } }) as unknown as IncomingMessage;
  const res = {} as ServerResponse;

  it('knows the host of a path without parsing a URL, and parses the URL only when read, the same as before', () => {
    for (const origin of ['http://127.0.0.1:4010', 'http://[::1]:4010', 'http://LocalHost:80', 'http://0.0.0.0:8080']) {
      for (const target of ['/v1/chat/completions?x=1', '//evil.example/x', '/@user:pw/x', '/a\\b']) {
        const req = withBody(nodeRequest(target), res, origin, '/p', '{}', new URL(origin).host);
        const parsed = new URL(origin + target);
        expect(req.host).toBe(parsed.host);
        expect(req.url.href).toBe(parsed.href);
        expect(req.url).toBe(req.url); // built once
      }
    }
    // A target that is not a path (`*`, an absolute form) leaves the host to the URL, which throws for `*`.
    const star = withBody(nodeRequest('*'), res, 'http://127.0.0.1:4010', '*', '', '127.0.0.1:4010');
    expect(star.host).toBeUndefined();
    expect(() => star.url).toThrow(TypeError);
    expect(withBody(nodeRequest('/x'), res, 'http://127.0.0.1:4010', '/x', '').host).toBeUndefined();
  });

  it('keeps the URL in a copy with requestWith (a spread drops a getter)', () => {
    const req = withBody(nodeRequest('/v1beta/models/m:generateContent?key=k'), res, 'http://127.0.0.1:4010', '/v1beta/models/m:generateContent', '{"a":1}', '127.0.0.1:4010');
    expect({ ...req }.url).toBeUndefined();
    const copy = requestWith(req, { path: '/other' });
    expect(copy.url.searchParams.get('key')).toBe('k');
    expect([copy.path, copy.bodyText, copy.method, copy.host]).toEqual(['/other', '{"a":1}', 'POST', '127.0.0.1:4010']);
  });

  it('stops waiting out latencyMs when the client leaves', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'slow', steps: [{ respond: { text: 'late', latencyMs: 5000 } }] }] });
    try {
      const controller = new AbortController();
      const pending = fetch(`${server.url}/v1/chat/completions?x=1`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 100);
      await expect(pending).rejects.toThrow();
      await expect.poll(() => server.mock.requests.length, { timeout: 2000 }).toBe(1);
      expect(server.mock.requests[0].durationMs).toBeLessThan(2000);
      expect(server.mock.requests[0].path).toBe('/v1/chat/completions');
    } finally {
      await server.close();
    }
  });

  it('gives adapters the full URL, query included (Gemini reads ?key=)', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'g', steps: [{ respond: { text: 'hi' } }] }] });
    try {
      const res = await fetch(`${server.url}/v1beta/models/gemini-2.0-flash:generateContent?key=k-1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      expect(res.status).toBe(200);
      const res2 = await fetch(`${server.url}/v1beta/models/gemini-2.0-flash:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      expect(res2.status).toBe(403); // Gemini's answer to a missing key
      await res2.arrayBuffer();
    } finally {
      await server.close();
    }
  });

  it('reads an absolute-form target as its path (RFC 9112 §3.2.2: a server must accept it)', async () => {
    expect(originForm('http://127.0.0.1:4010/v1/models?x=1')).toBe('/v1/models?x=1');
    expect(originForm('HTTPS://api.openai.com')).toBe('/');
    expect(originForm('http://h:1?x=1')).toBe('/?x=1');
    expect(originForm('/v1/models')).toBe('/v1/models');
    expect(originForm('*')).toBe('*');
    const server = await startMockLLMServer({ scenarios: [{ name: 's', steps: [{ respond: { text: 'by the absolute form' } }] }] });
    try {
      const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const answer = await exchange(
        server.port,
        `POST ${server.url}/v1/chat/completions?trace=1 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer sk-x\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answer).toContain('by the absolute form');
      expect(server.mock.requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/v1/chat/completions', 200]]);
    } finally {
      await server.close();
    }
  });

  it('answers a request target that makes no URL (`OPTIONS *`) as an unknown route, and journals it', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 's', steps: [{ respond: { text: 'hi' } }] }] });
    try {
      const answer = await exchange(server.port, 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
      expect(answer).toContain('no mock API at OPTIONS *');
      expect(server.mock.requests.map((r) => [r.method, r.path, r.status])).toEqual([['OPTIONS', '*', 404]]);
    } finally {
      await server.close();
    }
  });
});

describe('whole JSON bodies', () => {
  it('keep latin1 header values intact (a string body would encode the head as UTF-8)', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'h', steps: [{ respond: { text: 'hi', headers: { 'x-note': 'café' } } }] }] });
    try {
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.headers.get('x-note')).toBe('café');
      expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content).toBe('hi');
    } finally {
      await server.close();
    }
  });

  it('carry a UTF-8 body with its byte length', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'u', steps: [{ respond: { text: 'héllo ✓ 😀' } }] }] });
    try {
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      expect(JSON.parse(bytes.toString('utf8')).choices[0].message.content).toBe('héllo ✓ 😀');
    } finally {
      await server.close();
    }
  });
});

describe('readBodyThen', () => {
  /** A request stand-in: its declared length, and the body it then sends. */
  const read = (declared: string | undefined, body: string, limit: number) =>
    new Promise<Error | string>((resolve) => {
      const req = Object.assign(new PassThrough(), { headers: declared === undefined ? {} : { 'content-length': declared } });
      readBodyThen(req as unknown as IncomingMessage, limit, (err, got) => resolve(err ?? got!.toString()));
      req.end(body);
    });

  it('refuses a declared length past the limit at once, whatever its digits, and reads one at the limit', async () => {
    expect(await read('1024', 'x'.repeat(1024), 1024)).toBe('x'.repeat(1024));
    expect(await read('999', 'abc', 1024)).toBe('abc');
    expect(await read('1025', 'x', 1024)).toBeInstanceOf(BodyTooLargeError);
    expect(await read('99999', 'x', 1024)).toBeInstanceOf(BodyTooLargeError);
    // More digits than the table of powers of ten holds: decided by the number itself.
    expect(await read('1'.padEnd(20, '0'), 'x', 2 ** 40)).toBeInstanceOf(BodyTooLargeError);
    expect(await read('0000000000000000000012', 'twelve bytes', 1024)).toBe('twelve bytes');
    // No declared length: the bytes read are counted.
    expect(await read(undefined, 'x'.repeat(2048), 1024)).toBeInstanceOf(BodyTooLargeError);
  });
});
