import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { HttpSessions, type HttpSessionOptions } from './http.ts';
import { JournalingTransport, MCPJournal } from './journal.ts';
import { loadMCPScenario, parseMCPScenario } from './load.ts';
import type { MCPScenario, MCPScenarioInput } from './schema.ts';
import { createScenarioServer } from './server.ts';
import { ScenarioState, type MCPToolCall } from './state.ts';

/**
 * `createMockMCP(scenario)`: one mock MCP server, reachable over every transport at once —
 * in-memory pairs, Streamable HTTP (`handle(Request)`, for MSW or a port) and stdio — sharing
 * one state: answers used up, `after` rules, the journal and the calls.
 */

/** Anything with `build()` returning a scenario (the fluent builder). */
export interface MCPScenarioBuildable {
  build(): MCPScenarioInput;
}

export type MCPScenarioSource = MCPScenarioInput | MCPScenarioBuildable | string;

export interface MockMCPOptions {
  /** Journal size limit in bytes (default 16 MiB); the oldest entries go first. */
  journalLimitBytes?: number;
  /**
   * Streamable HTTP sessions (`handle`, MSW, a port): at most `maxSessions` (default 256) open at once,
   * each closed after `sessionIdleMs` (default 30 minutes; 0: never) with no request in flight and
   * no open stream, so clients that vanish without DELETE cannot fill the table.
   */
  http?: HttpSessionOptions;
}

function toScenario(source: MCPScenarioSource): MCPScenario {
  if (typeof source === 'string') return loadMCPScenario(source);
  if (typeof (source as MCPScenarioBuildable).build === 'function') return parseMCPScenario((source as MCPScenarioBuildable).build());
  return parseMCPScenario(source);
}

export class MockMCP {
  readonly scenario: MCPScenario;
  /** Every JSON-RPC message of every connection, both ways. */
  readonly journal: MCPJournal;
  /**
   * What a crash does. By default every connection closes (in-memory pairs close, HTTP sessions
   * end and later requests get 404); `ghostwire mcp serve --stdio` exits the process instead.
   */
  onCrash: () => void;
  readonly #state: ScenarioState;
  /** Each connection's server, with the resource URIs it subscribed to. */
  readonly #servers = new Map<Server, Set<string>>();
  readonly #waiters = new Set<() => void>();
  readonly #http: HttpSessions;
  #connections = 0;
  #closed = false;

  constructor(scenario: MCPScenario, options: MockMCPOptions = {}) {
    this.scenario = scenario;
    this.journal = new MCPJournal(options.journalLimitBytes);
    this.#state = new ScenarioState(scenario);
    this.#http = new HttpSessions(async (transport, connection) => void (await this.#attach(transport, connection)), options.http);
    this.onCrash = () => void this.disconnectAll();
  }

  /** Every tools/call so far: tool, arguments, the answer given (or null) and the near misses. */
  get calls(): readonly MCPToolCall[] {
    return this.#state.calls;
  }

  /** Failed checks on the client's answers to sampling and elicitation requests. */
  get failures(): readonly string[] {
    return this.#state.failures;
  }

  /** Resource URIs the clients subscribed to. */
  get subscriptions(): ReadonlySet<string> {
    return this.#state.subscriptions;
  }

  async #attach(transport: Transport, connection: string): Promise<Server> {
    if (this.#closed) throw new Error('ghostwire: this mock MCP server is closed');
    const subscriptions = new Set<string>();
    const host = {
      state: this.#state,
      crash: () => this.onCrash(),
      wait: (ms: number, signal: AbortSignal) => this.#wait(ms, signal),
      broadcast: (n: { method: string; params?: Record<string, unknown> }, uri?: string) => this.#broadcast(n, uri),
      subscriptions,
    };
    const server = createScenarioServer(host, connection);
    this.#servers.set(server, subscriptions);
    server.onclose = () => this.#servers.delete(server);
    await server.connect(new JournalingTransport(transport, this.journal, connection));
    return server;
  }

