// The proxy end to end over Streamable HTTP, with the official MCP SDK client, the fixture servers
// and the third-party server-everything downstream.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { LEXICAL_FALLBACK_MIN_SIMILARITY } from './fallback-calibration.ts';
import { isAlive, stdioEntry, tempDir } from './test-helpers.ts';

const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

const config = {
  mcpServers: {
    docs: stdioEntry('proxy-docs'),
    crash: stdioEntry('crash'),
    hang: stdioEntry('hang'),
    flaky: stdioEntry('flaky', { FLAKY_FAILURES: '1' }),
    everything: { command: process.execPath, args: [everything, 'stdio'] },
    broken: { command: process.execPath, args: ['-e', 'process.exit(9)'] },
  },
  mcp_client_proxy: { call_timeout: 0.5, max_connection_retries: 0, circuit_breaker_threshold: 1, circuit_breaker_reset: 600 },
  recommend_tools: { search_mode: 'semantic' as const },
};

async function connectClient(url: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const json = (r: unknown): any => (r as CallToolResult).structuredContent ?? JSON.parse(((r as CallToolResult).content[0] as { text: string }).text);

describe('proxy over Streamable HTTP', () => {
  const { dir, cleanup } = tempDir();
  const storePath = join(dir, 'proxy.db');
  let proxy: McpProxy;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<any> => json(await client.callTool({ name, arguments: args }));
  const through = (server: string, tool: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name: 'call_tool', arguments: { server, tool, arguments: args } }) as Promise<CallToolResult>;

  beforeAll(async () => {
    proxy = createProxy(config, { storePath, embedder: null, llm: null });
    const { url } = await proxy.listen();
    client = await connectClient(url);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    cleanup();
  });

  it('offers the ten proxy tools and connects nothing up front', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['call_tool', 'get_tool_alternatives', 'get_tool_metrics', 'get_tool_schema', 'list_mcp_servers',
      'list_tools', 'recommend_tools', 'refresh_tools', 'reset_tool_metrics', 'search_tools']);
    const { servers } = await call('list_mcp_servers');
    expect(servers.map((s: any) => [s.name, s.state, s.pid])).toEqual([
      ['docs', 'configured', null], ['crash', 'configured', null], ['hang', 'configured', null],
      ['flaky', 'configured', null], ['everything', 'configured', null], ['broken', 'configured', null]]);
  });

  it('connects a server on first list_tools and gives brief descriptions and full schemas', async () => {
    const { tools } = await call('list_tools', { server: 'docs' });
    expect(tools.map((t: any) => t.name)).toContain('get_library_docs');
    expect(tools.find((t: any) => t.name === 'search_docs')).toEqual({ server: 'docs', name: 'search_docs', brief: 'Search the library documentation for pages matching a query.', available: true });
    const servers = (await call('list_mcp_servers')).servers;
    expect(servers.find((s: any) => s.name === 'docs')).toMatchObject({ state: 'connected', last_error: null });
    expect(servers.find((s: any) => s.name === 'crash').state).toBe('configured');
    const schema = await call('get_tool_schema', { server: 'docs', tool: 'search_docs' });
    expect(schema.inputSchema.properties.query).toEqual({ type: 'string' });
    expect(schema.schema_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(schema.last_schema_change)).not.toBeNaN();
  });

  it('calls through, validates arguments before they go downstream, and records every call', async () => {
    const ok = await through('docs', 'search_docs', { query: 'routing', limit: 1 });
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse((ok.content[0] as { text: string }).text)).toEqual({ query: 'routing', results: ['routing guide'] });
    const bad = await through('docs', 'search_docs', { query: 42, limit: 0 });
    expect(bad.isError).toBe(true);
    expect(json(bad)).toMatchObject({ success: false, kind: 'arguments', fallback_suggestions: [] });
    expect(json(bad).error).toMatch(/"query" must be string.*"limit" must be > 0/);
    const unknown = await through('docs', 'nope');
    expect(json(unknown)).toMatchObject({ kind: 'unknown_tool' });
    expect(json(unknown).error).toContain('its tools: ');
    const metrics = await call('get_tool_metrics', { server: 'docs', tool: 'search_docs' });
    expect(metrics.tools).toEqual([expect.objectContaining({ call_count: 1, success_count: 1, success_rate: 1 })]);
  });

  it('suggests fallbacks in a separate field when a tool fails or returns nothing', async () => {
    const failed = await through('docs', 'get_library_docs', { library_id: 'missing' });
    expect(failed.isError).toBe(true);
    const body = json(failed);
    expect(body).toMatchObject({ success: false, server: 'docs', tool: 'get_library_docs', kind: 'error', error: 'library missing not found' });
    // No other tool declares library_id: none could take this call, so none is suggested for it.
    expect(body.fallback_suggestions).toEqual([]);
    const empty = json(await through('docs', 'empty_answer'));
    expect(empty).toMatchObject({ kind: 'empty', error: 'the tool returned an empty result' });
    const noFallbacks = json(await client.callTool({ name: 'call_tool', arguments: { server: 'docs', tool: 'get_library_docs', arguments: { library_id: 'missing' }, include_fallbacks: false } }));
    expect(noFallbacks.fallback_suggestions).toEqual([]);
    // Alternatives without a call to fit: by similarity alone, above the calibrated threshold.
    const alternatives = await call('get_tool_alternatives', { server: 'docs', tool: 'get_library_docs' });
    expect(alternatives.alternatives.map((a: any) => a.tool)).not.toContain('get_library_docs');
    expect(alternatives.alternatives.every((a: any) => a.similarity >= LEXICAL_FALLBACK_MIN_SIMILARITY)).toBe(true);
    const m = (await call('get_tool_metrics', { server: 'docs' }));
    expect(m.failing_tools.map((t: any) => t.tool)).toEqual(expect.arrayContaining(['get_library_docs', 'empty_answer']));
  });

  it('times out a hanging tool without blocking others', async () => {
    const started = Date.now();
    const [hung, pong] = await Promise.all([through('hang', 'wait_forever', {}), through('hang', 'ping')]);
    expect(json(hung)).toMatchObject({ kind: 'timeout', error: 'tool call timed out after 500 ms' });
    expect(pong.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reconnects a crashed server on next use', async () => {
    expect((await through('crash', 'echo', { text: 'one' })).content).toEqual([{ type: 'text', text: 'one' }]);
    const firstPid = (await call('list_mcp_servers')).servers.find((s: any) => s.name === 'crash').pid;
    const crashed = json(await through('crash', 'crash', {}));
    expect(crashed).toMatchObject({ success: false, kind: 'connection' });
    // A lost connection rules out the whole server: only another server's same-job tool (none here), and why.
    expect(crashed.fallback_note).toMatch(/connection to the server was lost: no tool of crash can answer now, so only the same job on another server is suggested; none was found/);
    await expect.poll(() => isAlive(firstPid)).toBe(false);
    expect((await through('crash', 'echo', { text: 'two' })).content).toEqual([{ type: 'text', text: 'two' }]);
    const after = (await call('list_mcp_servers')).servers.find((s: any) => s.name === 'crash');
    expect(after.state).toBe('connected');
    expect(after.pid).not.toBe(firstPid);
  });

  it('opens the breaker of a server that cannot start and marks its tools unavailable', async () => {
    const first = json(await through('broken', 'anything'));
    expect(first.kind).toBe('connection');
    const second = json(await through('broken', 'anything'));
    expect(second).toMatchObject({ kind: 'unavailable' });
    expect(second.fallback_note).toMatch(/server is unavailable: no tool of broken can answer now/);
    expect(second.error).toMatch(/circuit open until/);
    const broken = (await call('list_mcp_servers')).servers.find((s: any) => s.name === 'broken');
    expect(broken).toMatchObject({ state: 'failed', circuit: 'open' });
    expect(broken.retry_at).not.toBeNull();
  });

  it('refreshes incrementally on tools/list_changed and on refresh_tools', async () => {
    await through('docs', 'add_tool', { name: 'translate_docs', description: 'Translate documentation pages into another language.' });
    await expect.poll(async () => (await call('list_tools', { server: 'docs' })).tools.map((t: any) => t.name)).toContain('translate_docs');
    const docs = (await call('list_mcp_servers')).servers.find((s: any) => s.name === 'docs');
    expect(docs.last_refresh).toMatchObject({ added: ['translate_docs'], updated: [], removed: [] });
    await through('docs', 'rename_description', { name: 'translate_docs', description: 'Translate pages.' });
    await expect.poll(async () => (await call('get_tool_schema', { server: 'docs', tool: 'translate_docs' })).description).toBe('Translate pages.');
    const { results } = await call('refresh_tools', { server: 'docs' });
    expect(results[0]).toMatchObject({ server: 'docs', added: [], updated: [], removed: [], unchanged: 8 });
    const forced = await call('refresh_tools', { server: 'docs', force: true });
    expect(forced.results[0].updated).toHaveLength(8);
  });

  it('serves 100 concurrent calls and records all of them', async () => {
    await call('reset_tool_metrics', { server: 'docs', tool: 'resolve_library_id' });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => through('docs', 'resolve_library_id', { name: `pkg${i}` })));
    expect(results.map((r) => (r.content[0] as { text: string }).text)).toEqual(Array.from({ length: 100 }, (_, i) => `/lib/pkg${i}`));
    const m = await call('get_tool_metrics', { server: 'docs', tool: 'resolve_library_id' });
    expect(m.tools[0]).toMatchObject({ call_count: 100, success_count: 100 });
  });

  it('proxies the third-party server-everything', async () => {
    const { tools } = await call('list_tools', { server: 'everything' });
    expect(tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect((await through('everything', 'echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    const sum = await through('everything', 'get-sum', { a: 2, b: 3 });
    expect((sum.content[0] as { text: string }).text).toContain('5');
    const bad = json(await through('everything', 'get-sum', { a: 'two' }));
    expect(bad.kind).toBe('arguments');
  });

  it('searches lexically without an embeddings API, saying so, and leaves unavailable tools marked', async () => {
    const answer = await call('search_tools', { query: 'fetch library documentation', top_k: 3 });
    expect(answer.mode).toBe('lexical');
    expect(answer.note).toMatch(/No embeddings API configured/);
    expect(answer.results[0]).toMatchObject({ server: 'docs', tool: 'get_library_docs', available: true });
    const scoped = await call('search_tools', { query: 'echo', server: 'crash' });
    expect(scoped.results.every((r: any) => r.server === 'crash')).toBe(true);
    const rec = await call('recommend_tools', { task: 'fetch library documentation', search_mode: 'hybrid', top_k: 2 });
    expect(rec.notes[0]).toMatch(/needs an LLM/);
    expect(rec.recommendations).toHaveLength(2);
    expect(rec.recommendations[0].tool).toBe('get_library_docs');
  });

  it('rejects bad proxy-tool arguments with the field named', async () => {
    const r = (await client.callTool({ name: 'search_tools', arguments: { query: '', top_k: -1 } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(json(r).error).toMatch(/invalid arguments for search_tools: query: .*; top_k: /);
  });

  it('keeps metrics and the catalog across a restart, without connecting', async () => {
    const before = (await call('get_tool_metrics', { server: 'docs' })).tools;
    await client.close();
    await proxy.close();
    proxy = createProxy(config, { storePath, embedder: null, llm: null });
    client = await connectClient((await proxy.listen()).url);
    expect((await call('get_tool_metrics', { server: 'docs' })).tools).toEqual(before);
    const listed = await call('list_tools', {});
    expect(listed.tools.filter((t: any) => t.server === 'docs').length).toBe(8);
    const docs = (await call('list_mcp_servers')).servers.find((s: any) => s.name === 'docs');
    expect(docs.state).toBe('configured');
  });
});
