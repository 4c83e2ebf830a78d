// The ghost's names for the shared `.mcp.json` schema (src/mcp/config.ts): one schema for the ghost,
// the proxy and the rollout env.
import type { z } from 'zod';
import { formatConfigIssues, isStdioEntry, McpConfigSchema, parseMcpConfig, type HttpEntry, type McpConfig, type McpConfigInput, type McpServerEntry, type StdioEntry } from '../mcp/index.ts';

export const ServerConfigSchema = McpConfigSchema;
export type StdioServerEntry = StdioEntry;
export type HttpServerEntry = HttpEntry;
export type ServerEntry = McpServerEntry;
export type ServerConfig = McpConfig;
/** What callers may pass (defaults not yet applied). */
export type ServerConfigInput = McpConfigInput;

/** Formats zod issues as `where.path: message` lines. */
export function formatIssues(where: string, error: z.ZodError): string {
  return formatConfigIssues(where, error.issues);
}

/**
 * Validates a `.mcp.json` object; throws an error naming the offending path otherwise.
 * @example
 * parseServerConfig({ mcpServers: { db: { command: 'node', args: ['db.ts'] } } });
 */
export function parseServerConfig(value: unknown, where = 'serverConfig'): ServerConfig {
  return parseMcpConfig(value, where);
}

export function isHttpEntry(entry: ServerEntry): entry is HttpServerEntry {
  return !isStdioEntry(entry);
}
