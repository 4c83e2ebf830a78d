/**
 * The proxy's core: downstream servers, catalog, metrics, search and fallbacks wired together.
 * Every MCP tool the proxy offers is one method here; mcp-server.ts only adapts them to MCP.
 */
import type { DatabaseSync } from 'node:sqlite';
import { ArgumentValidator } from '../mcp/index.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, LoggingLevel, ServerCapabilities, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from './breaker.ts';
import { callTool, CallError, type CallContext, type CallOptions } from './call-tool.ts';
import { ToolCatalog, type CatalogTool } from './catalog.ts';
import { defaultStorePath, type ProxyConfig } from './config.ts';
import { Downstream } from './downstream.ts';
import { EmbeddingStore, toolId, type Embedder } from './embeddings.ts';
import { FallbackResolver } from './fallback.ts';
import { LEXICAL_FALLBACK_MIN_SIMILARITY, SEMANTIC_FALLBACK_MIN_SIMILARITY } from './fallback-calibration.ts';
import type { RankingLLM } from './llm.ts';
import { MetricsRecorder, type MetricsFilter } from './metrics.ts';
import { recommendTools, type RecommendAnswer, type SearchMode } from './recommend.ts';
import { ToolSearch, type SearchAnswer } from './search.ts';
import { getMeta, openStore, setMeta } from './store.ts';
import { Passthrough, type DownstreamEvent, type PassthroughHost, type Reachable } from './passthrough.ts';

export interface ProxyDeps {
  clock?: Clock;
  /** Overrides the embeddings API from the config (null: force lexical search). */
  embedder?: Embedder | null;
  /** Overrides the ranking LLM from the config (null: none). */
  llm?: RankingLLM | null;
  /** Overrides mcp_client_proxy.store_path. */
  storePath?: string;
  /** Informational messages (tool changes, background failures). */
  log?: (message: string) => void;
}

/** A server search could not include, and why. */
export interface UnavailableServer {
  server: string;
  /** connecting (or backing off between attempts), failed, circuit_open. */
  state: string;
  last_error: string | null;
}

export interface RefreshReport {
  server: string;
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  embedded: number;
  error?: string;
  at: string;
}

const brief = (description: string): string => {
  const first = description.trim().split(/(?<=[.!?])\s/)[0] ?? '';
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
};

/**
 * The proxy without its MCP face.
 * @example
 *   const core = new ProxyCore(parseProxyConfig(json), { storePath: '/tmp/p.db' });
 *   await core.callTool('fs', 'read_file', { path: 'a.txt' });
 */
