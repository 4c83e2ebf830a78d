/**
 * The `.mcp.json` shape shared by the ghost, the proxy and the rollout env: the superset of what
 * Claude Desktop, Claude Code, Cursor, VS Code, Cline and Windsurf-style configs write.
 * One zod schema is the single source of truth; errors name the JSON path.
 */
import { z } from 'zod';

/** Every `type` (or `transport`) value seen in the wild, by the transport it means. */
const STDIO_TYPES = ['stdio'] as const;
const STREAMABLE_TYPES = ['http', 'streamable-http', 'streamableHttp', 'streamable_http'] as const;
const SSE_TYPES = ['sse'] as const;

const seconds = z.number().positive('must be a positive number of seconds');

/** Fields every entry may carry, whatever its transport. */
const common = {
  /** What the server is for (shown by list_mcp_servers; some clients call it a note). */
  description: z.string().optional(),
  /** Configured but not started (Cline, Claude Code). */
  disabled: z.boolean().optional(),
  /** Seconds one tool call may take on this server (Cline's `timeout`). */
  timeout: seconds.optional(),
  /** Seconds connecting (spawn or HTTP handshake and initialize) may take. */
  connect_timeout: seconds.optional(),
  /** Client-side approval lists of Cline/Roo: accepted, not used. */
  autoApprove: z.array(z.string()).optional(),
  alwaysAllow: z.array(z.string()).optional(),
};

export const StdioEntrySchema = z.strictObject({
  type: z.enum(STDIO_TYPES).optional(),
  transport: z.enum(STDIO_TYPES).optional(),
  command: z.string().min(1, 'must name the program to run'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  ...common,
});

export const HttpEntrySchema = z.strictObject({
  type: z.enum([...STREAMABLE_TYPES, ...SSE_TYPES]).optional(),
  transport: z.enum([...STREAMABLE_TYPES, ...SSE_TYPES]).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
});

/** One server: stdio (`command`) or HTTP (`url`: Streamable HTTP, or SSE by `type`/URL). */
export const McpServerEntrySchema = z.union([StdioEntrySchema, HttpEntrySchema], {
  error: 'expected a stdio server { command, args?, env?, cwd? } or an HTTP server { url, headers?, type? }',
});

export const McpConfigSchema = z.strictObject({
  mcpServers: z.record(z.string().min(1, 'server names must not be empty'), McpServerEntrySchema),
});

export type StdioEntry = z.infer<typeof StdioEntrySchema>;
export type HttpEntry = z.infer<typeof HttpEntrySchema>;
export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;
/** An entry as written (defaults not yet applied). */
export type McpServerEntryInput = z.input<typeof McpServerEntrySchema>;
export type McpConfig = z.infer<typeof McpConfigSchema>;
export type McpConfigInput = z.input<typeof McpConfigSchema>;

/** The wire an entry asks for: `sse` only when said so (type/transport) or the URL ends in `/sse`. */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

/**
 * Which transport an entry uses, as the SDK recommends: `/sse` URLs and `type: "sse"` speak SSE, other
 * URLs Streamable HTTP (with a fallback to SSE on a 4xx, see connect()).
 * @example
 *   transportOf({ url: 'http://127.0.0.1:3000/sse' }) // 'sse'
 */
export function transportOf(entry: McpServerEntryInput): TransportKind {
  if ('command' in entry) return 'stdio';
  const declared = entry.type ?? entry.transport;
  if (declared === 'sse') return 'sse';
  if (declared === undefined && /\/sse\/?$/.test(new URL(entry.url).pathname)) return 'sse';
  return 'streamable-http';
}

/**
 * Whether an entry starts a process.
 * @example
 *   isStdioEntry({ command: 'node', args: [] }) // true
 */
export function isStdioEntry<E extends McpServerEntryInput>(entry: E): entry is Extract<E, { command: string }> {
  return 'command' in entry;
}

/**
 * Zod issues as `where.path: message` lines.
 * @example
 *   formatConfigIssues('options', error.issues) // 'options.serverConfig.mcpServers.db.command: must name the program to run'
 */
export function formatConfigIssues(where: string, issues: readonly z.core.$ZodIssue[]): string {
  // A file is named apart from the path (`.mcp.json: mcpServers.db`); a variable leads it (`options.serverConfig`).
  const file = /[/\\]|\.json$/.test(where);
  return issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    if (file) return `${where}: ${path.replace(/^\./, '') || '(root)'}: ${issue.message}`;
    return `${where}${path}: ${issue.message}`;
  }).join('\n');
}

/**
 * Validates a `.mcp.json` object, filling defaults; throws an error naming each offending path.
 * @example
 *   parseMcpConfig({ mcpServers: { db: { command: 'node', args: ['db.ts'] } } });
 */
export function parseMcpConfig(value: unknown, where = '.mcp.json'): McpConfig {
  const parsed = McpConfigSchema.safeParse(value);
  if (!parsed.success) throw new Error(`invalid ${where}:\n${formatConfigIssues(where, parsed.error.issues)}`);
  return parsed.data;
}
