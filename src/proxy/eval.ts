/**
 * Search quality, measured: recall@k and MRR of a search mode over a catalog of real tool
 * descriptions (fixtures/catalog) and tasks with the tools that answer them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolCatalog } from './catalog.ts';
import type { Embedder } from './embeddings.ts';
import { EmbeddingStore } from './embeddings.ts';
import type { ToolDefinition } from './hashing.ts';
import type { RankingLLM } from './llm.ts';
import { MetricsRecorder } from './metrics.ts';
import { recommendTools, type SearchMode } from './recommend.ts';
import { ToolSearch } from './search.ts';
import { openStore } from './store.ts';

const paramSpec = z.string().regex(/^(string|number|integer|boolean|array|object): /, 'expected "type: description"');
const toolsFile = z.object({
  servers: z.record(z.string(), z.array(z.object({ name: z.string(), description: z.string(), params: z.record(z.string(), paramSpec) }))),
});
const queriesFile = z.object({ queries: z.array(z.object({ query: z.string().min(1), expected: z.array(z.string()).min(1) })) });

export interface EvalCatalog {
  tools: Array<ToolDefinition & { server: string }>;
  queries: Array<{ query: string; expected: string[] }>;
}

function readJson<T>(file: string, schema: z.ZodType<T>): T {
  const result = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!result.success) {
    throw new Error(`${file}: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return result.data;
}

/**
 * Loads `tools.json` and `queries.json`; params become JSON Schema properties.
 * @example
 *   const catalog = loadEvalCatalog('fixtures/catalog');
 */
export function loadEvalCatalog(dir: string): EvalCatalog {
  const tools = readJson(join(dir, 'tools.json'), toolsFile);
  const { queries } = readJson(join(dir, 'queries.json'), queriesFile);
  const out: EvalCatalog['tools'] = [];
  for (const [server, list] of Object.entries(tools.servers)) {
    for (const t of list) {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [raw, spec] of Object.entries(t.params)) {
        const name = raw.replace(/\?$/, '');
        const [type, ...rest] = spec.split(': ');
        properties[name] = { type, description: rest.join(': ') };
        if (!raw.endsWith('?')) required.push(name);
      }
      out.push({ server, name: t.name, description: t.description, inputSchema: { type: 'object', properties, required } });
    }
  }
  const ids = new Set(out.map((t) => `${t.server}/${t.name}`));
  for (const q of queries) {
    for (const e of q.expected) if (!ids.has(e)) throw new Error(`${join(dir, 'queries.json')}: query "${q.query}" expects unknown tool ${e}`);
  }
  return { tools: out, queries };
}

export interface EvalResult {
  mode: string;
  queries: number;
  recall: Record<number, number>;
  mrr: number;
  misses: Array<{ query: string; expected: string[]; got: string[] }>;
}

/** Scores a ranking function: recall@k (any expected tool in the top k) and mean reciprocal rank. */
export async function scoreRanking(mode: string, catalog: EvalCatalog, rank: (query: string) => Promise<string[]>, ks: number[] = [1, 3, 5]): Promise<EvalResult> {
  const hits = Object.fromEntries(ks.map((k) => [k, 0])) as Record<number, number>;
  let rr = 0;
  const misses: EvalResult['misses'] = [];
  for (const q of catalog.queries) {
    const got = await rank(q.query);
    const position = got.findIndex((id) => q.expected.includes(id));
    for (const k of ks) if (position >= 0 && position < k) hits[k]++;
    if (position >= 0) rr += 1 / (position + 1);
    if (position < 0 || position >= Math.max(...ks)) misses.push({ query: q.query, expected: q.expected, got: got.slice(0, 3) });
  }
  const n = catalog.queries.length;
  return {
    mode, queries: n, mrr: Math.round((rr / n) * 1000) / 1000, misses,
    recall: Object.fromEntries(ks.map((k) => [k, Math.round((hits[k] / n) * 1000) / 1000])) as Record<number, number>,
  };
}

/**
 * Runs the evaluation for one mode over an in-memory store.
 * `lexical` needs nothing; `semantic` needs an embedder; `hybrid` and `llm` also need an LLM.
 * @example
 *   const result = await evaluateMode(loadEvalCatalog('fixtures/catalog'), 'lexical');
 */
export async function evaluateMode(catalog: EvalCatalog, mode: 'lexical' | SearchMode, deps: { embedder?: Embedder; llm?: RankingLLM } = {}): Promise<EvalResult> {
  const db = openStore(':memory:');
  try {
    const tools = new ToolCatalog(db);
    const byServer = new Map<string, ToolDefinition[]>();
    for (const t of catalog.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
    for (const [server, list] of byServer) tools.apply(server, list);
    const embedder = mode === 'lexical' ? undefined : deps.embedder;
    if (mode !== 'lexical' && !embedder) throw new Error(`mode ${mode} needs an embeddings API`);
    if ((mode === 'hybrid' || mode === 'llm') && !deps.llm) throw new Error(`mode ${mode} needs an LLM`);
    const search = new ToolSearch(tools, embedder ? { embedder, store: new EmbeddingStore(db, embedder.model, embedder.dimensions) } : undefined);
    await search.sync();
    const metrics = new MetricsRecorder(db);
    const rank = async (query: string): Promise<string[]> => {
      if (mode === 'lexical' || mode === 'semantic') {
        return (await search.search(query, { top_k: 10 })).results.map((r) => `${r.server}/${r.tool}`);
      }
      const answer = await recommendTools({ catalog: tools, search, metrics, llm: deps.llm, includeMetrics: false, isAvailable: () => true }, query, { search_mode: mode, top_k: 5 });
      return answer.recommendations.map((r) => `${r.server}/${r.tool}`);
    };
    return await scoreRanking(mode === 'semantic' ? `semantic (${embedder?.model})` : mode, catalog, rank);
  } finally {
    db.close();
  }
}
