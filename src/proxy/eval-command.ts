/**
 * `ghostwire proxy eval`: recall@k, MRR and destructive-first picks per search mode and query class, and
 * fallback alternatives' precision, recall and cross-action/cross-object suggestions over fixtures/fallback, fixtures/fallback-heldout, fixtures/fallback-heldout-2 and fixtures/fallback-heldout-3,
 * over fixtures/catalog, fixtures/catalog-large, fixtures/catalog-heldout, catalog-heldout-2, catalog-heldout-3, catalog-heldout-4, catalog-heldout-5 and catalog-heldout-6 (or one --catalog directory). Semantic search uses
 * the embeddings API named by OPENAI_API_KEY/OPENAI_BASE_URL when set, else ghostwire's own mock LLM
 * (deterministic hashed word, subword, lexicon and WordNet features, in-process, no network) — the figures say which.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createMockLLM } from '../transports/mock-llm.ts';
import { createOpenAIEmbedder, type Embedder } from './embeddings.ts';
import { evaluateMode, loadEvalCatalog, type EvalResult, type EvalScores } from './eval.ts';
import { evaluateFallbacks, loadFallbackSet, type FallbackScores } from './fallback-eval.ts';
import { createOpenAIRankingLLM, type RankingLLM } from './llm.ts';

// The eval sets ship at the package root (package.json `files`), found through the package's own name:
// the same path from src/ in the repository and from dist/src/ in an installed package.
const PACKAGE_ROOT = dirname(createRequire(import.meta.url).resolve('ghostwire/package.json'));
export const DEFAULT_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog');
/** 447 tools listed from 28 real MCP servers, 212 queries labelled by class. */
export const LARGE_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-large');
/** 371 tools listed from 12 other MCP servers, 204 queries written without looking at the ranker (since used in its development). */
export const HELDOUT_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-heldout');
/** 419 tools listed from 16 more MCP servers, 193 queries written blind (measured blind once, then used in development). */
export const HELDOUT_2_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-heldout-2');
/** 393 tools listed from 9 more MCP servers, 176 queries written blind (measured blind once, then used in development). */
export const HELDOUT_3_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-heldout-3');
/** 383 tools listed from 11 more MCP servers, 209 queries written blind (measured blind once, then used in development). */
export const HELDOUT_4_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-heldout-4');
/** 480 tools listed from 13 more MCP servers, 240 queries written blind (measured blind once, then used in development). */
export const HELDOUT_5_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-heldout-5');
/** 259 tools listed from 6 more MCP servers, 100 queries with issue 28's blind cases (measured blind once). */
export const HELDOUT_6_CATALOG_DIR = join(PACKAGE_ROOT, 'fixtures/catalog-heldout-6');

/** 163 tools of 12 real MCP servers (filesystem and everything listed live), labelled same-job and must-never pairs. */
export const FALLBACK_SET_DIR = join(PACKAGE_ROOT, 'fixtures/fallback');
/** 189 tools of 12 other real MCP servers (from the held-out search sets), labelled before anything ran on them. */
export const FALLBACK_HELDOUT_DIR = join(PACKAGE_ROOT, 'fixtures/fallback-heldout');
/** 226 tools of 14 more real MCP servers (trackers, calendars, email, notes, SQL, search indexes), labelled blind. */
export const FALLBACK_HELDOUT_2_DIR = join(PACKAGE_ROOT, 'fixtures/fallback-heldout-2');
/** 312 tools of 16 more real MCP servers (trackers, CRM, commerce, storage, containers, source control, weather, time), labelled blind. */
export const FALLBACK_HELDOUT_3_DIR = join(PACKAGE_ROOT, 'fixtures/fallback-heldout-3');

/** An embedder answering from an in-process mock LLM (feature-hashed vectors). */
export function mockEmbedder(dimensions = 1536): Embedder {
  const mock = createMockLLM();
  return createOpenAIEmbedder({
    model: 'text-embedding-3-small', dimensions, apiKey: 'mock', baseURL: 'https://api.openai.com/v1',
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => mock.handle(new Request(input, init))) as typeof fetch,
  });
}

