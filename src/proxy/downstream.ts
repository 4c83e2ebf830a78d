/**
 * One downstream MCP server behind the proxy (seed Phase 2): connected on first use through the shared
 * MCP layer (src/mcp), retried with exponential backoff, guarded by a circuit breaker, reconnected after
 * a crash or a lost session, and its process group ended with the proxy.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
  type CallToolResult, type LoggingLevel, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { connect, listAllTools, transportOf, type McpSession } from '../mcp/index.ts';
import { backoffMs, CircuitOpenError, ServerCircuitBreaker, type BreakerState, type Clock } from './breaker.ts';
import type { ServerConfig } from './config.ts';
import type { DownstreamEvent } from './passthrough.ts';

export type ConnectionState = 'configured' | 'connecting' | 'connected' | 'failed';

export interface DownstreamOptions {
  connectionTimeoutMs: number;
  maxRetries: number;
  breakerThreshold: number;
  breakerResetMs: number;
  clock: Clock;
  /** The server announced tools/list_changed. */
  onToolsChanged?: (server: string) => void;
  /** A connection closed without the proxy asking (crash, server exit). */
  onDisconnect?: (server: string, reason: string) => void;
  /** The server connected, sent a log message, a resource update or a resources/prompts list_changed. */
  onEvent?: (server: string, event: DownstreamEvent) => void;
  /** The logging level asked of the proxy, applied to each server as it connects. */
  logLevel?: () => LoggingLevel | undefined;
}

export interface DownstreamInfo {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  description?: string;
  state: ConnectionState;
  circuit: BreakerState;
  connected_at: string | null;
  last_error: string | null;
  retry_at: string | null;
  pid: number | null;
}

/**
 * A lazily connected downstream server.
 * @example
 *   const fs = new Downstream('fs', { command: process.execPath, args: ['fixtures/servers/filesystem.ts'] }, options);
 *   const result = await fs.callTool('read_file', { path: 'a.txt' }, 30_000);
 */
export class Downstream {
  readonly name: string;
  readonly config: ServerConfig;
  readonly breaker: ServerCircuitBreaker;
  state: ConnectionState = 'configured';
  connectedAt: number | null = null;
  lastError: string | null = null;
  private readonly options: DownstreamOptions;
  private session?: McpSession;
  private connecting?: Promise<Client>;
  /** Aborts connections in progress when the proxy closes. */
  private readonly closer = new AbortController();
  private closed = false;
  /** Waiting between attempts (after a failure): callers that must not wait skip the server. */
  private backingOff = false;
  private readonly attemptWaiters = new Set<() => void>();

  constructor(name: string, config: ServerConfig, options: DownstreamOptions) {
    this.name = name;
    this.config = config;
    this.options = options;
    this.breaker = new ServerCircuitBreaker({ threshold: options.breakerThreshold, resetMs: options.breakerResetMs, clock: options.clock });
  }

  /** The server's pid (its process group) for stdio servers while connected. */
  get pid(): number | null {
    return this.session?.pid ?? null;
  }

  /** The connected client, if any (resources, prompts and completions pass through it). */
  get client(): Client | undefined {
    return this.state === 'connected' ? this.session?.client : undefined;
  }

  /** Whether calls to this server fail fast right now. */
  get unavailable(): boolean {
    return this.breaker.state === 'open';
  }

  info(): DownstreamInfo {
    const retryAt = this.breaker.state === 'open' ? this.breaker.retryAt : undefined;
    return {
      name: this.name,
      transport: this.session?.kind === 'sse' || transportOf(this.config) === 'sse' ? 'sse' : 'command' in this.config ? 'stdio' : 'http',
      description: this.config.description,
      state: this.state,
      circuit: this.breaker.state,
      connected_at: this.connectedAt === null ? null : new Date(this.connectedAt).toISOString(),
      last_error: this.lastError,
      retry_at: retryAt === undefined ? null : new Date(retryAt).toISOString(),
      pid: this.pid,
    };
  }

  /** Connects if needed (waiting on a connection in progress); fails fast while the breaker is open. */
  async ensureConnected(): Promise<Client> {
    if (this.closed) throw new Error(`proxy is closed; server "${this.name}" is not available`);
    if (this.state === 'connected' && this.session) return this.session.client;
    if (this.connecting) return this.connecting;
    if (!this.breaker.allow()) {
      const at = new Date(this.breaker.retryAt ?? 0).toISOString();
      throw new CircuitOpenError(`server "${this.name}" is unavailable (circuit open until ${at}); last error: ${this.lastError ?? 'unknown'}`);
    }
    this.connecting = this.connectWithRetry().finally(() => { this.connecting = undefined; });
    return this.connecting;
  }

