import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { http as mswHttp, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryEventStore } from './event-store.ts';
import { HttpSessions } from './http.ts';
import { createMockMCP, type MockMCP } from './mock-mcp.ts';
import { mockMCPHandlers } from './msw.ts';
import { startMockMCPServer } from './node-server.ts';

const GITHUB = 'fixtures/mcp/github.json';
// A client's handshake is two requests (initialize, then notifications/initialized) with nothing open
// between them: the gap must fit in one idle time even on a loaded machine (300 ms did not, once in four
// runs beside three more suites on two cores).
const IDLE_MS = 1000;
/** Long enough for any idle expiry here; the waits end as soon as the session count says so. */
const WAIT = { timeout: 10_000, interval: 20 };

const INIT = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** Registers a cleanup for the running test (the cases run concurrently: each cleans up its own). */
type Finally = (fn: () => Promise<void>) => void;

// One MSW server for the file, its handlers never reset (each case has its own URL): the cases run at
// once. The real ports are reached over the network: MSW lets them through.
const msw = setupServer(mswHttp.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterAll(() => msw.close());

interface Target {
  url: string;
  mock: MockMCP;
}

/** The same mock reached two ways: in-process through MSW, and on a 127.0.0.1 port. */
const targets: Array<[string, (http: { maxSessions?: number; sessionIdleMs?: number }, after: Finally) => Promise<Target>]> = [
  ['through MSW', async (http, after) => {
    const mock = createMockMCP(GITHUB, { http });
    after(() => mock.close());
    const url = `http://idle-${Math.random().toString(36).slice(2)}.mcp.test/mcp`;
    msw.use(...mockMCPHandlers(mock, url));
    return { url, mock };
  }],
  ['on a real port', async (http, after) => {
    const server = await startMockMCPServer({ scenario: GITHUB, http });
    after(() => server.close());
    return { url: server.url, mock: server.mock };
  }],
];

type Fetch = typeof fetch;
/** A client whose network passes no GET stream (a proxy in between that does not, a dropped one). */
const noGetStream: Fetch = (input, init) =>
  (init?.method ?? 'GET') === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init);

async function connect(after: Finally, url: string, fetchFn?: Fetch): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), fetchFn ? { fetch: fetchFn } : {});
  const client = new Client({ name: 'idle-test', version: '1.0.0' });
  await client.connect(transport);
  after(() => client.close());
  return { client, transport };
}

describe.concurrent.each(targets)('mock MCP HTTP sessions %s', (_, start) => {
  it('closes the session of a client that vanished without DELETE, freeing its slot', async ({ expect, onTestFinished: after }) => {
    const { url, mock } = await start({ maxSessions: 1, sessionIdleMs: IDLE_MS }, after);
    const first = await connect(after, url);
    expect(mock.httpSessions).toBe(1);
    // The table is full: a second client is refused while the first is there.
    const refused = await connect(after, url).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(503);
    expect((refused as Error).message).toMatch(/Too many sessions \(1\).*expire/);
    // Closing the client without terminateSession() sends no DELETE: the server only sees its streams end.
    await first.client.close();
    await vi.waitFor(() => expect(mock.httpSessions).toBe(0), WAIT);
    const second = await connect(after, url);
    expect((await second.client.listTools()).tools.map((t) => t.name)).toEqual(['search_issues', 'get_issue']);
  });

  it('keeps a client holding its GET stream, while an idle session beside it expires', async ({ expect, onTestFinished: after }) => {
    const { url, mock } = await start({ sessionIdleMs: IDLE_MS }, after);
    // The SDK client opens its GET stream right after initialize (on a real port its head arrives at
    // once; through MSW only with a first event, and on protocol 2025-06-18 the SDK sends no priming one).
    const methods: string[] = [];
    const live = await connect(after, url, (input, init) => {
      methods.push(init?.method ?? 'GET');
      return fetch(input, init);
    });
    // Initialized after the live one, so its idle time ends later: once it is gone, the live
    // session has been without requests for longer than the idle time.
    const idle = await connect(after, url, noGetStream);
    expect(mock.httpSessions).toBe(2);
    await vi.waitFor(() => expect(mock.httpSessions).toBe(1), WAIT);
    expect(methods).toEqual(['POST', 'POST', 'GET']);
    expect((await live.client.listTools()).tools).toHaveLength(2);
    await expect(idle.client.listTools()).rejects.toThrow(/Session not found/);
  });

  it('answers an idle client that returns with 404 Session not found; the SDK client starts a new session', async ({ expect, onTestFinished: after }) => {
    const { url, mock } = await start({ sessionIdleMs: IDLE_MS }, after);
    const { client, transport } = await connect(after, url, noGetStream);
    const before = transport.sessionId;
    await vi.waitFor(() => expect(mock.httpSessions).toBe(0), WAIT);
    const gone = await client.listTools().catch((err: unknown) => err);
    expect(gone).toBeInstanceOf(StreamableHTTPError);
    expect((gone as StreamableHTTPError).code).toBe(404);
    expect((gone as Error).message).toContain(`Session not found: ${before}`);
    // The MCP spec's recovery: a new initialize without the old session id.
    await client.close();
    const again = new StreamableHTTPClientTransport(new URL(url), { fetch: noGetStream });
    await client.connect(again);
    expect(again.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.sessionId).not.toBe(before);
    expect((await client.callTool({ name: 'get_issue', arguments: { repo: 'acme/widgets', number: 42 } })).isError).toBeFalsy();
    expect(mock.httpSessions).toBe(1);
  });
});

describe('HttpSessions', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    new Request('http://x/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('closes an expired session as DELETE would: its server closes and its stored events are released', async ({ onTestFinished: after }) => {
    const cleared = vi.spyOn(MemoryEventStore.prototype, 'clear');
    after(async () => cleared.mockRestore());
    let closed = 0;
    const sessions = new HttpSessions(async (transport) => {
      const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
      server.onclose = () => void closed++;
      await server.connect(transport);
    }, { sessionIdleMs: 100 });
    after(() => sessions.closeAll());
    const init = await sessions.handle(post(INIT));
    expect(init.status).toBe(200);
    const id = init.headers.get('mcp-session-id')!;
    await init.text();
    await vi.waitFor(() => expect(closed).toBe(1), WAIT);
    expect(sessions.size).toBe(0);
    expect(cleared).toHaveBeenCalled();
    const late = await sessions.handle(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }));
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: `Session not found: ${id}` }, id: null });
  });

  it('closes the server of an initialize refused before its session began', async ({ onTestFinished: after }) => {
    let closed = 0;
    const sessions = new HttpSessions(async (transport) => {
      const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
      server.onclose = () => void closed++;
      await server.connect(transport);
    });
    after(() => sessions.closeAll());
    const refused = await sessions.handle(post(INIT, { accept: 'application/json' }));
    expect(refused.status).toBe(406);
    expect(closed).toBe(1);
    expect(sessions.size).toBe(0);
  });

  it('refuses bad limits, naming the option', async () => {
    expect(() => new HttpSessions(async () => {}, { maxSessions: 0 })).toThrow(/http\.maxSessions must be a positive integer, got 0/);
    expect(() => new HttpSessions(async () => {}, { sessionIdleMs: -1 })).toThrow(/http\.sessionIdleMs must be a number of milliseconds >= 0/);
    expect(() => createMockMCP(GITHUB, { http: { maxSessions: 1.5 } })).toThrow(/http\.maxSessions/);
  });
});
