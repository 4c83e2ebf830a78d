/**
 * Fallback quality, measured: for every tool of a set built from real servers' tool lists
 * (fixtures/fallback), the alternatives `get_tool_alternatives` would offer, scored against labelled
 * same-job groups (precision, recall) and must-never pairs (cross-action and cross-object suggestions).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolCatalog, type CatalogInput } from './catalog.ts';
import { loadEvalCatalog, type EvalCatalog } from './eval.ts';
import { FallbackResolver } from './fallback.ts';
import { MetricsRecorder } from './metrics.ts';
import { ToolSearch } from './search.ts';
import { openStore } from './store.ts';

const NEVER_WHY = ['read/write', 'create/delete', 'start/stop', 'object'] as const;
const pairsFile = z.object({
  same_job: z.array(z.array(z.string()).min(2)),
  acceptable: z.array(z.tuple([z.string(), z.string()])).default([]),
  never: z.array(z.object({ pair: z.tuple([z.string(), z.string()]), why: z.enum(NEVER_WHY) })),
}).passthrough();

export interface FallbackSet {
  tools: EvalCatalog['tools'];
  /** Same-job groups: any member may stand in for any other. */
  sameJob: string[][];
  /** Pairs neither right nor wrong. */
  acceptable: Array<[string, string]>;
  never: Array<{ pair: [string, string]; why: (typeof NEVER_WHY)[number] }>;
}

/**
 * Loads `tools.json` (the catalog format) and `pairs.json` (the labels); every labelled tool must exist.
 * @example
 *   const set = loadFallbackSet('fixtures/fallback');
 */
export function loadFallbackSet(dir: string): FallbackSet {
  const file = join(dir, 'pairs.json');
  // tools.json in the catalog format; loadEvalCatalog wants a queries file, so an empty one stands in.
  const tools = loadEvalCatalog(dir, { queries: false }).tools;
  const parsed = pairsFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const ids = new Set(tools.map((t) => `${t.server}/${t.name}`));
  const check = (id: string, where: string): void => {
    if (!ids.has(id)) throw new Error(`${file}: ${where} names unknown tool ${id}`);
  };
  parsed.data.same_job.forEach((g, i) => g.forEach((id) => check(id, `same_job[${i}]`)));
  parsed.data.acceptable.forEach((p, i) => p.forEach((id) => check(id, `acceptable[${i}]`)));
  parsed.data.never.forEach((n, i) => n.pair.forEach((id) => check(id, `never[${i}].pair`)));
  return { tools, sameJob: parsed.data.same_job, acceptable: parsed.data.acceptable, never: parsed.data.never };
}

export interface FallbackScores {
  tools: number;
  suggestions: number;
  /** Suggestions of a labelled same-job tool over all suggestions (acceptable pairs left out of both). */
  precision: number;
  /** Labelled same-job pairs (both ways) suggested, over all of them. */
  recall: number;
  /** Suggestions of a must-never pair of another action (read/write, create/delete, start/stop). */
  crossAction: number;
  /** Suggestions of a must-never pair of another object. */
  crossObject: number;
  wrong: Array<{ tool: string; suggested: string; label: string }>;
  missed: Array<{ tool: string; expected: string }>;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
const key = (a: string, b: string): string => `${a} ${b}`;

/**
 * Asks for every tool's alternatives (at most `limit`, as `max_fallbacks`) over a fresh in-memory proxy
 * store, lexical search, no metrics, every server available.
 * @example
 *   const scores = await evaluateFallbacks(loadFallbackSet('fixtures/fallback'));
 */
export async function evaluateFallbacks(set: FallbackSet, options: { limit?: number; minSimilarity?: number } = {}): Promise<FallbackScores> {
  const limit = options.limit ?? 3;
  const db = openStore(':memory:');
  try {
    const catalog = new ToolCatalog(db);
    const byServer = new Map<string, CatalogInput[]>();
    for (const t of set.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
    for (const [server, list] of byServer) catalog.apply(server, list);
    const search = new ToolSearch(catalog);
    await search.sync();
    const resolver = new FallbackResolver(search, new MetricsRecorder(db), {
      maxFallbacks: limit, isAvailable: () => true, now: () => 0,
      ...(options.minSimilarity === undefined ? {} : { minSimilarity: () => options.minSimilarity as number }),
    });
    const same = new Set<string>();
    for (const g of set.sameJob) for (const a of g) for (const b of g) if (a !== b) same.add(key(a, b));
    const acceptable = new Set(set.acceptable.flatMap(([a, b]) => [key(a, b), key(b, a)]));
    const never = new Map(set.never.flatMap(({ pair: [a, b], why }) => [[key(a, b), why], [key(b, a), why]]));
    let suggestions = 0;
    let right = 0;
    let counted = 0;
    let crossAction = 0;
    let crossObject = 0;
    const found = new Set<string>();
    const wrong: FallbackScores['wrong'] = [];
    for (const t of set.tools) {
      const id = `${t.server}/${t.name}`;
      for (const s of await resolver.find(t.server, t.name, limit)) {
        const other = `${s.server}/${s.tool}`;
        const k = key(id, other);
        suggestions++;
        if (acceptable.has(k)) continue;
        counted++;
        if (same.has(k)) { right++; found.add(k); continue; }
        const why = never.get(k);
        if (why === 'object') crossObject++;
        else if (why) crossAction++;
        wrong.push({ tool: id, suggested: other, label: why ?? 'unlabelled' });
      }
    }
    const missed = [...same].filter((k) => !found.has(k)).map((k) => { const [tool, expected] = k.split(' '); return { tool, expected }; });
    return {
      tools: set.tools.length, suggestions, precision: counted ? round(right / counted) : 1, recall: same.size ? round(found.size / same.size) : 1,
      crossAction, crossObject, wrong, missed,
    };
  } finally {
    db.close();
  }
}
