/**
 * Paged tools/list: every page, following nextCursor, for any client that can list tools
 * (a connected SDK Client fits).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** What listAllTools needs from a client. */
export interface ToolLister {
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignal; timeout?: number }): Promise<{ tools: Tool[]; nextCursor?: string }>;
}

export interface ListToolsOptions {
  signal?: AbortSignal;
  /** Bound per page; default: none beyond the signal. */
  timeoutMs?: number;
  /** Pages followed at most, so a server repeating its cursor cannot loop forever. Default 1000. */
  maxPages?: number;
}

/** The SDK's largest timer: "no timeout of its own", the signal decides. */
const NO_TIMEOUT = 2 ** 31 - 1;

/**
 * Lists every tool a server offers, page by page.
 * @example
 *   const tools = await listAllTools(session.client, { timeoutMs: 10_000 });
 */
export async function listAllTools(client: ToolLister, options: ListToolsOptions = {}): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  const maxPages = options.maxPages ?? 1000;
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    const answer = await client.listTools(cursor ? { cursor } : {}, { signal: options.signal, timeout: options.timeoutMs ?? NO_TIMEOUT });
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (!cursor) return tools;
    if (seen.has(cursor) || page + 1 >= maxPages) throw new Error(`tools/list paging did not end (cursor ${JSON.stringify(cursor)} after ${page + 1} pages)`);
    seen.add(cursor);
  }
}

/**
 * Collects every page of any paged MCP list (resources, resource templates, prompts).
 * @example
 *   const resources = await listAllPages((cursor) => client.listResources(cursor ? { cursor } : {}), (page) => page.resources);
 */
export async function listAllPages<P extends { nextCursor?: string }, T>(fetchPage: (cursor?: string) => Promise<P>, items: (page: P) => T[], maxPages = 1000): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    const answer = await fetchPage(cursor);
    out.push(...items(answer));
    cursor = answer.nextCursor;
    if (!cursor) return out;
    if (seen.has(cursor) || page + 1 >= maxPages) throw new Error(`paging did not end (cursor ${JSON.stringify(cursor)} after ${page + 1} pages)`);
    seen.add(cursor);
  }
}
