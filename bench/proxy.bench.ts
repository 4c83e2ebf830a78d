/**
 * The proxy's speed goals, each against a baseline in the same run (medians: the machine is shared):
 * - call_tool through the proxy vs the same call made directly: ≤ 1.15x. The proxy runs as a library in
 *   the caller's process (createProxy(...).core.callTool), so the figure is the proxy's own work per call
 *   (lookup, ajv validation, metrics, failure classification) on top of the same stdio call. The same call
 *   behind one more MCP client/server hop (in-memory transport) is reported too, without a goal.
 * - search over 10,000 tools: median query < 5 ms lexical (BM25 over weighted fields, lexicon and WordNet expansion, action
 *   matching and the destructive guard), < 10 ms 1536-d cosine.
 * - re-index of 10,000 tools with 1 % changed: ≤ 10 % of a full re-index's time and ≤ 1 % of its embedded texts.
 * - metrics: ≥ 50,000 recorded calls per second (batched transactions) vs one autocommit insert per call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, expect, test } from 'vitest';
import { ToolCatalog } from '../src/proxy/catalog.ts';
import { createProxy } from '../src/proxy/create-proxy.ts';
import { EmbeddingStore } from '../src/proxy/embeddings.ts';
import { mockEmbedder } from '../src/proxy/eval-command.ts';
import { loadEvalCatalog } from '../src/proxy/eval.ts';
import { DEFAULT_CATALOG_DIR } from '../src/proxy/eval-command.ts';
import type { ToolDefinition } from '../src/proxy/hashing.ts';
import { LexicalIndex, tokenize } from '../src/proxy/lexical.ts';
import { MetricsRecorder } from '../src/proxy/metrics.ts';
import { ToolSearch } from '../src/proxy/search.ts';
import { openStore } from '../src/proxy/store.ts';
import { cosine, VectorIndex } from '../src/proxy/vectors.ts';
import { stdioEntry } from '../src/proxy/test-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'ghostwire-proxy-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** 10,000 tools made from the catalog's real descriptions, mixed so no two are alike. */
function syntheticTools(n: number): Array<ToolDefinition & { server: string }> {
  const base = loadEvalCatalog(DEFAULT_CATALOG_DIR).tools;
  const words = [...new Set(base.flatMap((t) => tokenize(t.description ?? '')))];
  let seed = 42;
  const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
  return Array.from({ length: n }, (_, i) => {
    const t = base[i % base.length];
    const extra = Array.from({ length: 6 }, () => words[Math.floor(rand() * words.length)]).join(' ');
    return { server: `server${i % 100}`, name: `${t.name}_${i}`, description: `${t.description} Also: ${extra}.`, inputSchema: t.inputSchema };
  });
}

test('call_tool through the proxy vs the same call made directly (goal ≤ 1.15x at the median)', async ({ bench, annotate }) => {
  const direct = new Client({ name: 'direct', version: '1' });
  await direct.connect(new StdioClientTransport({ ...stdioEntry('proxy-docs'), stderr: 'ignore' }));
  // The same client state as the proxy's own downstream client, which has listed the tools.
  await direct.listTools();
  const proxy = createProxy({ mcpServers: { docs: stdioEntry('proxy-docs') } }, { storePath: join(dir, 'call.db'), embedder: null, llm: null });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await proxy.connect(a);
  const viaMcp = new Client({ name: 'via-proxy', version: '1' });
  await viaMcp.connect(b);
  const args = { name: 'zod' };
  const proxied = await proxy.core.callTool('docs', 'resolve_library_id', args);
  expect(proxied.content).toEqual([{ type: 'text', text: '/lib/zod' }]);
  const DIRECT = 'direct callTool over stdio (baseline)';
  const PROXY = 'call_tool through the proxy (library, same process)';
  const MCP_HOP = 'call_tool through the proxy behind an in-memory MCP hop';
  const results = await bench.compare(
    bench(DIRECT, async () => { await direct.callTool({ name: 'resolve_library_id', arguments: args }); }),
    bench(PROXY, async () => { await proxy.core.callTool('docs', 'resolve_library_id', args); }),
    bench(MCP_HOP, async () => { await viaMcp.callTool({ name: 'call_tool', arguments: { server: 'docs', tool: 'resolve_library_id', arguments: args } }); }),
    { time: 2000 },
  );
  const p50 = (name: typeof DIRECT | typeof PROXY | typeof MCP_HOP): number => results.get(name).latency.p50 ?? results.get(name).latency.mean;
  const base = p50(DIRECT);
  const line = `call_tool median: direct ${base.toFixed(3)} ms; through the proxy ${p50(PROXY).toFixed(3)} ms, ratio ${(p50(PROXY) / base).toFixed(3)} (goal ≤ 1.15); ` +
    `with an extra in-memory MCP client/server hop in front ${p50(MCP_HOP).toFixed(3)} ms, ratio ${(p50(MCP_HOP) / base).toFixed(3)} (not a goal: one more protocol round trip)`;
  console.info(line);
  await annotate(line);
  await viaMcp.close();
  await direct.close();
  await proxy.close();
  expect(p50(PROXY) / base).toBeLessThanOrEqual(1.15);
});