  /** A notification to every connection (those subscribed to `uri`, when given); one that cannot take it is skipped. */
  #broadcast(notification: { method: string; params?: Record<string, unknown> }, uri?: string): void {
    for (const [server, subscribed] of this.#servers) {
      if (uri === undefined || subscribed.has(uri)) void server.notification(notification as never).catch(() => {});
    }
  }

  /** Resolves after `ms`; rejects when the call is cancelled or the mock closes (nothing is left waiting). */
  #wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => done(resolve), ms) : undefined;
      const stop = () => done(() => reject(new Error('ghostwire: the call was cancelled or the mock closed')));
      const done = (settle: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        this.#waiters.delete(stop);
        settle();
      };
      if (signal.aborted || this.#closed) return stop();
      signal.addEventListener('abort', stop);
      this.#waiters.add(stop);
    });
  }

  /**
   * Serves this mock on any server transport (stdio, your own); the journal names it `connection`.
   * @example
   *   await mock.serve(new StdioServerTransport(), 'stdio');
   */
  serve(transport: Transport, connection = `conn-${++this.#connections}`): Promise<Server> {
    return this.#attach(transport, connection);
  }

  /**
   * A connected in-memory pair: hand the returned client transport to an SDK `Client`.
   * @example
   *   const client = new Client({ name: 't', version: '1' });
   *   await client.connect(await mock.connect());
   */
  async connect(): Promise<Transport> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await this.#attach(serverSide, `mem-${++this.#connections}`);
    return clientSide;
  }

  /**
   * Answers one Streamable HTTP request (POST, GET and DELETE on the MCP endpoint), sessions by
   * Mcp-Session-Id. Used by the MSW handlers and the port server; no Host/Origin checks here.
   * @example
   *   http.all('http://mcp.test/mcp', ({ request }) => mock.handle(request));
   */
  handle(request: Request): Promise<Response> {
    if (this.#closed) return Promise.resolve(Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'ghostwire: the mock MCP server is closed' }, id: null }, { status: 503 }));
    return this.#http.handle(request);
  }

  /** Streamable HTTP sessions open now (ended by DELETE, idle expiry, a crash or close). */
  get httpSessions(): number {
    return this.#http.size;
  }

  /** Closes every connection (what a crash does by default); the mock still accepts new ones. */
  async disconnectAll(): Promise<void> {
    await this.#http.closeAll();
    await Promise.all([...this.#servers.keys()].map((s) => s.close().catch(() => {})));
  }

  /** Answers that still expect calls. */
  unconsumed(): string[] {
    return this.#state.unconsumed();
  }

  /**
   * Throws when an answer still expects calls, or a check on a client's answer failed.
   * @example
   *   mock.assertAllConsumed();
   */
  assertAllConsumed(): void {
    const left = this.unconsumed();
    const failed = this.#state.failures;
    if (!left.length && !failed.length) return;
    const parts = [];
    if (left.length) parts.push(`answers never given:\n${left.map((l) => `  ${l}`).join('\n')}`);
    if (failed.length) parts.push(`checks on the client's answers failed:\n${failed.map((l) => `  ${l}`).join('\n')}`);
    throw new Error(`ghostwire: mock MCP server ${JSON.stringify(this.scenario.name)}: ${parts.join('\n')}`);
  }

  /** Back to the scenario's start (answers, counters, tool list, calls, journal); connections stay. */
  reset(): void {
    this.#state.reset();
    this.journal.clear();
  }

  /** Ends every connection and every waiting call; later connections are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of [...this.#waiters]) stop();
    await this.disconnectAll();
  }
}

/**
 * A mock MCP server from a scenario (an object, a builder, or a path to a JSON file).
 * @example
 *   const mock = createMockMCP({ name: 'github', tools: [{ name: 'search_issues', answers: [{ text: 'none found' }] }] });
 *   const client = new Client({ name: 'test', version: '1.0.0' });
 *   await client.connect(await mock.connect());
 */
export function createMockMCP(scenario: MCPScenarioSource, options: MockMCPOptions = {}): MockMCP {
  return new MockMCP(toScenario(scenario), options);
}