  private async connectWithRetry(): Promise<Client> {
    this.state = 'connecting';
    const { maxRetries, clock } = this.options;
    // Half-open: one trial, no retries, so a still-broken server re-opens the breaker quickly.
    const attempts = this.breaker.state === 'half-open' ? 1 : maxRetries + 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      try {
        const client = await this.connectOnce();
        this.state = 'connected';
        this.connectedAt = clock.now();
        this.lastError = null;
        this.breaker.success();
        this.notifyAttempt();
        this.options.onEvent?.(this.name, { kind: 'connected', client });
        return client;
      } catch (err) {
        this.lastError = err instanceof Error ? err.message : String(err);
        if (this.closed) break;
        if (attempt < attempts - 1) {
          this.backingOff = true;
          this.notifyAttempt();
          try {
            // Closing the proxy ends the wait: close() must not sit out a backoff either.
            const closed = new Promise<void>((resolve) => this.closer.signal.addEventListener('abort', () => resolve(), { once: true }));
            await Promise.race([clock.sleep(backoffMs(attempt)), closed]);
            if (this.closed) break;
          } finally {
            this.backingOff = false;
          }
        }
      }
    }
    this.state = 'failed';
    this.breaker.failure();
    this.notifyAttempt();
    throw new Error(`cannot connect to server "${this.name}" after ${attempts} attempt(s): ${this.lastError}`);
  }

  /**
   * Resolves once the server is connected, has failed, or is waiting to retry after a failed attempt:
   * what a caller that must not sit out a backoff waits for.
   */
  settledOrBackingOff(): Promise<void> {
    if (this.state !== 'connecting' || this.backingOff) return Promise.resolve();
    return new Promise((resolve) => this.attemptWaiters.add(resolve));
  }

  private notifyAttempt(): void {
    for (const resolve of this.attemptWaiters) resolve();
    this.attemptWaiters.clear();
  }

  private async connectOnce(): Promise<Client> {
    const timeoutMs = this.config.connect_timeout !== undefined ? this.config.connect_timeout * 1000 : this.options.connectionTimeoutMs;
    let session: McpSession | undefined;
    try {
      session = await connect(this.config, {
        clientInfo: { name: 'ghostwire-proxy', version: '0.1.0' },
        timeoutMs,
        signal: AbortSignal.any([this.closer.signal, AbortSignal.timeout(timeoutMs)]),
        onToolsChanged: () => this.options.onToolsChanged?.(this.name),
        onLost: (reason) => {
          if (this.session === undefined || this.session !== session || this.closed) return;
          // A crash, an exit or a forgotten session: the next use reconnects.
          this.session = undefined;
          this.state = 'failed';
          this.lastError = `connection closed by server: ${reason}`;
          this.options.onDisconnect?.(this.name, this.lastError);
          void session.close();
        },
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if ((err as Error)?.name === 'TimeoutError' || /timed out|TimeoutError/i.test(message)) {
        const stderr = message.indexOf('(stderr:');
        throw new Error(`connection timed out after ${timeoutMs} ms${stderr >= 0 ? ` ${message.slice(stderr)}` : ''}`, { cause: err });
      }
      throw err;
    }
    if (this.closed) {
      await session.close();
      throw new Error('proxy closed while connecting');
    }
    const onEvent = this.options.onEvent;
    if (onEvent) {
      const { client } = session;
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => onEvent(this.name, { kind: 'log', params: n.params }));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onEvent(this.name, { kind: 'resource-updated', params: n.params }));
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => onEvent(this.name, { kind: 'resources-changed' }));
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => onEvent(this.name, { kind: 'prompts-changed' }));
    }
    const level = this.options.logLevel?.();
    if (level && session.client.getServerCapabilities()?.logging) await session.client.setLoggingLevel(level).catch(() => undefined);
    this.session = session;
    return session.client;
  }

  /** All tools the server offers (following pagination). */
  async listTools(): Promise<Tool[]> {
    const client = await this.ensureConnected();
    return listAllTools(client, { timeoutMs: this.options.connectionTimeoutMs });
  }

  /** Calls a tool; a timeout rejects with a message saying so. The entry's own `timeout` wins. */
  async callTool(tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<CallToolResult> {
    const client = await this.ensureConnected();
    const timeout = this.config.timeout !== undefined ? this.config.timeout * 1000 : timeoutMs;
    return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout })) as CallToolResult;
  }

  /** Closes the connection; a stdio server's process group is ended (SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closed = true;
    this.closer.abort(new Error('proxy closed'));
    await this.connecting?.catch(() => {});
    const session = this.session;
    this.session = undefined;
    await session?.close();
    this.state = 'configured';
  }

  /** Drops the connection without closing the Downstream (used after a hang). */
  async disconnect(reason: string): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.state = 'failed';
    this.lastError = reason;
    await session?.close();
  }

  /** Kills a stdio server's process group at once (process exit path; must be synchronous). */
  killNow(): void {
    this.session?.killNow();
  }
}
