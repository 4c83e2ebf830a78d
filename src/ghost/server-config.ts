// The `.mcp.json` shape: { mcpServers: { name: { command, args, env, cwd } | { url, headers } } }.
import { z } from 'zod';

export const StdioServerSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Claude Desktop-style configs carry a `type`; accepted and ignored for stdio. */
  type: z.literal('stdio').optional(),
});

export const HttpServerSchema = z.strictObject({
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  type: z.enum(['http', 'streamable-http']).optional(),
});

export const ServerEntrySchema = z.union([StdioServerSchema, HttpServerSchema]);

export const ServerConfigSchema = z.strictObject({
  mcpServers: z.record(z.string().min(1), ServerEntrySchema),
});

export type StdioServerEntry = z.infer<typeof StdioServerSchema>;
export type HttpServerEntry = z.infer<typeof HttpServerSchema>;
export type ServerEntry = z.infer<typeof ServerEntrySchema>;
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
/** What callers may pass (defaults not yet applied). */
export type ServerConfigInput = z.input<typeof ServerConfigSchema>;

/** Formats zod issues as `path: message` lines, with the path rooted at `where`. */
export function formatIssues(where: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
      return `${where}${path}: ${issue.message}`;
    })
    .join('\n');
}

/**
 * Validates a `.mcp.json` object; throws an error naming the offending path otherwise.
 * @example
 * parseServerConfig({ mcpServers: { db: { command: 'node', args: ['db.ts'] } } });
 */
export function parseServerConfig(value: unknown, where = 'serverConfig'): ServerConfig {
  const parsed = ServerConfigSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(`invalid ${where} (expected { mcpServers: { name: { command, args?, env?, cwd? } | { url } } }):\n${formatIssues(where, parsed.error)}`);
  }
  return parsed.data;
}

export function isHttpEntry(entry: ServerEntry): entry is HttpServerEntry {
  return 'url' in entry;
}