export class ProxyCore implements PassthroughHost {
  readonly config: ProxyConfig;
  readonly db: DatabaseSync;
  readonly metrics: MetricsRecorder;
  readonly catalog: ToolCatalog;
  readonly search: ToolSearch;
  readonly fallbacks: FallbackResolver;
  readonly llm?: RankingLLM;
  private readonly clock: Clock;
  private readonly log: (message: string) => void;
  private readonly servers = new Map<string, Downstream>();
  private readonly discovered = new Set<string>();
  private readonly refreshing = new Map<string, Promise<RefreshReport>>();
  private readonly lastRefresh = new Map<string, RefreshReport>();
  private readonly validator = new ArgumentValidator();
  /** Tool annotations as listed in this process (not persisted: unknown means "not known to be safe"). */
  private readonly annotations = new Map<string, ToolAnnotations | undefined>();
  private readonly callContext: CallContext;
  private logLevel?: LoggingLevel;
  private readonly eventListeners = new Set<(server: string, event: DownstreamEvent) => void>();
  /** Resources, prompts and completions of the downstream servers (passthrough.ts). */
  readonly passthrough: Passthrough = new Passthrough(this);
  private aggregateTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(config: ProxyConfig, deps: ProxyDeps & { embedder?: Embedder | null } = {}) {
    this.config = config;
    this.clock = deps.clock ?? systemClock;
    this.log = deps.log ?? (() => {});
    const now = () => this.clock.now();
    const opts = config.mcp_client_proxy;
    this.db = openStore(deps.storePath ?? opts.store_path ?? defaultStorePath());
    this.metrics = new MetricsRecorder(this.db, { retentionDays: opts.metrics_retention_days, now });
    this.catalog = new ToolCatalog(this.db, now);
    const embedder = deps.embedder ?? undefined;
    this.search = new ToolSearch(this.catalog, embedder
      ? { embedder, store: new EmbeddingStore(this.db, embedder.model, embedder.dimensions, now) } : undefined);
    this.llm = deps.llm ?? undefined;
    const isAvailable = (server: string): boolean => !this.servers.get(server)?.unavailable;
    const minSimilarity = config.recommend_tools.fallback_min_similarity;
    this.fallbacks = new FallbackResolver(this.search, this.metrics, {
      maxFallbacks: config.recommend_tools.max_fallbacks, isAvailable, now, validator: this.validator,
      minSimilarity: (mode) => minSimilarity ?? (mode === 'lexical' ? LEXICAL_FALLBACK_MIN_SIMILARITY : SEMANTIC_FALLBACK_MIN_SIMILARITY),
      schemaOf: (s, t) => this.catalog.get(s, t)?.inputSchema,
    });
    for (const [name, server] of Object.entries(config.mcpServers)) {
      if (server.disabled) continue;
      this.servers.set(name, new Downstream(name, server, {
        connectionTimeoutMs: opts.connection_timeout * 1000,
        maxRetries: opts.max_connection_retries,
        breakerThreshold: opts.circuit_breaker_threshold,
        breakerResetMs: opts.circuit_breaker_reset * 1000,
        clock: this.clock,
        onToolsChanged: (s) => {
          this.log(`server ${s} announced tools/list_changed: refreshing`);
          void this.refresh(s).then((r) => {
            // The proxy's clients re-list (list_tools, search) only when the index really changed.
            if (r.added.length || r.updated.length || r.removed.length) this.emit(s, { kind: 'tools-changed' });
          }, (err) => this.log(`refresh of ${s} failed: ${(err as Error).message}`));
        },
        onDisconnect: (s, reason) => this.log(`server ${s} disconnected: ${reason}`),
        onEvent: (s, event) => {
          if (event.kind === 'connected') this.rememberCapabilities(s, event.client);
          this.emit(s, event);
        },
        logLevel: () => this.logLevel,
      }));
    }
    this.callContext = {
      downstream: (s) => this.server(s),
      resolveTool: (s, t) => this.resolveTool(s, t),
      metrics: this.metrics,
      fallbacks: this.fallbacks,
      validator: this.validator,
      callTimeoutMs: opts.call_timeout * 1000,
      autoRetryFallback: config.recommend_tools.auto_retry_fallback,
      annotationsOf: (s, t) => this.annotations.get(`${s}/${t}`),
      autoRetryAllowed: new Set(config.recommend_tools.auto_retry_tools),
    };
  }

