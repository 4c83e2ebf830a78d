import { afterEach, describe, expect, it } from 'vitest';
import { McpClientPool } from './mcp-pool.ts';
import { MCPTool } from './mcp-tool.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';

const call = (tool_name: string, tool_params: unknown = {}): string => `<tool_call>${JSON.stringify({ tool_name, tool_params })}</tool_call>`;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});
async function server(options?: Parameters<typeof startTestMcpServer>[0]): Promise<TestMcpServer> {
  const s = await startTestMcpServer(options);
  cleanup.push(() => s.close());
  return s;
}
function tool(options: ConstructorParameters<typeof MCPTool>[0]): MCPTool {
  const t = new MCPTool(options);
  cleanup.push(() => t.close());
  return t;
}

describe('lazy connection', () => {
  it('opens no connection when built, one on the first instructionString(), none after', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(s.httpRequests).toBe(0);
    expect(s.sessionsOpened).toBe(0);
    await t.instructionString();
    expect(s.sessionsOpened).toBe(1);
    const listed = s.httpRequests;
    await t.instructionString();
    await t.executeAction(call('echo', { text: 'a' }));
    expect(s.sessionsOpened).toBe(1);
    // The tool list is cached: the second prompt and the call add only the call itself.
    expect(s.httpRequests).toBe(listed + 1);
  });

  it('connects on the first executeAction() with a tool call when instructionString() was never called', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url });
    expect(s.sessionsOpened).toBe(0);
    expect((await t.executeAction(call('echo', { text: 'first' }))).observation).toBe('<information>first</information>');
    expect(s.sessionsOpened).toBe(1);
  });

  it('a placeholder URL is fine until first use', async () => {
    const t = tool({ serverUrl: 'http://127.0.0.1:9/mcp', timeoutMs: 2000 });
    await expect(t.instructionString()).rejects.toThrow(/fetch failed/);
  });
});

describe('reconnection', () => {
  it('reconnects after the server drops every session, and the call still succeeds', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url });
    expect((await t.executeAction(call('echo', { text: 'before' }))).isValid).toBe(true);
    await s.dropSessions();
    const result = await t.executeAction(call('echo', { text: 'after' }));
    expect(result.observation).toBe('<information>after</information>');
    expect(s.sessionsOpened).toBe(2);
    expect(s.calls.map((c) => c.args.text)).toEqual(['before', 'after']);
  });

  it('reconnects after a server restart on the same port', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url });
    expect((await t.executeAction(call('add', { a: 1, b: 2 }))).isValid).toBe(true);
    await s.restart();
    // Let the client see its keep-alive socket closed, as it would in any real restart.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await t.executeAction(call('add', { a: 2, b: 2 }))).observation).toBe('<information>4</information>');
    expect(s.sessionsOpened).toBe(2);
  });

  it('while the server is down a call is an execution error; once it is back the next call reconnects', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url, timeoutMs: 3000 });
    expect((await t.executeAction(call('echo', { text: 'up' }))).isValid).toBe(true);
    const port = s.port;
    await s.close();
    const down = await t.executeAction(call('echo', { text: 'down' }));
    expect(down.isValid).toBe(false);
    expect(down.observation).toMatch(/^\[Execution Error: .*fetch failed/);
    const back = await startTestMcpServer({ port });
    cleanup.push(() => back.close());
    expect((await t.executeAction(call('echo', { text: 'back' }))).observation).toBe('<information>back</information>');
    expect(back.sessionsOpened).toBe(1);
  });
});

describe('no double execution', () => {
  it('a call cut off mid-flight by a restart is reported, not silently re-run on the new session', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url, timeoutMs: 3000 });
    await t.instructionString();
    const pending = t.executeAction(call('hang'));
    while (s.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await s.restart();
    const result = await pending;
    expect(result.isValid).toBe(false);
    // Reported as soon as the client learns the session is gone, long before the 3 s limit.
    expect(result.observation).toMatch(/^\[Execution Error: the MCP server lost the session while the request was running \(.*Not Found\); not retried, since it may have run\]$/);
    expect(s.calls.filter((c) => c.name === 'hang')).toHaveLength(1);
    // The next call reconnects.
    expect((await t.executeAction(call('echo', { text: 'again' }))).isValid).toBe(true);
  });
});