test('search over 10,000 tools (goal: lexical < 5 ms, 1536-d cosine < 10 ms at the median)', async ({ bench, annotate }) => {
  const tools = syntheticTools(10_000);
  const lexical = new LexicalIndex(tools.map((t) => ({ id: `${t.server}/${t.name}`, name: t.name, description: t.description ?? '', params: Object.keys((t.inputSchema?.properties ?? {}) as object) })));
  let seed = 7;
  const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff - 0.5; };
  const vectors = new VectorIndex(1536, 10_000);
  const naive: Array<{ id: string; v: number[] }> = [];
  for (const t of tools) {
    const v = Array.from({ length: 1536 }, rand);
    vectors.set(`${t.server}/${t.name}`, v);
    naive.push({ id: `${t.server}/${t.name}`, v });
  }
  const queries = ['read a file from disk', 'post a message to the team channel', 'create a pull request', 'run a SQL query', 'take a screenshot of the page',
    "remove the 'Urgent' label from these three emails", 'does 10.0.0.57 fall inside 10.0.0.0/24'];
  const qvecs = queries.map(() => Array.from({ length: 1536 }, rand));
  let qi = 0;
  // The first query reads WordNet's files (lazily, once per process): reported, not a goal.
  const coldStart = performance.now();
  expect(lexical.search(queries[0], 10)).toHaveLength(10);
  const coldMs = performance.now() - coldStart;
  const NAIVE = 'naive cosine over number[] rows (baseline)';
  const LEX = 'lexical (BM25 + lexicon + WordNet + actions)';
  const VEC = 'cosine over the packed float32 matrix';
  const results = await bench.compare(
    bench(NAIVE, () => {
      const q = qvecs[qi++ % qvecs.length];
      naive.map((r) => ({ id: r.id, s: cosine(q, r.v) })).sort((x, y) => y.s - x.s).slice(0, 10);
    }),
    bench(LEX, () => { lexical.search(queries[qi++ % queries.length], 10); }),
    bench(VEC, () => { vectors.search(qvecs[qi++ % qvecs.length], 10); }),
    { time: 2000 },
  );
  const p50 = (name: typeof NAIVE | typeof LEX | typeof VEC): number => results.get(name).latency.p50 ?? results.get(name).latency.mean;
  const line = `search over 10,000 tools, median: lexical ${p50(LEX).toFixed(2)} ms (goal < 5; first query, WordNet cold: ${coldMs.toFixed(0)} ms), 1536-d cosine ${p50(VEC).toFixed(2)} ms (goal < 10), naive cosine baseline ${p50(NAIVE).toFixed(2)} ms`;
  console.info(line);
  await annotate(line);
  expect(p50(LEX)).toBeLessThan(5);
  expect(p50(VEC)).toBeLessThan(10);
});

async function reindexRound(byServer: Map<string, ToolDefinition[]>, file: string): Promise<{ fullMs: number; incMs: number; fullTexts: number; incTexts: number }> {
  const db = openStore(file);
  const embedder = mockEmbedder();
  const catalog = new ToolCatalog(db);
  const search = new ToolSearch(catalog, { embedder, store: new EmbeddingStore(db, embedder.model, embedder.dimensions) });
  // As refresh_tools does it: every server at once (their embedding requests coalesce).
  const refreshAll = async (list: Map<string, ToolDefinition[]>, force: boolean): Promise<void> => {
    await Promise.all([...list].map(async ([server, defs]) => {
      const s = catalog.apply(server, defs, force);
      const changed = [...s.added, ...s.updated].map((n) => catalog.get(server, n)!);
      await search.sync(changed, force);
    }));
  };
  let started = performance.now();
  await refreshAll(byServer, false);
  const fullMs = performance.now() - started;
  const fullTexts = search.embeddedTexts;
  // Change 1 % of the tools (one in a hundred), spread over every server.
  let i = 0;
  const changed = new Map([...byServer].map(([server, defs]) => [server, defs.map((d) => (i++ % 100 === 0 ? { ...d, description: `${d.description} (v2)` } : d))]));
  started = performance.now();
  await refreshAll(changed, false);
  const incMs = performance.now() - started;
  const incTexts = search.embeddedTexts - fullTexts;
  db.close();
  return { fullMs, incMs, fullTexts, incTexts };
}

