import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventStore } from './event-store.ts';
import { checkRequest, requiredToken } from './guard.ts';
import { createMockMCP, type MockMCP } from './mock-mcp.ts';
import { mockMCPHandlers } from './msw.ts';
import { mcpScenario } from './builder.ts';
import { startMockMCPServer, type MockMCPServer } from './node-server.ts';
import { BIN, serveOnPort } from './testing/spawn-serve.ts';

const GITHUB = 'fixtures/mcp/github.json';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function client(transport: ConstructorParameters<typeof StreamableHTTPClientTransport>[0] | StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const c = new Client({ name: 'test', version: '1.0.0' });
  await c.connect(transport instanceof URL ? new StreamableHTTPClientTransport(transport) : (transport as StreamableHTTPClientTransport));
  cleanups.push(() => c.close());
  return c;
}

/** One exchange every transport must get right: the list, a matched structured answer, a tool error. */
async function exercise(c: Client): Promise<void> {
  expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search_issues', 'get_issue']);
  const found = await c.callTool({ name: 'search_issues', arguments: { repo: 'acme/widgets', query: 'crash' } });
  expect(found.structuredContent).toMatchObject({ total: 2 });
  const missing = await c.callTool({ name: 'search_issues', arguments: { repo: 'acme/nope', query: 'x' } });
  expect(missing).toMatchObject({ isError: true, content: [{ text: 'repository acme/nope not found' }] });
}

describe('Streamable HTTP through MSW (no port)', () => {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  afterEach(() => msw.resetHandlers());

  it('answers an SDK client using fetch, one session per client, ended by DELETE', async () => {
    const mock = createMockMCP(GITHUB);
    cleanups.push(() => mock.close());
    msw.use(...mockMCPHandlers(mock, 'http://github.mcp.test/mcp'));
    const c = await client(new URL('http://github.mcp.test/mcp'));
    await exercise(c);
    const sessions = new Set(mock.journal.entries.map((e) => e.connection));
    expect(sessions.size).toBe(1);
    const transport = c.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await transport.terminateSession();
    const after = await fetch('http://github.mcp.test/mcp', { headers: { 'mcp-session-id': sessionId, accept: 'text/event-stream' } });
    expect(after.status).toBe(404);
  });

  it('closes a call\'s SSE stream mid-call when asked; the SDK client resumes with Last-Event-ID and gets the answer', async () => {
    const mock = createMockMCP(mcpScenario('resume').tool('slow', {}, (t) => t.closeStream().latency(50).text('after the reconnect')));
    cleanups.push(() => mock.close());
    msw.use(...mockMCPHandlers(mock, 'http://resume.mcp.test/mcp'));
    const gets: Array<string | null> = [];
    const c = await client(
      new StreamableHTTPClientTransport(new URL('http://resume.mcp.test/mcp'), {
        fetch: (url, init) => {
          if ((init?.method ?? 'GET') === 'GET') gets.push(new Headers(init?.headers).get('last-event-id'));
          return fetch(url, init);
        },
        reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 3 },
      }),
    );
    expect(await c.callTool({ name: 'slow', arguments: {} })).toMatchObject({ content: [{ text: 'after the reconnect' }] });
    expect(gets.filter(Boolean).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses requests without a session, and unknown sessions, in JSON-RPC error shape', async () => {
    const mock = createMockMCP(GITHUB);
    cleanups.push(() => mock.close());
    const bad = await mock.handle(new Request('http://x/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const unknown = await mock.handle(new Request('http://x/mcp', { method: 'GET', headers: { 'mcp-session-id': 'nope', accept: 'text/event-stream' } }));
    expect(unknown.status).toBe(404);
    const notJson = await mock.handle(new Request('http://x/mcp', { method: 'POST', body: '{' }));
    expect(notJson.status).toBe(400);
    // A first request larger than the limit is refused before it is buffered whole.
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
      },
    });
    const tooBig = await mock.handle(new Request('http://x/mcp', { method: 'POST', body: huge, duplex: 'half' } as RequestInit));
    expect(tooBig.status).toBe(413);
  });

  it('keeps resumable events under a byte limit, replaying only what is still there', async () => {
    const store = new MemoryEventStore(1000);
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await store.storeEvent('s1', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(100) } }));
    const replayed: string[] = [];
    await expect(store.replayEventsAfter(ids[0], { send: async (id) => void replayed.push(id) })).rejects.toThrow(/unknown event id/);
    expect(await store.replayEventsAfter(ids[17], { send: async (id) => void replayed.push(id) })).toBe('s1');
    expect(replayed).toEqual(ids.slice(18));
    expect(store.bytes).toBeLessThanOrEqual(1000);
    // Bytes, not characters: 100 three-byte characters weigh 300 bytes, so fewer of them fit.
    const wide = new MemoryEventStore(1000);
    const wideIds = [];
    for (let i = 0; i < 20; i++) wideIds.push(await wide.storeEvent('s1', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: '€'.repeat(100) } }));
    expect(wide.bytes).toBeLessThanOrEqual(1000);
    // ~450 bytes an event: two fit (counted in characters, ~250 each, three would).
    await expect(wide.replayEventsAfter(wideIds[17], { send: async () => {} })).rejects.toThrow(/unknown event id/);
    const kept: string[] = [];
    await wide.replayEventsAfter(wideIds[18], { send: async (id) => void kept.push(id) });
    expect(kept).toEqual([wideIds[19]]);
    wide.clear();
    expect(wide.bytes).toBe(0);
  });
});