describe('one overall timeout', () => {
  it('a server that never answers the handshake fails the action within the timeout', async () => {
    const s = await server({ hang: true });
    const t = tool({ serverUrl: s.url, timeoutMs: 150 });
    const started = Date.now();
    const result = await t.executeAction(call('echo', { text: 'x' }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.isValid).toBe(false);
    expect(result.observation).toBe(
      `[Execution Error: could not list the tools of ${s.url}: MCP server ${s.url} did not answer within 150 ms (while connecting and listing tools)]`,
    );
    await expect(t.instructionString()).rejects.toThrow(/did not answer within 150 ms/);
  });

  it('a tool call that never returns fails within the timeout, naming the tool, and the connection stays usable', async () => {
    const s = await server();
    const t = tool({ serverUrl: s.url, timeoutMs: 300 });
    await t.instructionString();
    const result = await t.executeAction(call('hang'));
    expect(result.observation).toBe(`[Execution Error: MCP server ${s.url} did not answer within 300 ms (while calling hang)]`);
    expect((await t.executeAction(call('echo', { text: 'still here' }))).isValid).toBe(true);
    expect(s.sessionsOpened).toBe(1);
  });

  it('the timeout covers connecting, listing and calling together (queue wait included)', async () => {
    const s = await server();
    // Three calls of 400 ms through one slot: each alone fits in 1000 ms, the third's wait does not.
    const pool = new McpClientPool({ maxConcurrency: 1 });
    cleanup.push(() => pool.close());
    const [a, b, c] = [0, 1, 2].map(() => tool({ serverUrl: s.url, pool, timeoutMs: 1000 }));
    await a.instructionString();
    const first = a.executeAction(call('slow', { ms: 400 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [ra, , rc] = await Promise.all([first, b.executeAction(call('slow', { ms: 400 })), c.executeAction(call('slow', { ms: 400 }))]);
    expect(ra.isValid).toBe(true);
    expect(rc.observation).toMatch(/did not answer within 1000 ms \(while calling slow\)/);
  });

  it('close() returns promptly even while a call hangs', async () => {
    const s = await server();
    const t = new MCPTool({ serverUrl: s.url, timeoutMs: 10_000 });
    await t.instructionString();
    const pending = t.executeAction(call('hang'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.close();
    const result = await pending;
    expect(result.isValid).toBe(false);
    // Closed, not timed out: the 10 s limit never fired.
    expect(result.observation).toBe('[Execution Error: the MCP connection was closed]');
  });
});

describe('shared pool', () => {
  it('caps calls in flight per server across every tool in the pool', async () => {
    const s = await server();
    const pool = new McpClientPool({ maxConcurrency: 2 });
    cleanup.push(() => pool.close());
    const tools = Array.from({ length: 6 }, () => tool({ serverUrl: s.url, pool }));
    const results = await Promise.all(tools.map((t) => t.executeAction(call('slow', { ms: 40 }))));
    expect(results.every((r) => r.isValid)).toBe(true);
    expect(s.peakInFlight).toBe(2);
    expect(pool.stats().peakConcurrency[s.url]).toBe(2);
    expect(s.sessionsOpened).toBe(1);
  });

  it('keys connections by URL: two servers, two connections', async () => {
    const [s1, s2] = [await server(), await server()];
    const pool = new McpClientPool();
    cleanup.push(() => pool.close());
    await Promise.all([s1, s2, s1, s2].map((s) => tool({ serverUrl: s.url, pool }).instructionString()));
    expect([s1.sessionsOpened, s2.sessionsOpened]).toEqual([1, 1]);
    expect(pool.stats().servers).toBe(2);
  });

  it('rejects a bad concurrency cap and use after close', async () => {
    expect(() => new McpClientPool({ maxConcurrency: 0 })).toThrow(/positive integer/);
    const pool = new McpClientPool();
    await pool.close();
    expect(() => pool.acquire('http://127.0.0.1:1/mcp')).toThrow(/closed/);
  });
});

describe('SSE transport', () => {
  it('a hung SSE handshake fails within the timeout', async () => {
    const s = await server({ transport: 'sse', hang: true });
    const t = tool({ serverUrl: s.url, transport: 'sse', timeoutMs: 150 });
    await expect(t.instructionString()).rejects.toThrow(`MCP server ${s.url} did not answer within 150 ms (while connecting and listing tools)`);
  });

  it('connects over SSE when asked', async () => {
    const s = await server({ transport: 'sse' });
    const t = tool({ serverUrl: s.url, transport: 'sse' });
    expect(s.sessionsOpened).toBe(0);
    expect((await t.executeAction(call('add', { a: 20, b: 22 }))).observation).toBe('<information>42</information>');
    expect(s.sessionsOpened).toBe(1);
  });

  it('reconnects over SSE after the server drops the stream', async () => {
    const s = await server({ transport: 'sse' });
    const t = tool({ serverUrl: s.url, transport: 'sse', timeoutMs: 3000 });
    expect((await t.executeAction(call('echo', { text: 'one' }))).isValid).toBe(true);
    await s.dropSessions();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await t.executeAction(call('echo', { text: 'two' }))).observation).toBe('<information>two</information>');
    expect(s.sessionsOpened).toBe(2);
  });
});
