import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { connect, listAllTools, type McpServerEntryInput, type McpSession } from '../mcp/index.ts';
import { raceAbort } from './deadline.ts';
import { isConnectionFailure, isRetryableDrop } from './mcp-errors.ts';
import { Semaphore } from './semaphore.ts';

/** How to reach an MCP server over HTTP: Streamable HTTP (the default) or the older SSE transport. */
export type McpTransportKind = 'streamable-http' | 'sse';

export type { CallToolResult, McpToolInfo };

/** What an MCPTool needs from a connection, pooled or given by the caller. */
export interface McpConnection {
  /** The server's tools, listed once per connection and cached until the server says they changed. */
  tools(signal: AbortSignal): Promise<McpToolInfo[]>;
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  /** Gives the connection back; the last holder's release closes it. */
  release(): Promise<void>;
}

/** Options for {@link McpClientPool}. */
export interface McpClientPoolOptions {
  /** Calls in flight at once per server, across every tool sharing the pool. Default 8. */
  maxConcurrency?: number;
  /** How the MCP client introduces itself. */
  clientInfo?: { name: string; version: string };
}

interface Session {
  client: Client;
  mcp: McpSession;
  closed: boolean;
  /** Why the server side went away, when the client noticed it on its own. */
  lost?: string;
  tools?: Promise<McpToolInfo[]>;
}

/** One server's shared client: connects on demand, reconnects after a drop, caps concurrency. */
class PoolEntry {
  /** The URL, or the command line of a stdio server (for stats and messages). */
  readonly url: string;
  readonly entry: McpServerEntryInput;
  readonly semaphore: Semaphore;
  readonly #clientInfo: { name: string; version: string };
  readonly #onEmpty: () => void;
  #session: Promise<Session> | undefined;
  #settled: Session | undefined;
  #closed = false;
  refs = 0;
  connects = 0;
  toolListChanges = 0;

  constructor(entry: McpServerEntryInput, semaphore: Semaphore, clientInfo: { name: string; version: string }, onEmpty: () => void) {
    this.entry = entry;
    this.url = 'url' in entry ? entry.url : [entry.command, ...(entry.args ?? [])].join(' ');
    this.semaphore = semaphore;
    this.#clientInfo = clientInfo;
    this.#onEmpty = onEmpty;
  }

