/**
 * The proxy's configuration: the `.mcp.json` shape (`mcpServers`) plus the seed's Phase 6 options.
 * Every field is validated by zod; errors name the file and the JSON path.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { McpServerEntrySchema } from '../mcp/index.ts';

/** One downstream server: the shared `.mcp.json` entry (stdio, Streamable HTTP or SSE). */
export const serverConfigSchema = McpServerEntrySchema;

/** Known embedding models and their native dimensions ("Validate embedding_model is supported"). */
export const EMBEDDING_MODELS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const positiveSeconds = z.number().positive('must be a positive number of seconds');

export const proxyOptionsSchema = z.object({
  /** Connect a server on first use (true) or all at start (false). */
  lazy_connect: z.boolean().default(true),
  /** Servers connected in the background at start even when lazy. */
  preconnect_servers: z.array(z.string()).default([]),
  /** Seconds one connection attempt may take. */
  connection_timeout: positiveSeconds.default(30),
  /** Retries after a failed attempt (backoff 1, 2, 4, 8, 16 s). */
  max_connection_retries: z.number().int().nonnegative('must be 0 or more').default(3),
  /** Seconds a downstream tool call may take before it counts as a timeout. */
  call_timeout: positiveSeconds.default(60),
  /** Failed connection rounds in a row before the breaker opens. */
  circuit_breaker_threshold: z.number().int().positive('must be a positive integer').default(3),
  /** Seconds the breaker stays open before a half-open trial. */
  circuit_breaker_reset: positiveSeconds.default(60),
  /** Days raw call rows are kept before they are rolled into daily aggregates. */
  metrics_retention_days: z.number().int().positive('must be a positive integer').default(7),
  /** The machine-global SQLite store (metrics, schemas, hashes, embeddings). */
  store_path: z.string().min(1).optional(),
  /**
   * Seconds search_tools/recommend_tools/list_tools wait for servers never indexed before; servers still
   * connecting or backing off after that are skipped and named as unavailable.
   */
  discovery_wait: positiveSeconds.default(5),
}).strict();

/** The HTTP endpoint (`ghostwire proxy serve --http`, McpProxy.listen). */
export const httpOptionsSchema = z.object({
  /** Host names (no port) accepted besides localhost, 127.0.0.1 and [::1] (DNS-rebinding protection). */
  allowed_hosts: z.array(z.string().min(1)).default([]),
  /** Origins (`https://app.example`) accepted besides loopback ones. */
  allowed_origins: z.array(z.string().regex(/^https?:\/\/[^/]+$/, 'expected scheme://host[:port]')).default([]),
  /** The environment variable holding the bearer token (required beyond loopback; tokens never go in the file). */
  auth_token_env: z.string().min(1).default('GHOSTWIRE_PROXY_TOKEN'),
  /** Largest request body accepted (413 beyond). */
  max_body_bytes: z.number().int().positive('must be a positive number of bytes').default(4 * 1024 * 1024),
  /** Most MCP sessions open at once (503 to an initialize beyond it). */
  max_sessions: z.number().int().positive('must be a positive number of sessions').default(256),
  /** A session with no request and no open stream for this long is closed, as a DELETE would. */
  session_idle_seconds: z.number().positive('must be a positive number of seconds').default(1800),
}).strict();

