/**
 * Where the fallback similarity threshold comes from: tool-to-tool similarity (what fallbacks use)
 * measured over the catalog eval (fixtures/catalog). Tools expected together for one task are
 * alternatives; every other pair counts as unrelated. The threshold is the one (in hundredths)
 * with the best F1 at telling the two apart.
 */
import { ToolCatalog } from './catalog.ts';
import type { EvalCatalog } from './eval.ts';
import type { ToolDefinition } from './hashing.ts';
import { ToolSearch } from './search.ts';
import { openStore } from './store.ts';

/** Lexical (BM25) similarity a fallback needs: calibrate() on fixtures/catalog (its test keeps this true). */
export const LEXICAL_FALLBACK_MIN_SIMILARITY = 0.42;
/**
 * Embedding (cosine) similarity a fallback needs. Not measured here (that needs an embeddings API):
 * a conservative value for OpenAI's text-embedding-3 models, where unrelated short texts mostly score below it.
 */
export const SEMANTIC_FALLBACK_MIN_SIMILARITY = 0.5;

export interface Calibration {
  threshold: number;
  /** Share of alternative pairs at or above the threshold. */
  recall: number;
  /** Share of unrelated pairs at or above it. */
  falsePositiveRate: number;
  f1: number;
  alternatives: number;
  unrelated: number;
}

/**
 * Measures lexical tool-to-tool similarity over a catalog and picks the best-F1 threshold.
 * @example
 *   const { threshold } = await calibrateFallbackThreshold(loadEvalCatalog('fixtures/catalog'));
 */
export async function calibrateFallbackThreshold(catalog: EvalCatalog): Promise<Calibration> {
  const db = openStore(':memory:');
  try {
    const tools = new ToolCatalog(db);
    const byServer = new Map<string, ToolDefinition[]>();
    for (const t of catalog.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
    for (const [server, list] of byServer) tools.apply(server, list);
    const search = new ToolSearch(tools);
    await search.sync();
    const pairs = new Set<string>();
    for (const q of catalog.queries) for (const a of q.expected) for (const b of q.expected) if (a !== b) pairs.add(`${a} ${b}`);
    const alternatives: number[] = [];
    const unrelated: number[] = [];
    for (const t of catalog.tools) {
      for (const hit of await search.similarTo(t.server, t.name, catalog.tools.length)) {
        (pairs.has(`${t.server}/${t.name} ${hit.server}/${hit.tool}`) ? alternatives : unrelated).push(hit.similarity);
      }
    }
    let best: Calibration = { threshold: 1, recall: 0, falsePositiveRate: 0, f1: 0, alternatives: alternatives.length, unrelated: unrelated.length };
    for (let hundredths = 1; hundredths <= 100; hundredths++) {
      const threshold = hundredths / 100;
      const tp = alternatives.filter((s) => s >= threshold).length;
      const fp = unrelated.filter((s) => s >= threshold).length;
      const precision = tp + fp ? tp / (tp + fp) : 0;
      const recall = alternatives.length ? tp / alternatives.length : 0;
      const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
      if (f1 > best.f1) best = { ...best, threshold, recall, falsePositiveRate: unrelated.length ? fp / unrelated.length : 0, f1 };
    }
    return best;
  } finally {
    db.close();
  }
}
