// The proxy's HTTP endpoint at its edges: DNS rebinding (Host/Origin), the token beyond loopback,
// JSON-RPC error codes and the body limit — with raw requests where a browser or attacker would send them,
// and the official SDK client for what must keep working.
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { listenHttp } from './http.ts';
import { tempDir } from './test-helpers.ts';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });

/** A raw POST with exactly the headers given (fetch would not let us set Host). */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any; session?: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream', host: u.host, ...headers,
    } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = text;
        try { json = JSON.parse(text); } catch { /* an SSE answer */ }
        const session = res.headers['mcp-session-id'];
        resolve({ status: res.statusCode ?? 0, json, session: typeof session === 'string' ? session : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('proxy HTTP endpoint safety', () => {
  const { dir, cleanup } = tempDir();
  let proxy: McpProxy;
  let url: string;
  const logs: string[] = [];

  beforeAll(async () => {
    proxy = createProxy({ mcpServers: {}, http: { allowed_hosts: ['proxy.lan'], allowed_origins: ['https://app.example'], max_body_bytes: 10_000 } },
      { storePath: join(dir, 'p.db'), embedder: null, llm: null, env: {}, log: (m) => logs.push(m) });
    ({ url } = await proxy.listen());
  });
  afterAll(async () => {
    await proxy.close();
    cleanup();
  });

  it('refuses a DNS-rebinding request (foreign Host and Origin) with 403 and no session', async () => {
    const answer = await post(url, INIT, { host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(answer.status).toBe(403);
    expect(answer.json.error.message).toMatch(/Host "evil.example.com" is not allowed/);
    const origin = await post(url, INIT, { origin: 'http://evil.example.com' });
    expect(origin.status).toBe(403);
    expect(origin.json.error.message).toMatch(/Origin "http:\/\/evil.example.com" is not allowed/);
  });

  it('accepts loopback names, configured hosts and origins, and clients that send no Origin', async () => {
    const port = new URL(url).port;
    for (const headers of [{ host: `localhost:${port}`, origin: `http://localhost:${port}` }, { host: `proxy.lan:${port}`, origin: 'https://app.example' }, {}] as Array<Record<string, string>>) {
      expect((await post(url, INIT, headers)).status).toBe(200);
    }
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.length).toBe(10);
    await client.close();
  });

  it('answers JSON-RPC errors per spec: -32700 for non-JSON, -32600 for an invalid request; 413 beyond the body limit', async () => {
    const parse = await post(url, '{not json');
    expect([parse.status, parse.json.error.code]).toEqual([400, -32700]);
    const invalid = await post(url, JSON.stringify({ hello: 'world' }));
    expect([invalid.status, invalid.json.error.code]).toEqual([400, -32600]);
    const empty = await post(url, JSON.stringify([]));
    expect(empty.json.error.code).toBe(-32600);
    const big = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(20_000) } }));
    expect(big.status).toBe(413);
    expect(big.json.error.message).toMatch(/over the limit of 10000 bytes/);
    // Still serving after every refusal.
    expect((await post(url, INIT)).status).toBe(200);
  });

  it('will not listen beyond loopback without a token (refused before binding), and requires a token it has', async () => {
    await expect(proxy.listen({ host: '0.0.0.0', port: 0 })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without a bearer token.*GHOSTWIRE_PROXY_TOKEN/);
    // Tests bind loopback only: the token check is the same wherever the proxy listens.
    const guarded = await proxy.listen({ port: 0, token: 's3cret' });
    expect(guarded.requiresToken).toBe(true);
    expect((await post(guarded.url, INIT)).status).toBe(401);
    expect((await post(guarded.url, INIT, { authorization: 'Bearer wrong!' })).status).toBe(401);
    expect((await post(guarded.url, INIT, { authorization: 'Bearer s3cret' })).status).toBe(200);
  });
});

describe('proxy HTTP sessions are bounded', () => {
  const { dir, cleanup } = tempDir();
  let proxy: McpProxy;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    proxy = createProxy({ mcpServers: {}, http: { max_sessions: 2, session_idle_seconds: 1 } },
      { storePath: join(dir, 'p.db'), embedder: null, llm: null, env: {}, log: () => {} });
    ({ url } = await proxy.listen());
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await proxy.close();
    cleanup();
  });

  async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'bounded', version: '1' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }
  const idle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1600));

  it('closes a session whose client vanished without DELETE, and keeps one whose client holds its stream', async () => {
    const live = await connect();
    const vanished = await post(url, INIT);
    expect(vanished.status).toBe(200);
    expect(vanished.session).toMatch(/\S/);
    await idle();
    // The SDK client keeps a GET stream open for notifications: live, whatever the clock says.
    expect((await live.client.listTools()).tools.map((t) => t.name)).toContain('search_tools');
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const gone = await post(url, list, { 'mcp-session-id': vanished.session!, 'mcp-protocol-version': '2025-06-18' });
    expect(gone.status).toBe(404);
    expect(gone.json.error.message).toMatch(/unknown session/);
    await live.transport.terminateSession();
  });

  it('closes the MCP server of an initialize refused before its session began', async () => {
    let built = 0;
    let closed = 0;
    const listener = await listenHttp(() => {
      built++;
      const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
      server.onclose = () => void closed++;
      return server;
    });
    try {
      const refused = await post(listener.url, INIT, { accept: 'application/json' });
      expect(refused.status).toBe(406);
      expect([built, closed]).toEqual([1, 1]);
      const accepted = await post(listener.url, INIT);
      expect(accepted.status).toBe(200);
      expect([built, closed]).toEqual([2, 1]);
    } finally {
      await listener.close();
    }
  });

  it('answers 503 to an initialize beyond max_sessions, and takes new sessions once one ends', async () => {
    const first = await connect();
    await connect();
    const third = await post(url, INIT);
    expect(third.status).toBe(503);
    expect(third.json.error.message).toMatch(/too many sessions \(2 open\).*DELETE \/mcp/);
    await first.transport.terminateSession();
    const fourth = await post(url, INIT);
    expect(fourth.status).toBe(200);
  });
});
