/**
 * createProxy(config): the public entry. Builds the core from a config object or file, picks the
 * embeddings API and ranking LLM from the config (or takes injected ones), and serves MCP over
 * stdio, Streamable HTTP, or any transport.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EMBEDDING_MODELS, loadProxyConfig, parseProxyConfig, type ProxyConfig, type ProxyConfigInput } from './config.ts';
import { createOpenAIEmbedder, type Embedder } from './embeddings.ts';
import { listenHttp, type HttpListener } from './http.ts';
import { isLoopback } from '../net/index.ts';
import { createProvider } from '../ghost/provider-factory.ts';
import { rankingLLMFromProvider, type RankingLLM } from './llm.ts';
import { createProxyMcpServer } from './mcp-server.ts';
import { ProxyCore, type ProxyDeps } from './proxy.ts';

export interface CreateProxyOptions extends ProxyDeps {
  /** Where API keys are looked up (default process.env). */
  env?: Record<string, string | undefined>;
  /** Start background work (preconnects, metrics roll-up) at once. Default true. */
  start?: boolean;
}

/**
 * The embeddings API the config names, or undefined when there is neither key nor endpoint.
 * @example
 *   const embedder = embedderFromConfig(config, process.env); // undefined without a key or base_url
 */
export function embedderFromConfig(config: ProxyConfig, env: Record<string, string | undefined>): Embedder | undefined {
  const r = config.recommend_tools;
  if (!r.embeddings) return undefined;
  const apiKey = env[r.embeddings.api_key_env];
  if (!apiKey && !r.embeddings.base_url) return undefined;
  const dimensions = r.embedding_dimensions ?? EMBEDDING_MODELS[r.embedding_model];
  return createOpenAIEmbedder({ model: r.embedding_model, dimensions, apiKey, baseURL: r.embeddings.base_url });
}

/**
 * The ranking LLM the config names, if any: the ghost's provider layer, so OpenAI, Anthropic and Gemini all work.
 * @example
 *   const llm = llmFromConfig(config, process.env); // undefined when recommend_tools.llm is not set
 */
export function llmFromConfig(config: ProxyConfig, env: Record<string, string | undefined>): RankingLLM | undefined {
  const llm = config.recommend_tools.llm;
  if (!llm) return undefined;
  const keyEnv = llm.api_key_env ?? { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', gemini: 'GEMINI_API_KEY' }[llm.provider];
  const provider = createProvider({ provider: llm.provider, apiKey: env[keyEnv] ?? 'none', baseURL: llm.base_url, defaultModel: llm.model });
  return rankingLLMFromProvider(provider, llm.model);
}

/**
 * The MCP proxy: an MCP server in front of the configured downstream servers.
 * @example
 *   const proxy = createProxy({ mcpServers: { fs: { command: process.execPath, args: ['fs.ts'] } } }, { storePath: '/tmp/p.db' });
 *   const { url } = await proxy.listen({ port: 0 });
 *   await proxy.close();
 */
export class McpProxy {
  readonly core: ProxyCore;
  private readonly listeners: HttpListener[] = [];
  private readonly env: Record<string, string | undefined>;
  private readonly log: (message: string) => void;
  private readonly onExit = (): void => this.core.killChildren();
  private closed = false;

  constructor(core: ProxyCore, options: { env?: Record<string, string | undefined>; log?: (message: string) => void } = {}) {
    this.core = core;
    this.env = options.env ?? process.env;
    this.log = options.log ?? (() => {});
    // Children never outlive the proxy, even when the process exits without calling close().
    process.once('exit', this.onExit);
  }

  /** Serves MCP on this process's stdin/stdout. */
  async serveStdio(): Promise<void> {
    await this.connect(new StdioServerTransport());
  }

  /** Serves MCP on any transport (e.g. an in-memory pair in tests). */
  async connect(transport: Transport): Promise<void> {
    await (await this.buildServer()).connect(transport);
  }

  /**
   * Serves Streamable HTTP at `/mcp` (127.0.0.1, a free port by default), plus two plain JSON endpoints:
   * `GET /mcp/tools/search?query=...&top_k=&min_similarity=&server=` and `POST /mcp/tools/embed {"force"?}`.
   * Host and Origin are validated (config `http`); beyond loopback a bearer token is required: `token`,
   * else the variable named by `http.auth_token_env` (GHOSTWIRE_PROXY_TOKEN).
   */
  async listen(options: { host?: string; port?: number; token?: string } = {}): Promise<HttpListener> {
    const http = this.core.config.http;
    const token = options.token ?? (this.env[http.auth_token_env] || undefined);
    const listener = await listenHttp(() => this.buildServer(), {
      host: options.host, port: options.port, token,
      allowedHosts: http.allowed_hosts, allowedOrigins: http.allowed_origins, maxBodyBytes: http.max_body_bytes,
      maxSessions: http.max_sessions, sessionIdleMs: http.session_idle_seconds * 1000,
      extra: (method, url, body) => this.extraRoute(method, url, body),
    });
    if (options.host !== undefined && !isLoopback(options.host)) {
      this.log(`listening beyond loopback on ${options.host}: every request needs Authorization: Bearer <the token in ${options.token !== undefined ? 'the listen() options' : `$${http.auth_token_env}`}>`);
    } else if (token) {
      this.log('requests need Authorization: Bearer <token>');
    }
    this.listeners.push(listener);
    return listener;
  }

  /** One session's MCP Server; whether it offers resources/subscribe is settled before its initialize. */
  private async buildServer(): Promise<Server> {
    return createProxyMcpServer(this.core, { subscribe: await this.core.passthrough.canSubscribe() });
  }

  private async extraRoute(method: string, url: URL, body: unknown): Promise<{ status: number; body: unknown } | undefined> {
    const p = url.searchParams;
    const number = (name: string): number | undefined => (p.has(name) ? Number(p.get(name)) : undefined);
    try {
      if (url.pathname === '/mcp/tools/search' && method === 'GET') {
        const query = p.get('query') ?? p.get('q');
        if (!query) return { status: 400, body: { error: 'missing query parameter "query"' } };
        return { status: 200, body: await this.core.searchTools(query, { top_k: number('top_k'), min_similarity: number('min_similarity'), server: p.get('server') ?? undefined }) };
      }
      if (url.pathname === '/mcp/tools/embed' && method === 'POST') {
        const force = !!(body as { force?: unknown } | undefined)?.force;
        const embedded = await this.core.search.sync(undefined, force);
        return { status: 200, body: { mode: this.core.search.mode, embedded } };
      }
    } catch (err) {
      return { status: 500, body: { error: (err as Error).message } };
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.listeners.map((l) => l.close()));
    await this.core.close();
    process.removeListener('exit', this.onExit);
  }
}

/**
 * Creates the proxy from a config object or a `.mcp.json` path.
 * @example
 *   const proxy = createProxy('.mcp.json');
 *   await proxy.serveStdio();
 */
export function createProxy(config: ProxyConfigInput | ProxyConfig | string, options: CreateProxyOptions = {}): McpProxy {
  const parsed = typeof config === 'string' ? loadProxyConfig(config) : parseProxyConfig(config);
  const env = options.env ?? process.env;
  const embedder = options.embedder === undefined ? embedderFromConfig(parsed, env) : options.embedder;
  const llm = options.llm === undefined ? llmFromConfig(parsed, env) : options.llm;
  const core = new ProxyCore(parsed, { ...options, embedder, llm });
  if (options.start !== false) core.start();
  return new McpProxy(core, { env, log: options.log });
}
