// Connects to every configured MCP server in parallel, discovers tools, calls them with a time bound,
// reconnects dropped HTTP sessions, and closes everything (children included) exactly once.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
}

interface Connection {
  name: string;
  entry: ServerEntry;
  client: Client;
  closed: boolean;
  stderr: string;
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
      const tools = await listAllTools(conn.client, this.connectTimeout);
      for (const tool of tools) this.tools.push({ server: name, ...tool });
      if (this.closing) throw new Error('run ended while connecting');
      this.connections.set(name, conn);
    } catch (error) {
      const stderr = conn?.stderr.trim();
      this.failures.push({ server: name, error: `${describeError(error)}${stderr ? ` (stderr: ${stderr.slice(-500)})` : ''}` });
      if (conn) await closeConnection(conn);
    }
  }

  private async open(name: string, entry: ServerEntry): Promise<Connection> {
    const client = new Client({ name: this.options.clientName ?? 'ghostwire-ghost', version: '0.1.0' });
    const conn: Connection = { name, entry, client, closed: false, stderr: '' };
    let transport: Transport;
    if (isHttpEntry(entry)) {
      transport = new StreamableHTTPClientTransport(new URL(entry.url), {
        requestInit: entry.headers ? { headers: entry.headers } : undefined,
      });
    } else {
      const stdio = new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: entry.env,
        cwd: entry.cwd,
        stderr: 'pipe',
      });
      // Keep the tail of stderr to explain failures; piping also keeps children quiet in test output.
      stdio.stderr?.on('data', (chunk: Buffer) => {
        conn.stderr = (conn.stderr + chunk.toString('utf8')).slice(-2000);
      });
      transport = stdio;
    }
    client.onclose = () => {
      conn.closed = true;
    };
    try {
      await client.connect(transport, { timeout: this.connectTimeout });
    } catch (error) {
      await closeConnection(conn);
      throw error;
    }
    return conn;
  }

  /**
   * Calls one tool, bounded by `timeoutMs` (the SDK cancels the request on timeout or abort).
   * A dropped HTTP session (404) is reconnected once and the call retried.
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> {
    const conn = this.connections.get(server);
    if (!conn) return { ok: false, text: '', value: null, error: `server "${server}" is not connected` };
    if (conn.closed) return { ok: false, text: '', value: null, error: `server "${server}" has exited${tail(conn.stderr)}` };
    try {
      return outcome(await this.rawCall(conn, tool, args, signal));
    } catch (error) {
      if (isHttpEntry(conn.entry) && isSessionGone(error)) {
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
    return conn.client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: this.options.timeoutMs,
      signal,
    }) as Promise<CallToolResult>;
  }

  private async reconnect(conn: Connection): Promise<Connection> {
    await closeConnection(conn);
    const fresh = await this.open(conn.name, conn.entry);
    this.connections.set(conn.name, fresh);
    return fresh;
  }

  /** Closes every connection (ending stdio children); safe to call more than once. */
  async close(): Promise<void> {
    this.closing = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map(closeConnection));
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function tail(stderr: string): string {
  const t = stderr.trim();
  return t ? ` (stderr: ${t.slice(-300)})` : '';
}

async function listAllTools(client: Client, timeoutMs: number): Promise<Omit<DiscoveredTool, 'server'>[]> {
  const tools: Omit<DiscoveredTool, 'server'>[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const t of page.tools) {
      tools.push({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as Record<string, unknown> });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function isSessionGone(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
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
  const closed = conn.closed ? ` (server "${conn.name}" exited${tail(conn.stderr)})` : '';
  return { ok: false, text: '', value: null, error: `${message}${closed}`, timedOut };
}

async function closeConnection(conn: Connection): Promise<void> {
  try {
    if (isHttpEntry(conn.entry) && !conn.closed) {
      const transport = conn.client.transport as StreamableHTTPClientTransport | undefined;
      await transport?.terminateSession().catch(() => undefined);
    }
    await conn.client.close();
  } catch {
    // Closing is best effort; the transport kills the child if it must.
  }
}
