/**
 * Where the fallback similarity threshold comes from: tool-to-tool similarity (what fallbacks rank by),
 * measured over the fallback set (fixtures/fallback: real servers' tools with labelled same-job groups)
 * for the pairs the same-job rule (search/same-job.ts) lets through. Labelled same-job pairs are
 * alternatives, acceptable pairs are left out, every other pair counts as unrelated. The threshold is the
 * one (in hundredths) with the best F1 at telling the two apart (the highest of equals).
 */
import type { FallbackSet } from './fallback-eval.ts';
import { ToolCatalog, type CatalogInput } from './catalog.ts';
import { FallbackResolver } from './fallback.ts';
import { MetricsRecorder } from './metrics.ts';
import { ToolSearch } from './search.ts';
import { openStore } from './store.ts';

/** Lexical (BM25) similarity a fallback needs: calibrateFallbackThreshold() on fixtures/fallback (its test keeps this true). */
export const LEXICAL_FALLBACK_MIN_SIMILARITY = 0.03;
/**
 * Embedding (cosine) similarity a fallback needs. Not measured here (that needs an embeddings API):
 * a conservative value for OpenAI's text-embedding-3 models, where unrelated short texts mostly score below it.
 */
export const SEMANTIC_FALLBACK_MIN_SIMILARITY = 0.5;

export interface Calibration {
  threshold: number;
  /** Share of alternative pairs at or above the threshold. */
  recall: number;
  /** Share of the pairs at or above it that are alternatives. */
  precision: number;
  f1: number;
  alternatives: number;
  unrelated: number;
}

/**
 * Measures lexical tool-to-tool similarity of same-job candidates over a fallback set and picks the best-F1 threshold.
 * @example
 *   const { threshold } = await calibrateFallbackThreshold(loadFallbackSet('fixtures/fallback'));
 */
export async function calibrateFallbackThreshold(set: FallbackSet): Promise<Calibration> {
  const db = openStore(':memory:');
  try {
    const tools = new ToolCatalog(db);
    const byServer = new Map<string, CatalogInput[]>();
    for (const t of set.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
    for (const [server, list] of byServer) tools.apply(server, list);
    const search = new ToolSearch(tools);
    await search.sync();
    const resolver = new FallbackResolver(search, new MetricsRecorder(db), { maxFallbacks: set.tools.length, isAvailable: () => true, now: () => 0, minSimilarity: () => 0 });
    const same = new Set<string>();
    for (const g of set.sameJob) for (const a of g) for (const b of g) if (a !== b) same.add(`${a} ${b}`);
    const acceptable = new Set(set.acceptable.flatMap(([a, b]) => [`${a} ${b}`, `${b} ${a}`]));
    const alternatives: number[] = [];
    const unrelated: number[] = [];
    for (const t of set.tools) {
      for (const s of await resolver.find(t.server, t.name)) {
        const pair = `${t.server}/${t.name} ${s.server}/${s.tool}`;
        if (!acceptable.has(pair)) (same.has(pair) ? alternatives : unrelated).push(s.similarity);
      }
    }
    let best: Calibration = { threshold: 1, recall: 0, precision: 0, f1: 0, alternatives: alternatives.length, unrelated: unrelated.length };
    for (let hundredths = 1; hundredths <= 100; hundredths++) {
      const threshold = hundredths / 100;
      const tp = alternatives.filter((s) => s >= threshold).length;
      const fp = unrelated.filter((s) => s >= threshold).length;
      const precision = tp + fp ? tp / (tp + fp) : 0;
      const recall = same.size ? tp / same.size : 0;
      const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
      // Ties go to the stricter threshold: the same measured F1 with fewer suggestions nobody labelled.
      if (f1 >= best.f1 && f1 > 0) best = { ...best, threshold, recall, precision, f1 };
    }
    return best;
  } finally {
    db.close();
  }
}