test('re-index 10,000 tools with 1% changed (goal ≤ 10% of the full time, ≤ 1% of the embedded texts)', async ({ annotate }) => {
  const tools = syntheticTools(10_000);
  const byServer = new Map<string, ToolDefinition[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  // Three rounds, each on a fresh store; medians, since one sample on a shared machine is noise.
  const rounds: Array<{ fullMs: number; incMs: number; fullTexts: number; incTexts: number }> = [];
  for (let round = 0; round < 3; round++) rounds.push(await reindexRound(byServer, join(dir, `reindex-${round}.db`)));
  const fullMs = median(rounds.map((r) => r.fullMs));
  const incMs = median(rounds.map((r) => r.incMs));
  const { fullTexts, incTexts } = rounds[0];
  expect(rounds.every((r) => r.fullTexts === fullTexts && r.incTexts === incTexts)).toBe(true);
  const line = `re-index 10,000 tools, median of 3: full ${fullMs.toFixed(0)} ms / ${fullTexts} texts embedded; 1% changed ${incMs.toFixed(0)} ms / ${incTexts} texts ` +
    `(${((incMs / fullMs) * 100).toFixed(1)}% of the time, ${((incTexts / fullTexts) * 100).toFixed(2)}% of the embedding work)`;
  console.info(line);
  await annotate(line);
  expect(fullTexts).toBe(10_000);
  expect(incTexts).toBe(100);
  expect(incMs / fullMs).toBeLessThanOrEqual(0.1);
  expect(incTexts / fullTexts).toBeLessThanOrEqual(0.01);
  // Three rounds of 10,000 mock embeddings (words, subwords, WordNet synonyms) on a shared machine: more than the default minute.
}, 180_000);

test('metrics: recorded calls per second (goal ≥ 50,000)', async ({ annotate }) => {
  const db = openStore(join(dir, 'metrics.db'));
  const metrics = new MetricsRecorder(db);
  const N = 100_000;
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let k = 0; k < N; k++) metrics.record({ server: `s${k % 10}`, tool: `t${k % 50}`, success: k % 7 !== 0, latencyMs: k % 13, error: k % 7 === 0 ? 'boom' : undefined });
    metrics.flush();
    rates.push(N / ((performance.now() - started) / 1000));
  }
  // Baseline: one autocommit INSERT per call, as a naive recorder would do.
  const insert = db.prepare('INSERT INTO tool_calls(server_name, tool_name, success, latency_ms, error, called_at) VALUES (?, ?, ?, ?, ?, ?)');
  const started = performance.now();
  const M = 5000;
  for (let k = 0; k < M; k++) insert.run('s', 't', 1, 1, null, Date.now());
  const naiveRate = M / ((performance.now() - started) / 1000);
  expect(metrics.rawCount()).toBe(5 * N + M);
  db.close();
  const line = `metrics: ${Math.round(median(rates)).toLocaleString('en-US')} recorded calls/s median (batched transactions; goal ≥ 50,000) vs ${Math.round(naiveRate).toLocaleString('en-US')}/s with one autocommit insert per call`;
  console.info(line);
  await annotate(line);
  expect(median(rates)).toBeGreaterThanOrEqual(50_000);
});

test('recommend_tools latency by search mode over the 142-tool catalog (reported, no goal)', async ({ bench, annotate }) => {
  const { createMockLLM } = await import('../src/transports/mock-llm.ts');
  const { createOpenAIRankingLLM } = await import('../src/proxy/llm.ts');
  const { recommendTools } = await import('../src/proxy/recommend.ts');
  const catalogData = loadEvalCatalog(DEFAULT_CATALOG_DIR);
  const db = openStore(':memory:');
  const catalog = new ToolCatalog(db);
  const byServer = new Map<string, ToolDefinition[]>();
  for (const t of catalogData.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  for (const [server, defs] of byServer) catalog.apply(server, defs);
  const embedder = mockEmbedder();
  const search = new ToolSearch(catalog, { embedder, store: new EmbeddingStore(db, embedder.model, embedder.dimensions) });
  await search.sync();
  const mock = createMockLLM({ scenarios: [{ name: 'pick', steps: [{ match: { provider: 'openai' }, respond: { text: '[{"server":"git","tool":"git_commit"}]' }, consume: false }] }] });
  const llm = createOpenAIRankingLLM({ model: 'gpt-4o-mini', apiKey: 'bench', fetch: (input, init) => mock.handle(new Request(input, init)) });
  const deps = { catalog, search, metrics: new MetricsRecorder(db), llm, includeMetrics: true, isAvailable: () => true };
  const task = 'commit the staged changes with a message';
  const SEM = 'semantic';
  const HYB = 'hybrid (mock LLM re-ranks 20)';
  const LLM = 'llm (mock LLM sees all 142)';
  const results = await bench.compare(
    bench(SEM, async () => { await recommendTools(deps, task, { search_mode: 'semantic' }); }),
    bench(HYB, async () => { await recommendTools(deps, task, { search_mode: 'hybrid' }); }),
    bench(LLM, async () => { await recommendTools(deps, task, { search_mode: 'llm' }); }),
    { time: 1500 },
  );
  const p50 = (name: typeof SEM | typeof HYB | typeof LLM): number => results.get(name).latency.p50 ?? results.get(name).latency.mean;
  const line = `recommend_tools median: semantic ${p50(SEM).toFixed(2)} ms, hybrid ${p50(HYB).toFixed(2)} ms, llm ${p50(LLM).toFixed(2)} ms ` +
    '(the mock LLM answers at once: with a real model add its latency to hybrid and llm)';
  console.info(line);
  await annotate(line);
  db.close();
  // The seed's reason for a semantic first pass: it skips the LLM round trip.
  expect(p50(SEM)).toBeLessThan(p50(HYB));
});