describe('a real port (startMockMCPServer)', () => {
  let server: MockMCPServer;
  beforeAll(async () => {
    server = await startMockMCPServer({ scenario: GITHUB });
  });
  afterAll(() => server.close());

  it('answers on 127.0.0.1, and each /s/{id} session is its own copy of the scenario', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await exercise(await client(new URL(server.url)));
    const a = server.session('a');
    await (await client(new URL(a.url))).callTool({ name: 'get_issue', arguments: { repo: 'acme/widgets', number: 42 } });
    expect(a.mock.calls).toHaveLength(1);
    expect(server.session('b').mock.calls).toHaveLength(0);
    expect(server.mock.calls).toHaveLength(2);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) with 403 and unknown paths with 404', async () => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}' };
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>, path = '/mcp') =>
      new Promise<number>((res, rej) => {
        const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers: { ...init.headers, ...headers } }, (r) => {
          r.resume();
          res(r.statusCode ?? 0);
        });
        req.on('error', rej);
        req.end(init.body);
      });
    expect(await status({ host: 'evil.example.com' })).toBe(403);
    expect(await status({ origin: 'http://evil.example.com' })).toBe(403);
    expect(await status({ origin: `http://localhost:${server.port}` })).toBe(200);
    expect(await status({}, '/other')).toBe(404);
  });

  it('sends the head of a GET stream before its first event, as a real server does', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(server.url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}' });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    await fetch(server.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    // Nothing will be sent on this stream: its fetch settles only if the head goes out on its own.
    const abort = new AbortController();
    const got = fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, signal: abort.signal });
    const timeout = new Promise<'no head'>((resolve) => setTimeout(() => resolve('no head'), 5_000).unref());
    const res = await Promise.race([got, timeout]);
    abort.abort();
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(200);
    expect((res as Response).headers.get('content-type')).toBe('text/event-stream');
  });
});

describe('the guard beyond loopback', () => {
  it('requires the bearer token and still checks Origin', () => {
    const opts = { bind: '0.0.0.0', token: 'sekrit' };
    expect(checkRequest(new Headers({ host: 'box.lan:3000' }), opts)).toMatchObject({ status: 401 });
    expect(checkRequest(new Headers({ host: 'box.lan:3000', authorization: 'Bearer wrong!' }), opts)).toMatchObject({ status: 401 });
    expect(checkRequest(new Headers({ host: 'box.lan:3000', authorization: 'Bearer sekrit' }), opts)).toBeNull();
    expect(checkRequest(new Headers({ host: 'box.lan:3000', authorization: 'Bearer sekrit', origin: 'http://evil.test' }), opts)).toMatchObject({ status: 403 });
    expect(checkRequest(new Headers({ host: 'box.lan:3000', authorization: 'Bearer sekrit', origin: 'http://app.test' }), { ...opts, allowedOrigins: ['http://app.test'] })).toBeNull();
  });

  it('generates a token for a listener beyond loopback when none is given', () => {
    expect(requiredToken('0.0.0.0', undefined)).toMatch(/^[\w-]{32}$/);
    expect(requiredToken('192.168.1.5', undefined)).not.toBe(requiredToken('192.168.1.5', undefined));
    expect(requiredToken('0.0.0.0', 'mine')).toBe('mine');
    expect(requiredToken('127.0.0.1', undefined)).toBeUndefined();
    expect(requiredToken('::1', undefined)).toBeUndefined();
  });

  it('a token given on loopback is required as well', async () => {
    const server = await startMockMCPServer({ scenario: GITHUB, host: '127.0.0.1', token: 't0k' });
    cleanups.push(() => server.close());
    const res = await fetch(server.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });
});

describe('ghostwire mcp serve', () => {
  it('speaks stdio for an .mcp.json command entry, and a crash ends the process', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve', '--stdio', '--scenarios', 'fixtures/mcp/crash.json'], stderr: 'pipe' });
    const c = await client(transport as never);
    expect(c.getServerVersion()).toMatchObject({ name: 'fixture-crash' });
    expect(await c.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ text: 'hi' }] });
    const pid = transport.pid!;
    await expect(c.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/Connection closed/);
    await expect.poll(() => {
      try {
        process.kill(pid, 0);
        return 'alive';
      } catch {
        return 'gone';
      }
    }).toBe('gone');
  });

  it('serves a port for a separate process and names the file, line and path of a bad scenario', async () => {
    const served = await serveOnPort('fixtures/mcp/progress.json');
    cleanups.push(() => served.stop());
    const c = await client(new URL(served.url));
    const progress: number[] = [];
    const r = await c.request({ method: 'tools/call', params: { name: 'long_task', arguments: {} } }, CallToolResultSchema, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    expect(r.content[0]).toMatchObject({ text: expect.stringMatching(/^finished \(token \d+\)$/) });
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-bad-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{\n  "name": "bad",\n  "tools": [\n    { "name": "t", "answers": [{ "txt": "x" }] }\n  ]\n}\n');
    const failure = await serveOnPort(file).then(
      () => '',
      (err: Error) => err.message,
    );
    expect(failure).toContain(`${file}:4:34: tools[0].answers[0].txt: unknown key (did you mean "text"?)`);
  });
});

export type { MockMCP };
