/**
 * The MCP proxy: one MCP server in front of many, with lazy connections, per-tool metrics, tool search
 * and fallback suggestions — tested with no key and no network.
 *
 *   npx vitest run examples/proxy.test.ts
 *
 * - The downstream servers are real processes from a `.mcp.json`-shaped config: the SQLite fixture and the
 *   third-party `@modelcontextprotocol/server-everything` from npm. Nothing starts until first use.
 * - The `proxy` fixture of `ghostwire/vitest` starts the proxy with a temp metrics store and connects an
 *   MCP SDK client to it, as an agent would be; everything is closed after the test.
 * - Search: with no embeddings API configured the proxy searches with BM25 and says so in a `note`;
 *   give it `recommend_tools.embeddings.base_url` (e.g. ghostwire's mock LLM server) for embeddings.
 *
 * On the command line: `ghostwire proxy serve --config .mcp.json` (stdio) or `--http 127.0.0.1:8808`.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { stdioFixture, test } from 'ghostwire/vitest';

const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const config = {
  mcpServers: {
    shop: stdioFixture('sqlite'),
    everything: { command: process.execPath, args: [everything, 'stdio'] },
  },
  recommend_tools: { search_mode: 'semantic' as const, max_fallbacks: 2 },
};

test('discovers, calls, measures and searches tools through the proxy', async ({ proxy }) => {
  const { call } = await proxy.start(config, { embedder: null, llm: null });

  // Lazy: nothing is connected before it is needed.
  const before = (await call('list_mcp_servers')) as { servers: Array<{ name: string; state: string }> };
  expect(before.servers.map((s) => s.state)).toEqual(['configured', 'configured']);

  // Progressive discovery: brief listing, then the full schema of one tool, then the call.
  const listing = (await call('list_tools', { server: 'shop' })) as { tools: Array<{ name: string; brief: string }> };
  expect(listing.tools.map((t) => t.name)).toContain('query');
  const schema = (await call('get_tool_schema', { server: 'shop', tool: 'query' })) as { inputSchema: { properties: object } };
  expect(schema.inputSchema.properties).toHaveProperty('sql');
  const answer = await call('call_tool', { server: 'shop', tool: 'query', arguments: { sql: 'SELECT count(*) AS n FROM orders' } });
  expect(JSON.stringify(answer)).toContain('5');

  // Arguments are checked against the tool's schema before anything goes downstream.
  const bad = (await call('call_tool', { server: 'shop', tool: 'query', arguments: { sql: 42 } })) as { kind: string; error: string };
  expect(bad).toMatchObject({ kind: 'arguments' });
  expect(bad.error).toContain('"sql" must be string');

  // A failing call comes back with alternatives in a separate field; the caller decides.
  const failed = (await call('call_tool', { server: 'shop', tool: 'query', arguments: { sql: 'SELECT * FROM nowhere' } })) as {
    success: boolean; error: string; fallback_suggestions: Array<{ server: string; tool: string; reason: string }>;
  };
  expect(failed.success).toBe(false);
  expect(failed.error).toMatch(/no such table/);
  expect(failed.fallback_suggestions.length).toBeLessThanOrEqual(2);

  // Every call is measured (machine-global SQLite store; a temp file here).
  const metrics = (await call('get_tool_metrics', { server: 'shop', tool: 'query' })) as { tools: Array<{ call_count: number; success_count: number }> };
  expect(metrics.tools[0]).toMatchObject({ call_count: 2, success_count: 1 });

  // Search across every server's tools.
  const found = (await call('search_tools', { query: 'echo back a message', top_k: 3 })) as { mode: string; note: string; results: Array<{ server: string; tool: string }> };
  expect(found.mode).toBe('lexical');
  expect(found.results[0]).toMatchObject({ server: 'everything', tool: 'echo' });
});
