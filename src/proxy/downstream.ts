/**
 * One downstream MCP server behind the proxy (seed Phase 2): connected on first use, retried with
 * exponential backoff, guarded by a circuit breaker, reconnected after a crash, and its child
 * process closed with the proxy.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { backoffMs, CircuitBreaker, CircuitOpenError, withTimeout, type BreakerState, type Clock } from './breaker.ts';
import type { ServerConfig } from './config.ts';

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
}

export interface DownstreamInfo {
  name: string;
  transport: 'stdio' | 'http';
  description?: string;
  state: ConnectionState;
  circuit: BreakerState;
  connected_at: string | null;
  last_error: string | null;
  retry_at: string | null;
  pid: number | null;
}

const STDERR_TAIL = 2000;

/**
 * A lazily connected downstream server.
 * @example
 *   const fs = new Downstream('fs', { command: process.execPath, args: ['fixtures/servers/filesystem.ts'] }, options);
 *   const result = await fs.callTool('read_file', { path: 'a.txt' }, 30_000);
 */
export class Downstream {
  readonly name: string;
  readonly config: ServerConfig;
  readonly breaker: CircuitBreaker;
  state: ConnectionState = 'configured';
  connectedAt: number | null = null;
  lastError: string | null = null;
  private readonly options: DownstreamOptions;
  private client?: Client;
  private transport?: Transport;
  private connecting?: Promise<Client>;
  private stderrTail = '';
  private closed = false;

  constructor(name: string, config: ServerConfig, options: DownstreamOptions) {
    this.name = name;
    this.config = config;
    this.options = options;
    this.breaker = new CircuitBreaker({ threshold: options.breakerThreshold, resetMs: options.breakerResetMs, clock: options.clock });
  }

  /** The child's pid for stdio servers while connected. */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  /** Whether calls to this server fail fast right now. */
  get unavailable(): boolean {
    return this.breaker.state === 'open';
  }

  info(): DownstreamInfo {
    const retryAt = this.breaker.state === 'open' ? this.breaker.retryAt : undefined;
    return {
      name: this.name,
      transport: 'command' in this.config ? 'stdio' : 'http',
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
    if (this.state === 'connected' && this.client) return this.client;
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
        return client;
      } catch (err) {
        this.lastError = this.describe(err);
        if (this.closed) break;
        if (attempt < attempts - 1) await clock.sleep(backoffMs(attempt));
      }
    }
    this.state = 'failed';
    this.breaker.failure();
    throw new Error(`cannot connect to server "${this.name}" after ${attempts} attempt(s): ${this.lastError}`);
  }

  private describe(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? `${message} (stderr: ${tail})` : message;
  }

  private makeTransport(): Transport {
    if ('command' in this.config) {
      const transport = new StdioClientTransport({
        command: this.config.command,
        args: this.config.args,
        env: { ...getDefaultEnvironment(), ...(this.config.env ?? {}) },
        cwd: this.config.cwd,
        stderr: 'pipe',
      });
      this.stderrTail = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      return transport;
    }
    return new StreamableHTTPClientTransport(new URL(this.config.url), { requestInit: { headers: this.config.headers } });
  }

  private async connectOnce(): Promise<Client> {
    const transport = this.makeTransport();
    const client = new Client({ name: 'ghostwire-proxy', version: '0.1.0' }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.options.onToolsChanged?.(this.name);
    });
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.transport = undefined;
      if (this.closed) return;
      // A crash or exit: the next use reconnects.
      this.state = 'failed';
      this.lastError = this.describe(new Error('connection closed by server'));
      this.options.onDisconnect?.(this.name, this.lastError);
    };
    try {
      await withTimeout(client.connect(transport), this.options.connectionTimeoutMs,
        `connection timed out after ${this.options.connectionTimeoutMs} ms`, () => { void transport.close().catch(() => {}); });
    } catch (err) {
      await transport.close().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new Error('proxy closed while connecting');
    }
    this.client = client;
    this.transport = transport;
    return client;
  }

  /** All tools the server offers (following pagination). */
  async listTools(): Promise<Tool[]> {
    const client = await this.ensureConnected();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.connectionTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** Calls a tool; a timeout rejects with a message saying so. */
  async callTool(tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<CallToolResult> {
    const client = await this.ensureConnected();
    return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs })) as CallToolResult;
  }

  /** Closes the connection; a stdio child is terminated (SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await this.connecting?.catch(() => {});
    await (client ?? this.client)?.close().catch(() => {});
    this.transport = undefined;
    this.state = 'configured';
  }

  /** Drops the connection without closing the Downstream (used after a hang). */
  async disconnect(reason: string): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    this.state = 'failed';
    this.lastError = reason;
    await client?.close().catch(() => {});
  }

  /** Kills a stdio child at once (process exit path; must be synchronous). */
  killNow(): void {
    const pid = this.pid;
    if (pid) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  }
}