function table(results: EvalResult[]): string {
  const row = (mode: string, s: EvalScores): string =>
    `| ${mode} | ${s.queries} | ${s.recall[1].toFixed(3)} | ${s.recall[3].toFixed(3)} | ${s.recall[5].toFixed(3)} | ${s.mrr.toFixed(3)} | ${s.destructiveFirst} |`;
  const rows = results.flatMap((r) => [row(r.mode, r), ...Object.entries(r.byClass).map(([c, s]) => row(`  ${c}`, s as EvalScores))]);
  return ['| mode / class | queries | recall@1 | recall@3 | recall@5 | MRR | destructive-first |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

function fallbackTable(f: FallbackScores): string {
  const lines = [
    '| suggestions | precision | recall | cross-action | cross-object |', '| --- | --- | --- | --- | --- |',
    `| ${f.suggestions} | ${f.precision.toFixed(3)} | ${f.recall.toFixed(3)} | ${f.crossAction} | ${f.crossObject} |`,
  ];
  for (const w of f.wrong) lines.push(`wrong: ${w.tool} -> ${w.suggested} (${w.label})`);
  for (const m of f.missed) lines.push(`missed: ${m.tool} -> ${m.expected}`);
  return lines.join('\n');
}

/**
 * Runs the evaluation and prints a table (or JSON).
 * @example
 *   await runEvalCommand({ modes: 'lexical,semantic' });
 */
export async function runEvalCommand(options: { catalogDir?: string; json?: boolean; modes?: string; env?: Record<string, string | undefined> }): Promise<number> {
  const env = options.env ?? process.env;
  try {
    const all = options.catalogDir ? [options.catalogDir] : [DEFAULT_CATALOG_DIR, LARGE_CATALOG_DIR, HELDOUT_CATALOG_DIR, HELDOUT_2_CATALOG_DIR, HELDOUT_3_CATALOG_DIR, HELDOUT_4_CATALOG_DIR, HELDOUT_5_CATALOG_DIR, HELDOUT_6_CATALOG_DIR, FALLBACK_SET_DIR, FALLBACK_HELDOUT_DIR, FALLBACK_HELDOUT_2_DIR, FALLBACK_HELDOUT_3_DIR];
    // A directory with pairs.json is a fallback set (labelled tool pairs), else a query set.
    const fallbackDirs = all.filter((d) => existsSync(join(d, 'pairs.json')));
    const dirs = all.filter((d) => !fallbackDirs.includes(d));
    const real = !!env.OPENAI_API_KEY || !!env.OPENAI_BASE_URL;
    const embedder = real
      ? createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 1536, apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL })
      : mockEmbedder();
    const llm: RankingLLM | undefined = real ? createOpenAIRankingLLM({ model: env.GHOSTWIRE_RANKING_MODEL ?? 'gpt-4o-mini', apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL }) : undefined;
    const modes = (options.modes ?? (llm ? 'lexical,semantic,hybrid,llm' : 'lexical,semantic')).split(',').map((m) => m.trim());
    for (const mode of modes) {
      if (!['lexical', 'semantic', 'hybrid', 'llm'].includes(mode)) throw new Error(`--mode: unknown search mode "${mode}" (expected lexical, semantic, hybrid, llm)`);
      if ((mode === 'hybrid' || mode === 'llm') && !llm) throw new Error(`mode ${mode} needs a real LLM: set OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible endpoint)`);
    }
    const sets: Array<{ catalog: string; tools: number; queries: number; results: EvalResult[] }> = [];
    for (const dir of dirs) {
      const catalog = loadEvalCatalog(dir);
      const results: EvalResult[] = [];
      for (const mode of modes) results.push(await evaluateMode(catalog, mode as 'lexical', { embedder, llm }));
      sets.push({ catalog: dir, tools: catalog.tools.length, queries: catalog.queries.length, results });
    }
    // Fallbacks are measured with lexical search, the default (no embeddings configured).
    const fallbacks: Array<FallbackScores & { catalog: string }> = [];
    for (const dir of fallbackDirs) fallbacks.push({ catalog: dir, ...(await evaluateFallbacks(loadFallbackSet(dir))) });
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ embeddings: real ? 'api' : 'mock', sets, fallbacks }, null, 2)}\n`);
    } else {
      const source = real ? 'OpenAI-compatible API' : 'ghostwire mock LLM (hashed words, subwords, software-lexicon and WordNet related words; not a language model)';
      for (const set of sets) {
        process.stdout.write(`${set.catalog}: ${set.tools} tools, ${set.queries} queries; embeddings: ${source}\n\n${table(set.results)}\n\n`);
      }
      for (const f of fallbacks) process.stdout.write(`${f.catalog}: ${f.tools} tools; fallback alternatives (lexical, at most 3 per tool)\n\n${fallbackTable(f)}\n\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`ghostwire proxy eval: ${(err as Error).message}\n`);
    return 1;
  }
}
