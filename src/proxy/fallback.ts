/**
 * Self-healing (seed Phase 4): when a tool fails, tools that do the same job (./search/same-job.ts: the
 * same action on the same kind of object) ranked by similarity × success rate × recency, leaving out tools
 * that keep failing, tools below the calibrated similarity threshold (fallback-calibration.ts), tools the
 * failure rules out (./failure-scope.ts: a denied or not-found call is not fixed on the same server) and —
 * for a failed call — tools that do not declare every argument the call passed.
 */
import { ArgumentValidator } from '../mcp/index.ts';
import type { CatalogTool } from './catalog.ts';
import { LEXICAL_FALLBACK_MIN_SIMILARITY, SEMANTIC_FALLBACK_MIN_SIMILARITY } from './fallback-calibration.ts';
import type { MetricsRecorder, ToolMetrics } from './metrics.ts';
import { toolId } from './embeddings.ts';
import { parameterNames } from './hashing.ts';
import type { ToolSearch } from './search.ts';
import { familyWords, JobReader, type JobTool } from './search/same-job.ts';
import { centralObjects, type CentralObjects } from './search/central-objects.ts';
import { serverKinds, type ServerKinds } from './search/server-kinds.ts';

export interface FallbackSuggestion {
  server: string;
  tool: string;
  similarity: number;
  /** Observed success rate; null when the tool was never called. */
  success_rate: number | null;
  score: number;
  reason: string;
}

const DAY_MS = 86_400_000;
const SAME_SERVER_BONUS = 1.1;

/** Where suggestions may come from: any server, or only servers other than the failed tool's. */
export type FallbackScope = 'any' | 'elsewhere';

/** Laplace-smoothed success rate: an unknown tool counts as a coin flip leaning to success. */
export function reliability(m: ToolMetrics | undefined): number {
  if (!m || m.call_count === 0) return 0.75;
  return (m.success_count + 1) / (m.call_count + 2);
}

/** 1 for a success just now, decaying toward 0.5 over weeks; 0.75 when never called. */
export function recency(m: ToolMetrics | undefined, now: number): number {
  if (!m || m.call_count === 0) return 0.75;
  if (!m.last_success_at) return 0.5;
  const ageDays = (now - Date.parse(m.last_success_at)) / DAY_MS;
  return 0.5 + 0.5 * Math.exp(-Math.max(0, ageDays) / 7);
}

/** A JSON Schema object's required property names. */
function requiredNames(schema: Record<string, unknown>): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : [];
}

export interface FallbackOptions {
  maxFallbacks: number;
  /** Servers whose breaker is open are never suggested. */
  isAvailable: (server: string) => boolean;
  now: () => number;
  /** Similarity a suggestion needs, for the search mode in use; default the calibrated values. */
  minSimilarity?: (mode: 'semantic' | 'lexical') => number;
  /** A tool's input schema, to check it would accept a failed call's arguments (unknown: it would not). */
  schemaOf?: (server: string, tool: string) => Record<string, unknown> | undefined;
  validator?: ArgumentValidator;
}

interface CatalogView {
  all: CatalogTool[];
  jobTools: Map<CatalogTool, JobTool>;
  kinds: ServerKinds;
  central: CentralObjects;
}

const calibrated = (mode: 'semantic' | 'lexical'): number => (mode === 'lexical' ? LEXICAL_FALLBACK_MIN_SIMILARITY : SEMANTIC_FALLBACK_MIN_SIMILARITY);

/**
 * Whether `args` fit a tool's input schema under its own declared properties: every argument named in
 * `properties` (not let through by `additionalProperties`), and the schema's checks passing.
 * @example
 *   acceptsArguments(validator, { type: 'object', properties: { path: { type: 'string' } } }, { path: 'a', content: 'x' }) // false
 */
export function acceptsArguments(validator: ArgumentValidator, schema: Record<string, unknown> | undefined, args: Record<string, unknown>): boolean {
  if (!schema) return false;
  const declared = schema.properties;
  const names = declared && typeof declared === 'object' ? Object.keys(declared) : [];
  if (Object.keys(args).some((key) => !names.includes(key))) return false;
  return validator.check(schema, args).length === 0;
}

/**
 * Suggests alternatives for a failed tool.
 * @example
 *   const resolver = new FallbackResolver(search, metrics, { maxFallbacks: 3, isAvailable: () => true, now: Date.now });
 *   await resolver.find('fs', 'read_file');
 */
export class FallbackResolver {
  private readonly search: ToolSearch;
  private readonly metrics: MetricsRecorder;
  private readonly options: FallbackOptions;
  private readonly validator: ArgumentValidator;
  private readonly jobs = new JobReader();
  #view: CatalogView | undefined;

