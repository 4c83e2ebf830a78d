/**
 * connect(entry): one MCP client session for any `.mcp.json` entry — stdio in its own process group,
 * Streamable HTTP (falling back to SSE on a 4xx, as the spec's backwards-compatibility section says),
 * or SSE — with "session gone" detection and a close that leaves nothing running.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { isStdioEntry, transportOf, type McpServerEntryInput, type TransportKind } from './config.ts';
import { GroupStdioTransport } from './stdio-transport.ts';

export interface ConnectOptions {
  /** How the client introduces itself. */
  clientInfo?: { name: string; version: string };
  capabilities?: ClientCapabilities;
  /** Bound for spawning/handshake and initialize; default the entry's `connect_timeout`, else 30 s. */
  timeoutMs?: number;
  /** Abort connecting; a stdio child is ended within a second. */
  signal?: AbortSignal;
  /** After SIGTERM, how long a stdio server's group gets before SIGKILL. Default 2000 ms. */
  killGraceMs?: number;
  /** The server announced notifications/tools/list_changed. */
  onToolsChanged?: () => void;
  /** The session went away without close() being called (process exit, dead stream, unknown session). */
  onLost?: (reason: string) => void;
}

/** A connected server. */
export interface McpSession {
  readonly client: Client;
  readonly transport: Transport;
  /** The transport actually in use (after any fallback). */
  readonly kind: TransportKind;
  /** The stdio server's pid (its process group id), while running. */
  readonly pid: number | null;
  /** The tail of a stdio server's stderr. */
  readonly stderr: string;
  /** Why the session went away on its own, once it did. */
  readonly lost: string | undefined;
  readonly closed: boolean;
  /** Ends the session (HTTP: DELETE the session; stdio: the whole process group). Idempotent. */
  close(): Promise<void>;
  /** Synchronous SIGKILL of a stdio server's group, for process-exit paths. */
  killNow(): void;
}

const ABORT_GRACE_MS = 300;

/** Settles with `promise`, or rejects when `signal` aborts or `ms` pass, whichever comes first. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `connecting timed out after ${ms} ms`)), Math.min(ms, 2 ** 31 - 1));
    onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new Error('connect aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return Promise.race([promise, stop]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}

/**
 * Whether an error means the server no longer has our session (so a new one is needed): an HTTP 404
 * for the session, a broken SSE stream, or a closed connection.
 * @example
 *   if (isSessionGone(error)) session = await connect(entry);
 */
export function isSessionGone(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  if (error instanceof SseError) return true;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return true;
  return /Error POSTing to endpoint \(HTTP 404\)/.test((error as Error)?.message ?? '');
}

function httpTransport(kind: 'streamable-http' | 'sse', url: URL, headers: Record<string, string> | undefined): Transport {
  const requestInit = headers ? { headers } : undefined;
  // The SSE transport sends requestInit's headers on its event stream as well as on its POSTs.
  if (kind === 'sse') return new SSEClientTransport(url, { requestInit });
  // A short first delay before resuming a broken response stream: a lost session is noticed quickly.
  return new StreamableHTTPClientTransport(url, {
    requestInit,
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
  });
}

/** A 4xx on the first POST means an older server: try SSE (spec, "Backwards Compatibility"). */
function wantsSseFallback(error: unknown): boolean {
  const code = error instanceof StreamableHTTPError ? (error.code ?? 0) : 0;
  return code >= 400 && code < 500 && code !== 401 && code !== 403;
}

/**
 * Connects to one `.mcp.json` entry and initializes the MCP session.
 * @example
 *   const session = await connect({ command: process.execPath, args: ['server.ts'] }, { timeoutMs: 10_000 });
 *   try { await session.client.listTools(); } finally { await session.close(); }
 */
export async function connect(entry: McpServerEntryInput, options: ConnectOptions = {}): Promise<McpSession> {
  const kind = transportOf(entry);
  if (isStdioEntry(entry)) {
    const transport = new GroupStdioTransport({ command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd, killGraceMs: options.killGraceMs });
    return open(kind, transport, options, entry.connect_timeout);
  }
  const url = new URL(entry.url);
  if (kind === 'sse') return open('sse', httpTransport('sse', url, entry.headers), options, entry.connect_timeout);
  try {
    return await open('streamable-http', httpTransport('streamable-http', url, entry.headers), options, entry.connect_timeout);
  } catch (error) {
    if (!wantsSseFallback(error) || options.signal?.aborted) throw error;
    return open('sse', httpTransport('sse', url, entry.headers), options, entry.connect_timeout);
  }
}

async function open(kind: TransportKind, transport: Transport, options: ConnectOptions, entrySeconds: number | undefined): Promise<McpSession> {
  const client = new Client(options.clientInfo ?? { name: 'ghostwire', version: '0.1.0' }, { capabilities: options.capabilities ?? {} });
  const stdio = transport instanceof GroupStdioTransport ? transport : undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  let lost: string | undefined;
  const markLost = (reason: string): void => {
    if (closed || lost !== undefined) return;
    lost = reason;
    options.onLost?.(reason);
  };
  if (options.onToolsChanged) {
    const notify = options.onToolsChanged;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => notify());
  }
  client.onclose = () => {
    const stderr = stdio?.stderr.trim();
    markLost(stdio ? `the server process exited${stderr ? ` (stderr: ${stderr.slice(-300)})` : ''}` : 'the connection closed');
    closed = true;
  };
  client.onerror = (error) => {
    // A broken SSE stream, or a GET stream the server no longer knows: the session is gone. (A 404 on
    // our own POST is not reported here: that request fails by itself.)
    const streamGone = error instanceof StreamableHTTPError && error.code === 404 && !error.message.includes('POSTing');
    if (error instanceof SseError || streamGone) {
      markLost(error.message);
      void close();
    }
  };
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const wasClosed = closed;
      closed = true;
      if (!wasClosed && transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        // Be polite: end the server-side session; a dead server must not stall close().
        await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
      }
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
    })();
    return closing;
  };
  const timeout = options.timeoutMs ?? (entrySeconds !== undefined ? entrySeconds * 1000 : 30_000);
  try {
    options.signal?.throwIfAborted();
    // The SDK passes the signal to initialize only, not to the transport's start (an SSE handshake
    // that never sends its endpoint event would wait forever): race it too.
    await raceSignal(client.connect(transport, { timeout, signal: options.signal }), options.signal, timeout);
  } catch (error) {
    // An abort must return at once: shorten the group's grace so close() ends within a second.
    if (stdio && options.signal?.aborted) stdio.killGraceMs = Math.min(stdio.killGraceMs, ABORT_GRACE_MS);
    await close();
    const stderr = stdio?.stderr.trim();
    if (stderr && error instanceof Error) error.message += ` (stderr: ${stderr.slice(-500)})`;
    throw error;
  }
  return {
    client,
    transport,
    kind,
    get pid() {
      return stdio?.pid ?? null;
    },
    get stderr() {
      return stdio?.stderr ?? '';
    },
    get lost() {
      return lost;
    },
    get closed() {
      return closed;
    },
    close,
    killNow: () => stdio?.killNow(),
  };
}
