// createProxy configured only by its config: embeddings and ranking LLM at a real mock LLM server
// (ghostwire's own, on 127.0.0.1), auto_retry_fallback, eager connection.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AWKWARD_NAMES } from '../../fixtures/servers/awkward-names.ts';
import { startHttpFixture } from '../../fixtures/servers/launch.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { MetricsRecorder } from './metrics.ts';
import { openStore } from './store.ts';
import { stdioEntry, tempDir } from './test-helpers.ts';

const json = (r: unknown): any => (r as CallToolResult).structuredContent;

describe('createProxy from config alone', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

  async function start(config: Record<string, unknown>, server?: MockLLMServer): Promise<{ proxy: McpProxy; client: Client }> {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const proxy = createProxy({ mcpServers: { docs: stdioEntry('proxy-docs') }, ...config } as any, { storePath: join(dir, 'p.db'), env: {} });
    cleanups.push(() => proxy.close());
    const [a, b] = InMemoryTransport.createLinkedPair();
    await proxy.connect(a);
    const client = new Client({ name: 'cfg', version: '1.0.0' });
    await client.connect(b);
    cleanups.push(() => client.close());
    void server;
    return { proxy, client };
  }

  it('uses the configured embeddings endpoint and the ghost provider layer (Anthropic) for hybrid ranking', async () => {
    const server = await startMockLLMServer({
      scenarios: [{ name: 'rank', steps: [{ match: { provider: 'anthropic' }, respond: { text: '[{"server":"docs","tool":"resolve_library_id","reason":"ids first"}]' }, consume: false }] }],
    });
    cleanups.push(() => server.close());
    const { client } = await start({
      recommend_tools: {
        search_mode: 'hybrid',
        embeddings: { base_url: `${server.url}/v1` },
        llm: { provider: 'anthropic', model: 'claude-haiku-4-5', base_url: server.url },
      },
    }, server);
    const search = json(await client.callTool({ name: 'search_tools', arguments: { query: 'library documentation', top_k: 3 } }));
    expect(search.mode).toBe('semantic');
    expect(search.note).toBeUndefined();
    expect(search.results).toHaveLength(3);
    const rec = json(await client.callTool({ name: 'recommend_tools', arguments: { task: 'find the docs of zod' } }));
    expect(rec).toMatchObject({ search_mode: 'hybrid', ranking: 'semantic+llm', recommendations: [{ server: 'docs', tool: 'resolve_library_id', reason: 'ids first' }] });
    const providers = server.mock.requests.map((r) => r.provider);
    expect(providers).toContain('embeddings');
    expect(providers).toContain('anthropic');
    // Without an embeddings key or endpoint the same proxy would be lexical: the env given was empty.
    const lexical = await start({});
    expect(json(await lexical.client.callTool({ name: 'search_tools', arguments: { query: 'docs' } })).mode).toBe('lexical');
  });

  it('auto_retry_fallback tries the first suggestion it may run and returns both results', async () => {
    const { client } = await start({ mcpServers: { docs: stdioEntry('proxy-docs'), mirror: stdioEntry('docs-mirror') }, recommend_tools: { auto_retry_fallback: true, max_fallbacks: 2 } });
    await client.callTool({ name: 'list_tools', arguments: {} });
    const r = (await client.callTool({ name: 'call_tool', arguments: { server: 'docs', tool: 'get_library_docs', arguments: { library_id: 'missing' } } })) as CallToolResult;
    expect(r.isError).toBe(true);
    const body = json(r);
    expect(body.error).toBe('library missing not found');
    expect(body.fallback_suggestions.length).toBeLessThanOrEqual(2);
    // The first suggestions (the mirror's get, annotated destructive, and its unannotated read) are not safe to run
    // unasked: each is skipped, nothing was retried.
    const suggested = body.fallback_suggestions.map((s: any) => s.tool).sort();
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.every((t: string) => ['get_library_docs', 'read_library_docs'].includes(t))).toBe(true);
    expect(body.auto_retry_skipped.map((s: any) => s.tool).sort()).toEqual(suggested);
    expect(body.fallback_result).toBeUndefined();
  });

  it('connects every server at start when lazy_connect is off', async () => {
    const { client } = await start({ mcp_client_proxy: { lazy_connect: false } });
    // Nothing asked for docs: the proxy connected and indexed it by itself.
    await expect.poll(async () => json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers[0].tool_count, { timeout: 10_000 }).toBe(7);
    const servers = json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers;
    expect(servers[0].state).toBe('connected');
    expect(servers[0].last_refresh).toMatchObject({ added: expect.arrayContaining(['search_docs']), unchanged: 0 });
  });

  it('marks tools of a server with an open breaker unavailable in listings and search, and never recommends them', async () => {
    const { proxy, client } = await start({
      mcpServers: { docs: stdioEntry('proxy-docs'), gone: { command: process.execPath, args: ['-e', 'process.exit(4)'] } },
      mcp_client_proxy: { max_connection_retries: 0, circuit_breaker_threshold: 1 },
      recommend_tools: { search_mode: 'semantic' },
    });
    // What an earlier run of the proxy learnt about "gone" is in the store.
    proxy.core.catalog.apply('gone', [{ name: 'search_docs_mirror', description: 'Search the library documentation mirror for pages.', inputSchema: { type: 'object' } }]);
    proxy.core.search.invalidate();
    const failed = json(await client.callTool({ name: 'call_tool', arguments: { server: 'gone', tool: 'search_docs_mirror' } }));
    expect(failed.kind).toBe('connection');
    const listed = json(await client.callTool({ name: 'list_tools', arguments: { include_metrics: true } }));
    expect(listed.tools.find((t: any) => t.server === 'gone')).toMatchObject({ available: false, metrics: null });
    expect(listed.tools.find((t: any) => t.name === 'search_docs')).toMatchObject({ available: true });
    const search = json(await client.callTool({ name: 'search_tools', arguments: { query: 'search library documentation pages' } }));
    expect(search.results.find((r: any) => r.server === 'gone')).toMatchObject({ available: false });
    const rec = json(await client.callTool({ name: 'recommend_tools', arguments: { task: 'search library documentation pages', top_k: 10 } }));
    expect(rec.recommendations.length).toBeGreaterThan(0);
    expect(rec.recommendations.every((r: any) => r.server !== 'gone')).toBe(true);
    const alt = json(await client.callTool({ name: 'get_tool_alternatives', arguments: { server: 'docs', tool: 'search_docs' } }));
    expect(alt.alternatives.every((a: any) => a.server !== 'gone')).toBe(true);
  });

  it('answers the plain HTTP search and embed endpoints next to /mcp', async () => {
    const server = await startMockLLMServer();
    cleanups.push(() => server.close());
    const { proxy } = await start({ recommend_tools: { embeddings: { base_url: `${server.url}/v1` } } });
    const { url } = await proxy.listen();
    const base = url.replace(/\/mcp$/, '');
    const embedded = await (await fetch(`${base}/mcp/tools/embed`, { method: 'POST', body: '{}' })).json();
    expect(embedded).toMatchObject({ mode: 'semantic' });
    const found = await (await fetch(`${base}/mcp/tools/search?query=resolve%20package%20name&top_k=1`)).json();
    expect(found).toMatchObject({ mode: 'semantic', results: [{ server: 'docs', tool: 'resolve_library_id' }] });
    const forced = await (await fetch(`${base}/mcp/tools/embed`, { method: 'POST', body: '{"force":true}' })).json();
    expect(forced).toEqual({ mode: 'semantic', embedded: 7 });
    const missing = await fetch(`${base}/mcp/tools/search`);
    expect(missing.status).toBe(400);
  });

  it('proxies a downstream over Streamable HTTP, and reconnects after the server went away and came back', async () => {
    const db = await startHttpFixture('sqlite');
    cleanups.push(() => db.close());
    const { client } = await start({ mcpServers: { db: { url: db.url } }, mcp_client_proxy: { max_connection_retries: 0, circuit_breaker_threshold: 5 } });
    const listed = json(await client.callTool({ name: 'list_tools', arguments: { server: 'db' } }));
    expect(listed.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(['list_tables', 'describe_table', 'query']));
    const servers = json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers;
    expect(servers[0]).toMatchObject({ name: 'db', transport: 'http', state: 'connected', pid: null });
    const r = (await client.callTool({ name: 'call_tool', arguments: { server: 'db', tool: 'list_tables' } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect((r.content[0] as { text: string }).text).toMatch(/orders/);
    const port = Number(new URL(db.url).port);
    await db.close();
    const down = json(await client.callTool({ name: 'call_tool', arguments: { server: 'db', tool: 'list_tables' } }));
    expect(down).toMatchObject({ success: false, kind: "connection" });

    const again = await startHttpFixture('sqlite', { port });
    cleanups.push(() => again.close());
    const back = (await client.callTool({ name: 'call_tool', arguments: { server: 'db', tool: 'list_tables' } })) as CallToolResult;
    expect(back.isError).toBeFalsy();
    expect(json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers[0].state).toBe('connected');
  });

  it('rolls raw rows older than metrics_retention_days into daily aggregates at start; totals stay', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const storePath = join(dir, 'm.db');
    const db = openStore(storePath);
    const old = new MetricsRecorder(db);
    const DAY = 86_400_000;
    for (let i = 0; i < 4; i++) old.record({ server: 'docs', tool: 'search_docs', success: i > 0, latencyMs: 10, at: Date.now() - 3 * DAY, error: i ? undefined : 'old' });
    old.record({ server: 'docs', tool: 'search_docs', success: true, latencyMs: 10 });
    old.flush();
    db.close();
    const proxy = createProxy({ mcpServers: {}, mcp_client_proxy: { metrics_retention_days: 2 } }, { storePath, env: {} });
    cleanups.push(() => proxy.close());
    expect(proxy.core.metrics.rawCount()).toBe(1);
    expect(proxy.core.getToolMetrics({ server: 'docs' }).tools).toEqual([expect.objectContaining({ call_count: 5, success_count: 4, last_error: 'old' })]);
  });

  it('passes awkward tool names (dots, spaces, unicode, 100+ characters, near-collisions) through unchanged', async () => {
    // No similarity floor: the point is that alternatives keep the names, however dissimilar.
    const { client } = await start({ mcpServers: { odd: stdioEntry('awkward-names') }, recommend_tools: { fallback_min_similarity: 0 } });
    const listed = json(await client.callTool({ name: 'list_tools', arguments: { server: 'odd' } }));
    expect(listed.tools.map((t: any) => t.name).sort()).toEqual([...AWKWARD_NAMES].sort());
    for (const name of AWKWARD_NAMES) {
      const r = (await client.callTool({ name: 'call_tool', arguments: { server: 'odd', tool: name, arguments: { note: 'n' } } })) as CallToolResult;
      expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual({ tool: name, note: 'n' });
    }
    const found = json(await client.callTool({ name: 'search_tools', arguments: { query: 'données', top_k: 1 } }));
    expect(found.results[0]).toMatchObject({ server: 'odd', tool: 'données_📁' });
    const alt = json(await client.callTool({ name: 'get_tool_alternatives', arguments: { server: 'odd', tool: 'get.data' } }));
    expect(alt.alternatives.length).toBeGreaterThan(0);
  });
});
