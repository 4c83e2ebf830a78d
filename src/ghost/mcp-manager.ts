// Connects to every configured MCP server in parallel, discovers tools, calls them with a time bound,
// reconnects dropped HTTP sessions, and closes everything (children included) exactly once.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ArgumentValidator, connect, isSessionGone, listAllTools, type McpSession } from '../mcp/index.ts';
import { isHttpEntry, type ServerConfig, type ServerEntry } from './server-config.ts';

/** One tool as a server advertised it. */
export interface DiscoveredTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ServerFailure {
  server: string;
  error: string;
}

/** A tool call's outcome; failures are values, never throws. */
export interface ToolOutcome {
  ok: boolean;
  /** The result rendered as text (joined text content, JSON for the rest). */
  text: string;
  /** structuredContent or the content array, for the result record. */
  value: unknown;
  error?: string;
  /** The failure was a timeout (the call was cancelled). */
  timedOut?: boolean;
}

export interface McpManagerOptions {
  /** Bound for each call. */
  timeoutMs: number;
  /** Bound for connecting and listing tools; defaults to timeoutMs. */
  connectTimeoutMs?: number;
  /** The MCP clientInfo name. */
  clientName?: string;
  /** Abort connecting (a stdio server's process group is ended within a second). */
  signal?: AbortSignal;
}

interface Connection {
  name: string;
  entry: ServerEntry;
  session: McpSession;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Renders MCP content blocks as text for the model.
 * @example
 *   renderToolResult({ content: [{ type: 'text', text: '21°C' }] }) // '21°C'
 */
export function renderToolResult(result: CallToolResult): string {
  const parts = (result.content ?? []).map((block) => {
    if (block.type === 'text') return block.text;
    // Binary payloads would only fill the context with base64: describe them instead.
    if (block.type === 'image' || block.type === 'audio') return `[${block.type}: ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    if (block.type === 'resource' && 'text' in block.resource) return `[resource ${block.resource.uri}]\n${block.resource.text}`;
    return JSON.stringify(block);
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/**
 * The MCP client side of the ghost.
 * @example
 * const mcp = await McpManager.connect(parseServerConfig(cfg), { timeoutMs: 30_000 });
 * try { await mcp.callTool('db', 'list_tables', {}); } finally { await mcp.close(); }
 */
export class McpManager {
  readonly tools: DiscoveredTool[] = [];
  readonly failures: ServerFailure[] = [];
  /** Compiled argument schemas, shared by every run on this manager. */
  readonly validator = new ArgumentValidator();
  private readonly connections = new Map<string, Connection>();
  private readonly options: McpManagerOptions;
  private closing = false;

  private constructor(options: McpManagerOptions) {
    this.options = options;
  }

  /** Connects to all servers in parallel; failures land in `failures`, never throw. */
  static async connect(config: ServerConfig, options: McpManagerOptions): Promise<McpManager> {
    const manager = new McpManager(options);
    await Promise.all(Object.entries(config.mcpServers).map(([name, entry]) => manager.add(name, entry)));
    // Discovery order depends on who answered first; sort so everything downstream is deterministic.
    manager.tools.sort((a, b) => (a.server === b.server ? cmp(a.name, b.name) : cmp(a.server, b.server)));
    manager.failures.sort((a, b) => cmp(a.server, b.server));
    return manager;
  }

  private get connectTimeout(): number {
    return this.options.connectTimeoutMs ?? this.options.timeoutMs;
  }

  get serversConnected(): number {
    return this.connections.size;
  }

  get serverNames(): string[] {
    return [...this.connections.keys()].sort(cmp);
  }

  private async add(name: string, entry: ServerEntry): Promise<void> {
    let conn: Connection | undefined;
    try {
      conn = await this.open(name, entry);
      const tools = await listAllTools(conn.session.client, { timeoutMs: this.connectTimeout, signal: this.options.signal });
      for (const t of tools) this.tools.push({ server: name, name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as Record<string, unknown> });
      if (this.closing) throw new Error('run ended while connecting');
      this.connections.set(name, conn);
    } catch (error) {
      const stderr = conn?.session.stderr.trim();
      const shown = stderr && !describeError(error).includes('(stderr:') ? ` (stderr: ${stderr.slice(-500)})` : '';
      this.failures.push({ server: name, error: `${describeError(error)}${shown}` });
      if (conn) await conn.session.close();
    }
  }

  private async open(name: string, entry: ServerEntry): Promise<Connection> {
    const session = await connect(entry, {
      clientInfo: { name: this.options.clientName ?? 'ghostwire-ghost', version: '0.1.0' },
      timeoutMs: entry.connect_timeout !== undefined ? entry.connect_timeout * 1000 : this.connectTimeout,
      signal: this.options.signal,
    });
    return { name, entry, session };
  }

  /**
   * Calls one tool, bounded by `timeoutMs` (the SDK cancels the request on timeout or abort).
   * A dropped HTTP session (404) is reconnected once and the call retried.
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> {
    const conn = this.connections.get(server);
    if (!conn) return { ok: false, text: '', value: null, error: `server "${server}" is not connected` };
    if (conn.session.closed) return { ok: false, text: '', value: null, error: `server "${server}" has exited${tail(conn.session.stderr)}` };
    try {
      return outcome(await this.rawCall(conn, tool, args, signal));
    } catch (error) {
      if (isHttpEntry(conn.entry) && isSessionGone(error) && !conn.session.closed) {
        try {
          const fresh = await this.reconnect(conn);
          return outcome(await this.rawCall(fresh, tool, args, signal));
        } catch (retryError) {
          return failure(retryError, conn);
        }
      }
      return failure(error, conn);
    }
  }

  private rawCall(conn: Connection, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const seconds = conn.entry.timeout;
    return conn.session.client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: seconds !== undefined ? seconds * 1000 : this.options.timeoutMs,
      signal,
    }) as Promise<CallToolResult>;
  }

  private async reconnect(conn: Connection): Promise<Connection> {
    await conn.session.close();
    const fresh = await this.open(conn.name, conn.entry);
    this.connections.set(conn.name, fresh);
    return fresh;
  }

  /** Closes every connection (ending stdio children); safe to call more than once. */
  async close(): Promise<void> {
    this.closing = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.session.close()));
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function tail(stderr: string): string {
  const t = stderr.trim();
  return t ? ` (stderr: ${t.slice(-300)})` : '';
}

function outcome(result: CallToolResult): ToolOutcome {
  const text = renderToolResult(result);
  const value = result.structuredContent ?? result.content;
  if (result.isError) return { ok: false, text, value, error: text || 'the tool reported an error' };
  return { ok: true, text, value };
}

function failure(error: unknown, conn: Connection): ToolOutcome {
  const message = describeError(error);
  const timedOut = /timed out|timeout/i.test(message);
  const closed = conn.session.closed ? ` (server "${conn.name}" exited${tail(conn.session.stderr)})` : '';
  return { ok: false, text: '', value: null, error: `${message}${closed}`, timedOut };
}