  async run<T>(signal: AbortSignal, op: (session: Session) => Promise<T>): Promise<T> {
    const release = await this.semaphore.acquire(signal);
    try {
      const session = await this.#connected(signal);
      try {
        return await raceAbort(op(session), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        if (this.#closed) throw new Error('the MCP connection was closed', { cause: error });
        if (isRetryableDrop(error)) {
          // Refused up front (unknown session, nothing listening): nothing ran, so start a new session and retry once.
          this.#discard(session);
          return await raceAbort(op(await this.#connected(signal)), signal);
        }
        if (session.lost) {
          // Lost while the request was out: it may have run, so it is reported rather than re-sent.
          this.#discard(session);
          throw new Error(`the MCP server lost the session while the request was running (${session.lost}); not retried, since it may have run`, { cause: error });
        }
        if (isConnectionFailure(error)) this.#discard(session);
        throw error;
      }
    } finally {
      release();
    }
  }

  #connected(signal: AbortSignal): Promise<Session> {
    if (this.#closed) return Promise.reject(new Error('the MCP connection was closed'));
    const current = this.#session;
    if (current) {
      return raceAbort(current, signal).then((session) => {
        if (!session.closed) return session;
        this.#discard(session);
        return this.#connected(signal);
      });
    }
    const attempt = this.#connect(signal);
    this.#session = attempt;
    attempt.then(
      (session) => {
        if (this.#session === attempt) this.#settled = session;
      },
      () => {
        if (this.#session === attempt) this.#session = undefined;
      },
    );
    return raceAbort(attempt, signal);
  }

  async #connect(signal: AbortSignal): Promise<Session> {
    this.connects++;
    // The callbacks may fire only once the session exists; they reach it through this holder.
    const held: { session?: Session } = {};
    const mcp = await connect(this.entry, {
      clientInfo: this.#clientInfo,
      signal,
      timeoutMs: 2 ** 31 - 1,
      // The server added, removed or changed tools: drop the cached list, so the next use lists them again
      // (a listing in flight when this arrives is not cached either: it may predate the change). Not the
      // SDK's `listChanged.tools.autoRefresh`: that lists one page only, and eagerly, for a list maybe never used again.
      onToolsChanged: () => {
        if (held.session) held.session.tools = undefined;
        this.toolListChanges++;
      },
      // A broken stream, a server that forgot the session, or an exited process: the next use reconnects,
      // and requests still waiting on the dead session fail now instead of at the deadline.
      onLost: (reason) => {
        const session = held.session;
        if (!session) return;
        session.lost ??= reason;
        this.#discard(session);
      },
    });
    held.session = { client: mcp.client, mcp, closed: false };
    return held.session;
  }

  #discard(session: Session): void {
    session.closed = true;
    // Only forget the session if it is still the current one: another caller may already have reconnected.
    if (this.#settled === session) {
      this.#session = undefined;
      this.#settled = undefined;
    }
    void session.mcp.close();
  }

  tools(signal: AbortSignal): Promise<McpToolInfo[]> {
    return this.run(signal, async (session) => {
      const listing = (session.tools ??= listAllTools(session.client, { signal }));
      listing.catch(() => {
        if (session.tools === listing) session.tools = undefined;
      });
      return listing;
    });
  }

  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    return this.run(signal, (session) =>
      session.client.callTool({ name, arguments: args }, undefined, { signal, timeout: 2 ** 31 - 1 }) as Promise<CallToolResult>,
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#session;
    this.#session = undefined;
    this.#settled = undefined;
    const session = await pending?.catch(() => undefined);
    if (!session || session.closed) return;
    session.closed = true;
    // Ends the server-side session (HTTP) or the server's process group (stdio).
    await session.mcp.close();
  }

  async releaseRef(): Promise<void> {
    this.refs--;
    if (this.refs > 0) return;
    this.#onEmpty();
    await this.close();
  }
}

/**
 * Shares one MCP client per server URL among every tool that uses the pool, with
 * a cap on concurrent calls per server. The pool is a plain object owned by
 * whoever created it (a ToolRegistry creates one for the tools it makes); there
 * is no process-wide pool.
 *
 * @example
 * const pool = new McpClientPool({ maxConcurrency: 4 });
 * const a = new MCPTool({ serverUrl, pool });
 * const b = new MCPTool({ serverUrl, pool }); // same connection as a
 * await pool.close();
 */
export class McpClientPool {
  readonly maxConcurrency: number;
  readonly #clientInfo: { name: string; version: string };
  readonly #entries = new Map<string, PoolEntry>();
  #connects = 0;
  #toolListChanges = 0;
  #closed = false;

  constructor(options: McpClientPoolOptions = {}) {
    this.maxConcurrency = options.maxConcurrency ?? 8;
    new Semaphore(this.maxConcurrency); // validates the limit now rather than at first use
    this.#clientInfo = options.clientInfo ?? { name: 'ghostwire-rollout', version: '0.1.0' };
  }

  /**
   * A connection to a URL (over `kind`) or to any `.mcp.json` entry (stdio included), shared with every
   * other holder of the same target. No I/O happens until the first call.
   *
   * @example
   * const conn = pool.acquire('http://127.0.0.1:3000/mcp');
   * const tools = await conn.tools(AbortSignal.timeout(5000));
   * await conn.release();
   */
  acquire(server: string | McpServerEntryInput, kind: McpTransportKind = 'streamable-http'): McpConnection {
    if (this.#closed) throw new Error('McpClientPool is closed');
    const target: McpServerEntryInput = typeof server === 'string' ? { url: server, type: kind === 'sse' ? 'sse' : 'http' } : server;
    const key = JSON.stringify(target);
    let entry = this.#entries.get(key);
    if (!entry) {
      const created: PoolEntry = new PoolEntry(target, new Semaphore(this.maxConcurrency), this.#clientInfo, () => {
        if (this.#entries.get(key) === created) this.#entries.delete(key);
        this.#connects += created.connects;
        this.#toolListChanges += created.toolListChanges;
      });
      entry = created;
      this.#entries.set(key, entry);
    }
    entry.refs++;
    const held = entry;
    let released = false;
    return {
      tools: (signal) => held.tools(signal),
      callTool: (name, args, signal) => held.callTool(name, args, signal),
      release: async () => {
        if (released) return;
        released = true;
        await held.releaseRef();
      },
    };
  }

  /**
   * Figures for tests and logs: servers held, connections opened so far, peak concurrency per server,
   * tool-list change notifications received so far.
   */
  stats(): { servers: number; connects: number; peakConcurrency: Record<string, number>; toolListChanges: number } {
    let connects = this.#connects;
    let toolListChanges = this.#toolListChanges;
    const peakConcurrency: Record<string, number> = {};
    for (const entry of this.#entries.values()) {
      connects += entry.connects;
      toolListChanges += entry.toolListChanges;
      peakConcurrency[entry.url] = entry.semaphore.peak;
    }
    return { servers: this.#entries.size, connects, peakConcurrency, toolListChanges };
  }

  /** Closes every connection; later `acquire` calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => entry.close()));
  }
}