  /** Rolls up old metrics and starts preconnects (all servers when lazy_connect is off), in the background. */
  start(): void {
    this.metrics.aggregateIfDue();
    this.aggregateTimer = setInterval(() => this.metrics.aggregateIfDue(), 3_600_000);
    this.aggregateTimer.unref();
    const opts = this.config.mcp_client_proxy;
    const eager = opts.lazy_connect ? opts.preconnect_servers : [...this.servers.keys()];
    for (const name of eager) {
      void this.discover(name).catch((err) => this.log(`preconnect of ${name} failed: ${(err as Error).message}`));
    }
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  server(name: string): Downstream {
    const s = this.servers.get(name);
    if (!s) throw new CallError('unknown_server', `unknown server "${name}": expected one of ${this.serverNames().join(', ') || '(none configured)'}`);
    return s;
  }

  isAvailable(server: string): boolean {
    return !this.servers.get(server)?.unavailable;
  }

  /** Connects and indexes a server the first time it is used in this process. */
  async discover(server: string): Promise<void> {
    if (this.discovered.has(server)) {
      await this.server(server).ensureConnected();
      return;
    }
    await this.refresh(server);
  }

  /** Incremental refresh of one server: only changed tools are rewritten and re-embedded. */
  refresh(server: string, force = false): Promise<RefreshReport> {
    const running = this.refreshing.get(server);
    if (running && !force) return running;
    const job = (async (): Promise<RefreshReport> => {
      const tools = await this.server(server).listTools();
      for (const key of [...this.annotations.keys()]) if (key.startsWith(`${server}/`)) this.annotations.delete(key);
      for (const t of tools) this.annotations.set(`${server}/${t.name}`, t.annotations);
      const summary = this.catalog.apply(server, tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown>, annotations: t.annotations })), force);
      this.discovered.add(server);
      const changed = [...summary.added, ...summary.updated].map((n) => this.catalog.get(server, n)).filter((t): t is CatalogTool => !!t);
      const report: RefreshReport = {
        server, added: summary.added, updated: summary.updated, removed: summary.removed, unchanged: summary.unchanged.length,
        embedded: 0, at: new Date(this.clock.now()).toISOString(),
      };
      try {
        report.embedded = await this.search.sync(changed, force, summary.removed.map((n) => toolId(server, n)));
      } catch (err) {
        report.error = `embedding failed: ${(err as Error).message}`;
        this.search.invalidate();
      }
      if (report.added.length || report.updated.length || report.removed.length) {
        this.log(`tools of ${server}: +${report.added.length} added, ~${report.updated.length} updated, -${report.removed.length} removed, ${report.unchanged} unchanged`);
      }
      this.lastRefresh.set(server, report);
      return report;
    })().finally(() => this.refreshing.delete(server));
    this.refreshing.set(server, job);
    return job;
  }

  /** refresh_tools: one server or all; failures are reported per server. */
  async refreshTools(options: { server?: string; force?: boolean } = {}): Promise<{ results: RefreshReport[] }> {
    const names = options.server !== undefined ? [this.server(options.server).name] : this.serverNames();
    const results = await Promise.all(names.map((name) => this.refresh(name, options.force ?? false).catch((err): RefreshReport => ({
      server: name, added: [], updated: [], removed: [], unchanged: 0, embedded: 0, error: (err as Error).message, at: new Date(this.clock.now()).toISOString(),
    }))));
    return { results };
  }

  /**
   * Indexes every server never seen before (search needs the whole catalog), waiting at most
   * `discovery_wait` and never through a backoff: servers that are failing, backing off or still
   * connecting are skipped and returned as unavailable, with their last error.
   */
  private async discoverUnknown(): Promise<UnavailableServer[]> {
    const unknown = this.serverNames().filter((n) => !this.catalog.has(n) && !this.discovered.has(n));
    const errors = new Map<string, string>();
    const waits = unknown.filter((n) => this.isAvailable(n)).map((n) => {
      const downstream = this.server(n);
      const job = this.discover(n).catch((err) => { errors.set(n, (err as Error).message); });
      // Stop waiting on a server once its first attempt failed: the retries would only delay the answer.
      const gaveUp = downstream.settledOrBackingOff().then(() => (downstream.state === 'connected' ? job : undefined));
      return Promise.race([job, gaveUp]);
    });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.config.mcp_client_proxy.discovery_wait * 1000); });
    await Promise.race([Promise.all(waits), limit]).finally(() => clearTimeout(timer));
    return unknown.filter((n) => !this.discovered.has(n)).map((n) => {
      const d = this.server(n);
      const state = !this.isAvailable(n) ? 'circuit_open' : d.state === 'connecting' ? 'connecting' : d.state;
      return { server: n, state, last_error: errors.get(n) ?? d.lastError ?? (state === 'connecting' ? `still connecting after ${this.config.mcp_client_proxy.discovery_wait} s` : null) };
    });
  }

  /** Connected servers, waiting (bounded, never through a backoff) for those not connected yet. */
  async reachable(): Promise<Reachable[]> {
    await this.discoverUnknown();
    const available = [...this.servers.values()].filter((d) => !d.unavailable);
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.config.mcp_client_proxy.discovery_wait * 1000); });
    await Promise.race([
      Promise.all(available.map((d) => Promise.race([d.ensureConnected().catch(() => undefined), d.settledOrBackingOff()]))),
      limit,
    ]).finally(() => clearTimeout(timer));
    return available.flatMap((d) => (d.client ? [{ server: d.name, client: d.client }] : []));
  }

  async connectingSettled(): Promise<void> {
    const connecting = [...this.servers.values()].filter((d) => d.state === 'connecting');
    if (!connecting.length) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.config.mcp_client_proxy.discovery_wait * 1000); });
    await Promise.race([Promise.all(connecting.map((d) => d.settledOrBackingOff())), limit]).finally(() => clearTimeout(timer));
  }

  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    await Promise.all([...this.servers.values()].map((d) => (d.client?.getServerCapabilities()?.logging ? d.client.setLoggingLevel(level).catch(() => undefined) : undefined)));
  }

  onEvent(listener: (server: string, event: DownstreamEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private emit(server: string, event: DownstreamEvent): void {
    for (const listener of this.eventListeners) listener(server, event);
  }

  connected(server: string): Client | undefined {
    return this.servers.get(server)?.client;
  }

  /** The connected server's capabilities, else those it had when it last connected (kept in the store). */
  capabilitiesOf(server: string): ServerCapabilities | undefined {
    const live = this.servers.get(server)?.client?.getServerCapabilities();
    if (live) return live;
    const stored = getMeta(this.db, `capabilities/${server}`);
    return stored === undefined ? undefined : (JSON.parse(stored) as ServerCapabilities);
  }

  /** Kept so a later proxy knows what a lazily connected server offers before connecting it. */
  private rememberCapabilities(server: string, client: Client): void {
    const capabilities = client.getServerCapabilities();
    if (!capabilities || this.closed) return;
    try {
      setMeta(this.db, `capabilities/${server}`, JSON.stringify(capabilities));
    } catch (err) {
      this.log(`could not remember the capabilities of ${server}: ${(err as Error).message}`);
    }
  }

  private async resolveTool(server: string, tool: string): Promise<CatalogTool> {
    const downstream = this.server(server);
    if (!this.discovered.has(server)) await this.discover(server);
    let def = this.catalog.get(server, tool);
    if (!def) {
      // The server may have gained the tool since the last refresh.
      await this.refresh(server);
      def = this.catalog.get(server, tool);
    }
    if (!def) {
      const names = this.catalog.tools(server).map((t) => t.name);
      throw new CallError('unknown_tool', `server "${downstream.name}" has no tool "${tool}"; its tools: ${names.join(', ') || '(none)'}`);
    }
    return def;
  }

  listServers(): { servers: Array<Record<string, unknown>> } {
    return {
      servers: [...this.servers.values()].map((s) => ({
        ...s.info(),
        tool_count: this.catalog.tools(s.name).length,
        last_refresh: this.lastRefresh.get(s.name) ?? null,
      })),
    };
  }

  async listTools(options: { server?: string; include_metrics?: boolean } = {}): Promise<Record<string, unknown>> {
    const errors: string[] = [];
    if (options.server !== undefined) {
      await this.discover(this.server(options.server).name).catch((err) => { errors.push(`${options.server}: ${(err as Error).message}`); });
    } else {
      for (const u of await this.discoverUnknown()) errors.push(`${u.server}: unavailable (${u.state}): ${u.last_error ?? 'unknown error'}`);
    }
    const metrics = options.include_metrics ? new Map(this.metrics.get(options.server !== undefined ? { server: options.server } : {}).map((m) => [`${m.server}/${m.tool}`, m])) : undefined;
    const tools = this.catalog.tools(options.server).map((t) => {
      const m = metrics?.get(`${t.server}/${t.name}`);
      return {
        server: t.server, name: t.name, brief: brief(t.description), available: this.isAvailable(t.server),
        ...(metrics ? { metrics: m ? { success_rate: m.success_rate, avg_latency_ms: Math.round(m.avg_latency_ms * 100) / 100, call_count: m.call_count } : null } : {}),
      };
    });
    return { tools, ...(errors.length ? { errors } : {}) };
  }

  async getToolSchema(server: string, tool: string): Promise<Record<string, unknown>> {
    const t = await this.resolveTool(server, tool);
    return {
      server, name: t.name, description: t.description, inputSchema: t.inputSchema, available: this.isAvailable(server),
      schema_hash: t.hash, last_schema_change: new Date(t.lastSchemaChange).toISOString(),
    };
  }

  callTool(server: string, tool: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<CallToolResult> {
    if (this.closed) throw new Error('proxy is closed');
    return callTool(this.callContext, server, tool, args, options);
  }

  async searchTools(query: string, options: { top_k?: number; min_similarity?: number; server?: string } = {}): Promise<SearchAnswer & { results: Array<SearchAnswer['results'][number] & { available: boolean }>; unavailable?: UnavailableServer[] }> {
    if (options.server !== undefined) this.server(options.server);
    const unavailable = await this.discoverUnknown();
    const answer = await this.search.search(query, options);
    return { ...answer, results: answer.results.map((r) => ({ ...r, available: this.isAvailable(r.server) })), ...(unavailable.length ? { unavailable } : {}) };
  }

  async recommendTools(task: string, options: { search_mode?: SearchMode; top_k?: number; server?: string } = {}): Promise<RecommendAnswer & { unavailable?: UnavailableServer[] }> {
    const unavailable = await this.discoverUnknown();
    const answer = await recommendTools({
      catalog: this.catalog, search: this.search, metrics: this.metrics, llm: this.llm,
      includeMetrics: this.config.recommend_tools.include_metrics, isAvailable: (s) => this.isAvailable(s),
    }, task, { search_mode: options.search_mode ?? this.config.recommend_tools.search_mode, top_k: options.top_k, server: options.server });
    return unavailable.length ? { ...answer, unavailable } : answer;
  }

  getToolMetrics(filter: MetricsFilter & { failing_threshold?: number; limit?: number } = {}): Record<string, unknown> {
    const { failing_threshold, limit, ...f } = filter;
    return {
      tools: this.metrics.get(f),
      top_tools: this.metrics.top(limit ?? 5).filter((m) => (f.server === undefined || m.server === f.server)),
      failing_tools: this.metrics.failing(failing_threshold ?? 0.5).filter((m) => (f.server === undefined || m.server === f.server)),
      retention_days: this.metrics.retentionDays,
      scope: 'machine-global',
    };
  }

  resetToolMetrics(filter: MetricsFilter = {}): { reset: number } {
    return { reset: this.metrics.reset(filter) };
  }

  async getToolAlternatives(server: string, tool: string, limit?: number): Promise<Record<string, unknown>> {
    await this.resolveTool(server, tool).catch(() => undefined);
    if (!this.catalog.get(server, tool)) throw new CallError('unknown_tool', `unknown tool ${server}/${tool}`);
    return { server, tool, alternatives: await this.fallbacks.find(server, tool, limit) };
  }

  /** Closes every downstream (children terminated), flushes metrics, closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.aggregateTimer);
    await Promise.all([...this.servers.values()].map((s) => s.close()));
    this.metrics.flush();
    this.db.close();
  }

  /** Kills stdio children at once: for process exit paths where nothing async runs. */
  killChildren(): void {
    for (const s of this.servers.values()) s.killNow();
  }
}
