/**
 * recommend_tools (seed Phase 3): `semantic` returns search results directly, `hybrid` searches
 * first and lets the LLM re-rank the short list, `llm` shows the LLM every tool. Reliability
 * (smoothed success rate) is factored into the ranking when metrics exist.
 */
import type { ToolCatalog } from './catalog.ts';
import { reliability } from './fallback.ts';
import { parsePicks, type RankingLLM } from './llm.ts';
import type { MetricsRecorder, ToolMetrics } from './metrics.ts';
import type { SearchHit, ToolSearch } from './search.ts';

export type SearchMode = 'semantic' | 'hybrid' | 'llm';

export interface Recommendation {
  server: string;
  tool: string;
  description: string;
  similarity?: number;
  score: number;
  reason?: string;
  metrics?: { success_rate: number; avg_latency_ms: number; call_count: number };
}

export interface RecommendAnswer {
  search_mode: SearchMode;
  /** What actually ranked: semantic/lexical search, then the LLM or not. */
  ranking: string;
  notes: string[];
  recommendations: Recommendation[];
}

export interface RecommendDeps {
  catalog: ToolCatalog;
  search: ToolSearch;
  metrics: MetricsRecorder;
  llm?: RankingLLM;
  includeMetrics: boolean;
  isAvailable: (server: string) => boolean;
}

const SHORT_LIST = 20;
const SYSTEM = 'You pick the tools best suited to a task. Answer only with JSON: {"recommendations":[{"server":"...","tool":"...","reason":"..."}]}, best first. Use only tools from the list.';

/** Weight of reliability in the score: a tool that always fails keeps 70 % of its similarity. */
const reliabilityFactor = (m: ToolMetrics | undefined): number => (m && m.call_count > 0 ? 0.7 + 0.3 * reliability(m) : 1);

/**
 * Recommends tools for a task.
 * @example
 *   await recommendTools(deps, 'find files mentioning TODO', { search_mode: 'semantic', top_k: 3 });
 */
export async function recommendTools(deps: RecommendDeps, task: string, options: { search_mode: SearchMode; top_k?: number; server?: string }): Promise<RecommendAnswer> {
  const k = options.top_k ?? 3;
  const notes: string[] = [];
  const metrics = new Map(deps.metrics.get().map((m) => [`${m.server}/${m.tool}`, m]));
  const allow = (server: string): boolean => deps.isAvailable(server);
  const decorate = (hit: SearchHit, score: number, reason?: string): Recommendation => {
    const m = metrics.get(`${hit.server}/${hit.tool}`);
    return {
      ...hit, score: Math.round(score * 10_000) / 10_000, reason,
      ...(deps.includeMetrics && m ? { metrics: { success_rate: m.success_rate, avg_latency_ms: Math.round(m.avg_latency_ms * 100) / 100, call_count: m.call_count } } : {}),
    };
  };
  const semanticRank = (hits: SearchHit[]): Recommendation[] => hits
    .map((h) => decorate(h, h.similarity * (deps.includeMetrics ? reliabilityFactor(metrics.get(`${h.server}/${h.tool}`)) : 1)))
    .sort((a, b) => b.score - a.score);

  let mode = options.search_mode;
  if (mode !== 'semantic' && !deps.llm) {
    notes.push(`search_mode "${mode}" needs an LLM (recommend_tools.llm) and none is configured: ranked by search alone.`);
    mode = 'semantic';
  }
  if (mode === 'semantic') {
    const answer = await deps.search.search(task, { top_k: Math.max(k * 3, 10), server: options.server, allow });
    if (answer.note) notes.push(answer.note);
    // Reliability may reorder; a destructive tool the task did not ask for still never leads.
    const ranked = deps.search.guard(task, semanticRank(answer.results));
    return { search_mode: options.search_mode, ranking: answer.mode, notes, recommendations: ranked.slice(0, k) };
  }

  let pool: SearchHit[];
  let ranking: string;
  if (mode === 'hybrid') {
    const answer = await deps.search.search(task, { top_k: SHORT_LIST, server: options.server, allow });
    if (answer.note) notes.push(answer.note);
    pool = answer.results;
    ranking = `${answer.mode}+llm`;
  } else {
    pool = deps.catalog.tools(options.server)
      .filter((t) => allow(t.server))
      .map((t) => ({ server: t.server, tool: t.name, description: t.description, similarity: 0 }));
    ranking = 'llm';
  }
  const lines = pool.map((h) => {
    const m = metrics.get(`${h.server}/${h.tool}`);
    const rel = deps.includeMetrics && m ? ` [success rate ${(m.success_rate * 100).toFixed(0)}% over ${m.call_count} calls]` : '';
    return `- ${h.server}/${h.tool}: ${h.description.replace(/\s+/g, ' ').slice(0, 300)}${rel}`;
  });
  let picks;
  try {
    const text = await (deps.llm as RankingLLM).complete({ system: SYSTEM, user: `Task: ${task}\n\nTools:\n${lines.join('\n')}\n\nPick up to ${k}.` });
    picks = parsePicks(text);
  } catch (err) {
    notes.push(`LLM ranking failed (${(err as Error).message}): ranked by search alone.`);
    return { search_mode: options.search_mode, ranking: ranking.replace('+llm', '').replace(/^llm$/, 'none'), notes, recommendations: deps.search.guard(task, semanticRank(pool)).slice(0, k) };
  }
  const known = new Map(pool.map((h) => [`${h.server}/${h.tool}`, h]));
  const out: Recommendation[] = [];
  for (const pick of picks) {
    const hit = known.get(`${pick.server}/${pick.tool}`);
    if (!hit || out.some((r) => r.server === hit.server && r.tool === hit.tool)) continue;
    // The LLM's order is the ranking; reliability still breaks near-ties.
    const score = (1 - out.length / (picks.length + 1)) * reliabilityFactor(metrics.get(`${hit.server}/${hit.tool}`));
    out.push(decorate(hit, score, pick.reason));
  }
  if (picks.length && out.length < picks.length) notes.push('The LLM named tools not in the list; they were left out.');
  if (out.length === 0) {
    notes.push('The LLM answer held no usable recommendation: ranked by search alone.');
    return { search_mode: options.search_mode, ranking: ranking.replace('+llm', ''), notes, recommendations: deps.search.guard(task, semanticRank(pool)).slice(0, k) };
  }
  // The LLM's first pick is guarded too: a destructive tool the task did not ask for never leads.
  return { search_mode: options.search_mode, ranking, notes, recommendations: deps.search.guard(task, out.sort((a, b) => b.score - a.score)).slice(0, k) };
}