  constructor(search: ToolSearch, metrics: MetricsRecorder, options: FallbackOptions) {
    this.search = search;
    this.metrics = metrics;
    this.options = options;
    this.validator = options.validator ?? new ArgumentValidator();
  }

  /**
   * What every tool's job and the servers' kinds are, for this catalog: read once per catalog state, not per
   * failed call (a catalog's unchanged tools keep their objects, so the same objects mean the same state).
   */
  #viewOf(all: CatalogTool[]): CatalogView {
    const last = this.#view;
    if (last && last.all.length === all.length && last.all.every((t, i) => t === all[i])) return last;
    const names = new Map<string, string[]>();
    for (const t of all) names.set(t.server, [...(names.get(t.server) ?? []), t.name]);
    const families = new Map([...names].map(([s, list]) => [s, familyWords(list)]));
    const jobTools = new Map<CatalogTool, JobTool>();
    for (const t of all) {
      jobTools.set(t, { server: t.server, name: t.name, description: t.description, params: parameterNames(t.inputSchema), required: requiredNames(t.inputSchema), annotations: t.annotations, family: families.get(t.server) });
    }
    const jobs = all.map((t) => ({ ...this.jobs.job(jobTools.get(t)!), server: t.server, name: t.name, description: t.description }));
    this.#view = { all, jobTools, kinds: serverKinds(jobs), central: centralObjects(jobs) };
    return this.#view;
  }

  /**
   * Alternatives to `server/tool`: tools doing the same job; with `args` (a failed call's), only tools that
   * would accept them; with scope 'elsewhere', only tools of other servers.
   */
  async find(server: string, tool: string, limit = this.options.maxFallbacks, args?: Record<string, unknown>, scope: FallbackScope = 'any'): Promise<FallbackSuggestion[]> {
    if (limit <= 0) return [];
    const self = this.search.catalog.get(server, tool);
    if (!self) return [];
    const { all, jobTools, kinds, central } = this.#viewOf(this.search.catalog.tools());
    const job = (t: CatalogTool): JobTool => jobTools.get(t)!;
    const source = job(self);
    // Only the same job: never a write for a read, a delete for a create, an issue for a pull request. Every
    // tool is weighed (a same-job tool of another server may share few words with this one's long
    // description), then only those are ranked by similarity.
    const same = new Set<string>();
    for (const t of all) {
      if (t.server === server && t.name === tool) continue;
      if (scope === 'elsewhere' && t.server === server) continue;
      // Another server's tool stands in only where the two servers are of one kind (a task tracker's label is
      // not a mailbox's): besides this, they act on another thing of the same name. Two products' central
      // objects may be one thing under two names (./search/central-objects.ts: Todoist's task, Plane's issue).
      if (t.server !== server && !kinds.alike(server, t.server)) continue;
      if (this.options.isAvailable(t.server) && this.jobs.differ(source, job(t), t.server !== server, { central: central.counterparts(server, t.server), kin: central.kin(server, t.server) }) === undefined) same.add(toolId(t.server, t.name));
    }
    if (same.size === 0) return [];
    const similar = await this.search.similarTo(server, tool, same.size, (id) => same.has(id));
    const min = (this.options.minSimilarity ?? calibrated)(this.search.mode);
    const byTool = new Map(this.metrics.get().map((m) => [`${m.server}/${m.tool}`, m]));
    const now = this.options.now();
    const out: FallbackSuggestion[] = [];
    for (const hit of similar) {
      if (hit.similarity <= 0 || hit.similarity < min || !this.options.isAvailable(hit.server)) continue;
      if (!same.has(toolId(hit.server, hit.tool))) continue;
      if (args && !acceptsArguments(this.validator, this.options.schemaOf?.(hit.server, hit.tool), args)) continue;
      const m = byTool.get(`${hit.server}/${hit.tool}`);
      // A tool that keeps failing is no alternative, however similar.
      if (m && m.call_count >= 3 && m.success_rate < 0.3) continue;
      const sameServer = hit.server === server;
      const score = hit.similarity * reliability(m) * recency(m, now) * (sameServer ? SAME_SERVER_BONUS : 1);
      const brief = hit.description.split(/(?<=\.)\s/)[0].slice(0, 120);
      out.push({
        server: hit.server,
        tool: hit.tool,
        similarity: hit.similarity,
        success_rate: m && m.call_count > 0 ? Math.round(m.success_rate * 1000) / 1000 : null,
        score: Math.round(score * 10_000) / 10_000,
        reason: `Same job${sameServer ? ' on the same server' : ` on ${hit.server}`}: ${brief}`,
      });
    }
    return out.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
