/**
 * Search quality, measured: recall@k and MRR of a search mode over a catalog of real tool
 * descriptions (fixtures/catalog) and tasks with the tools that answer them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolCatalog, type CatalogInput } from './catalog.ts';
import type { Embedder } from './embeddings.ts';
import { EmbeddingStore } from './embeddings.ts';
import { isDestructive, toolActions } from './search/actions.ts';
import type { RankingLLM } from './llm.ts';
import { MetricsRecorder } from './metrics.ts';
import { recommendTools, type SearchMode } from './recommend.ts';
import { ToolSearch } from './search.ts';
import { openStore } from './store.ts';

const paramSpec = z.string().regex(/^(string|number|integer|boolean|array|object): /, 'expected "type: description"');
const hintsSpec = z.object({ readOnlyHint: z.boolean().optional(), destructiveHint: z.boolean().optional(), idempotentHint: z.boolean().optional(), openWorldHint: z.boolean().optional() }).strict();
const toolsFile = z.object({
  servers: z.record(z.string(), z.array(z.object({ name: z.string(), description: z.string(), params: z.record(z.string(), paramSpec), annotations: hintsSpec.optional() }))),
});
/** direct: worded with the tools' own words; synonym: without them; destructive-check: a destructive twin is in the catalog. */
export const QUERY_CLASSES = ['direct', 'synonym', 'destructive-check'] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];
const queriesFile = z.object({ queries: z.array(z.object({ query: z.string().min(1), expected: z.array(z.string()).min(1), class: z.enum(QUERY_CLASSES).optional() })) });

export interface EvalCatalog {
  tools: Array<CatalogInput & { server: string }>;
  queries: Array<{ query: string; expected: string[]; class?: QueryClass }>;
}

function readJson<T>(file: string, schema: z.ZodType<T>): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(`${file}: no such file (an eval set is a directory holding tools.json and queries.json; pass one with --catalog)`);
  }
  const result = schema.safeParse(JSON.parse(text));
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
export function loadEvalCatalog(dir: string, options: { queries?: boolean } = {}): EvalCatalog {
  const tools = readJson(join(dir, 'tools.json'), toolsFile);
  // A set of tools alone (the fallback set labels pairs, not queries) has no queries.json.
  const { queries } = options.queries === false ? { queries: [] } : readJson(join(dir, 'queries.json'), queriesFile);
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
      out.push({ server, name: t.name, description: t.description, inputSchema: { type: 'object', properties, required }, ...(t.annotations ? { annotations: t.annotations } : {}) });
    }
  }
  const ids = new Set(out.map((t) => `${t.server}/${t.name}`));
  for (const q of queries) {
    for (const e of q.expected) if (!ids.has(e)) throw new Error(`${join(dir, 'queries.json')}: query "${q.query}" expects unknown tool ${e}`);
  }
  return { tools: out, queries };
}

export interface EvalScores {
  queries: number;
  recall: Record<number, number>;
  mrr: number;
  /** Queries whose first pick is a destructive tool they did not ask for. */
  destructiveFirst: number;
}

export interface EvalResult extends EvalScores {
  mode: string;
  /** The same scores per query class (queries without a class count as direct). */
  byClass: Partial<Record<QueryClass, EvalScores>>;
  misses: Array<{ query: string; expected: string[]; got: string[] }>;
  /** The queries counted in destructiveFirst, with their first pick. */
  destructiveFirstPicks: Array<{ query: string; got: string }>;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Tools that may destroy data, by annotation or by a deleting verb in the name. */
export function destructiveTools(catalog: EvalCatalog): Set<string> {
  return new Set(catalog.tools.filter((t) => isDestructive(toolActions(t.name, t.description ?? ''), t.annotations)).map((t) => `${t.server}/${t.name}`));
}

/**
 * Scores a ranking function: recall@k (any expected tool in the top k), mean reciprocal rank, and
 * destructive-first picks (a destructive tool ranked first that the query did not expect), overall and per class.
 */
export async function scoreRanking(mode: string, catalog: EvalCatalog, rank: (query: string) => Promise<string[]>, ks: number[] = [1, 3, 5]): Promise<EvalResult> {
  const destructive = destructiveTools(catalog);
  const tally = new Map<QueryClass | 'all', { n: number; hits: Record<number, number>; rr: number; df: number }>();
  const bump = (key: QueryClass | 'all', position: number, df: boolean): void => {
    let t = tally.get(key);
    if (!t) { t = { n: 0, hits: Object.fromEntries(ks.map((k) => [k, 0])), rr: 0, df: 0 }; tally.set(key, t); }
    t.n++;
    for (const k of ks) if (position >= 0 && position < k) t.hits[k]++;
    if (position >= 0) t.rr += 1 / (position + 1);
    if (df) t.df++;
  };
  const misses: EvalResult['misses'] = [];
  const destructiveFirstPicks: EvalResult['destructiveFirstPicks'] = [];
  for (const q of catalog.queries) {
    const got = await rank(q.query);
    const position = got.findIndex((id) => q.expected.includes(id));
    const df = got.length > 0 && destructive.has(got[0]) && !q.expected.includes(got[0]);
    if (df) destructiveFirstPicks.push({ query: q.query, got: got[0] });
    bump('all', position, df);
    bump(q.class ?? 'direct', position, df);
    if (position < 0 || position >= Math.max(...ks)) misses.push({ query: q.query, expected: q.expected, got: got.slice(0, 3) });
  }
  const scores = (key: QueryClass | 'all'): EvalScores => {
    const t = tally.get(key) ?? { n: 0, hits: {}, rr: 0, df: 0 };
    return {
      queries: t.n, mrr: t.n ? round(t.rr / t.n) : 0, destructiveFirst: t.df,
      recall: Object.fromEntries(ks.map((k) => [k, t.n ? round((t.hits[k] ?? 0) / t.n) : 0])) as Record<number, number>,
    };
  };
  const byClass: EvalResult['byClass'] = {};
  for (const c of QUERY_CLASSES) if (tally.has(c)) byClass[c] = scores(c);
  return { mode, ...scores('all'), byClass, misses, destructiveFirstPicks };
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
    const byServer = new Map<string, CatalogInput[]>();
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