export const recommendOptionsSchema = z.object({
  search_mode: z.enum(['semantic', 'hybrid', 'llm']).default('hybrid'),
  embedding_model: z.string().default('text-embedding-3-small'),
  /** Needed only for models not in EMBEDDING_MODELS. */
  embedding_dimensions: z.number().int().positive().optional(),
  include_metrics: z.boolean().default(true),
  max_fallbacks: z.number().int().nonnegative('must be 0 or more').default(3),
  auto_retry_fallback: z.boolean().default(false),
  /**
   * Similarity (0..1, the search's own scale) a tool needs to be suggested as a fallback. The default is
   * calibrated on the catalog eval (docs/decisions/mcp-layer.md).
   */
  fallback_min_similarity: z.number().min(0).max(1).optional(),
  /**
   * Tools ("server/tool") auto_retry_fallback may run although their annotations do not say they are
   * read-only or idempotent and non-destructive. Nothing else without those annotations is ever run.
   */
  auto_retry_tools: z.array(z.string().regex(/^[^/]+\/.+$/, 'expected "server/tool"')).default([]),
  /**
   * OpenAI-compatible embeddings API, opt-in: absent (or neither a key in the environment nor a
   * base_url) → local lexical BM25 search. `{}` means OpenAI itself with OPENAI_API_KEY.
   */
  embeddings: z.object({
    base_url: z.url().optional(),
    /** Name of the environment variable holding the key (keys never go in the file). */
    api_key_env: z.string().default('OPENAI_API_KEY'),
  }).strict().optional(),
  /** The LLM used by hybrid re-ranking and llm mode. */
  llm: z.object({
    provider: z.enum(['openai', 'anthropic', 'gemini']).default('openai'),
    /** Absent: the provider's default model. */
    model: z.string().optional(),
    base_url: z.url().optional(),
    api_key_env: z.string().optional(),
  }).strict().optional(),
}).strict().superRefine((value, ctx) => {
  if (!(value.embedding_model in EMBEDDING_MODELS) && value.embedding_dimensions === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['embedding_model'],
      message: `unsupported embedding model "${value.embedding_model}": expected one of ${Object.keys(EMBEDDING_MODELS).join(', ')} (or set embedding_dimensions)`,
    });
  }
});

export const proxyConfigSchema = z.object({
  mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'server names use letters, digits, _ . -'), serverConfigSchema),
  mcp_client_proxy: proxyOptionsSchema.default(() => proxyOptionsSchema.parse({})),
  recommend_tools: recommendOptionsSchema.default(() => recommendOptionsSchema.parse({})),
  http: httpOptionsSchema.default(() => httpOptionsSchema.parse({})),
}).strict().superRefine((value, ctx) => {
  value.mcp_client_proxy.preconnect_servers.forEach((name, i) => {
    if (!(name in value.mcpServers)) {
      ctx.addIssue({ code: 'custom', path: ['mcp_client_proxy', 'preconnect_servers', i], message: `unknown server "${name}"` });
    }
  });
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type ProxyConfig = z.infer<typeof proxyConfigSchema>;
export type ProxyConfigInput = z.input<typeof proxyConfigSchema>;

/**
 * A configuration error naming where (file, JSON path) and what was expected.
 * @example
 *   try { loadProxyConfig('proxy.json'); } catch (e) { if (e instanceof ProxyConfigError) console.error(e.message); }
 */
export class ProxyConfigError extends Error {
  override name = 'ProxyConfigError';
}

function formatIssues(error: z.ZodError, source: string): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') : '(root)';
    return `  ${source}: ${path.replace(/^\./, '')}: ${issue.message}`;
  });
  return `invalid proxy config:\n${lines.join('\n')}`;
}

/**
 * Validates a config object, filling defaults.
 * @example
 *   const config = parseProxyConfig({ mcpServers: { fs: { command: 'node', args: ['fs.ts'] } } });
 */
export function parseProxyConfig(input: unknown, source = 'config'): ProxyConfig {
  const result = proxyConfigSchema.safeParse(input);
  if (!result.success) throw new ProxyConfigError(formatIssues(result.error, source));
  return result.data;
}

/**
 * Reads and validates a `.mcp.json`-shaped file.
 * @example
 *   const config = loadProxyConfig('.mcp.json');
 */
export function loadProxyConfig(file: string): ProxyConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProxyConfigError(`cannot read proxy config ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ProxyConfigError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  return parseProxyConfig(json, file);
}

/**
 * The default store: machine-global, as the seed decided (Decision 4).
 * @example
 *   defaultStorePath() // '/home/me/.ghostwire/proxy.db'
 */
export function defaultStorePath(): string {
  return join(homedir(), '.ghostwire', 'proxy.db');
}
