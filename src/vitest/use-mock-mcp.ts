/**
 * Mock MCP servers in Vitest tests. `useMockMCP(scenario)` (inside a test) and the `mockMCP`
 * fixture give a mock MCP server reachable the ways code under test connects: a URL answered
 * in-process through MSW (no port), a connected in-memory transport, a real port, or a stdio
 * `.mcp.json` entry that spawns `ghostwire mcp serve --stdio`. Everything closes after the test.
 *
 * In-process URLs are unique per mock (`http://{name}-{n}.mcp.ghostwire.test/mcp`) and routed by
 * one process-wide route of the in-process layer, so concurrent tests never see each other's servers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { onTestFinished, TestRunner } from 'vitest';
import type { MCPScenarioSource, MockMCP, MockMCPOptions } from '../mcp/mock/mock-mcp.ts';
import type { MockMCPServer } from '../mcp/mock/node-server.ts';
import type { MCPGolden, MCPGoldenOptions, MCPServerEntry } from '../mcp/mock/mcp-golden.ts';
import { inProcessLayer, type Route } from './in-process.ts';
import { loadSync } from './load-sync.ts';
import './setup.ts';

/** A `.mcp.json` server entry (the shape Claude Desktop, Cursor and VS Code read). */
export type McpJsonEntry = McpJsonStdioEntry | McpJsonHttpEntry;
export interface McpJsonStdioEntry {
  command: string;
  args: string[];
}
export interface McpJsonHttpEntry {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
}

/** Anything answering Streamable HTTP for an in-process host: a mock or an MCP golden. */
interface Routed {
  handle(request: Request): Promise<Response> | undefined;
}

interface Registry {
  mocks: Map<string, Routed>;
  seq: number;
}

// The mock MCP server (the MCP SDK's Server, its validator) loads with the first mock: every test file that
// imports ghostwire/vitest would pay for it otherwise, most of them never mocking an MCP server.
const mockMCP = () => loadSync<typeof import('../mcp/mock/mock-mcp.ts')>('../mcp/mock/mock-mcp');
const nodeServer = () => loadSync<typeof import('../mcp/mock/node-server.ts')>('../mcp/mock/node-server');
// The same for the MCP clients and the leak scanner, which only tests that record or replay MCP servers use.
const mcpGolden = () => loadSync<typeof import('../mcp/mock/mcp-golden.ts')>('../mcp/mock/mcp-golden');

/** The reserved domain of in-process mock URLs (`.test` never resolves). */
const IN_PROCESS_DOMAIN = '.ghostwire.test';

/**
 * The worker's registry of in-process MCP hosts, routed by the in-process layer as one process-wide
 * route: every host under the domain is claimed, registered or not, so a mock that is gone answers a
 * JSON-RPC 404 and its URL never falls through to a DNS lookup.
 */
function registry(): Registry {
  const layer = inProcessLayer();
  const found = layer.processRoutes.find((r): r is Route & { registry: Registry } => 'registry' in r);
  if (found) return found.registry;
  const created: Registry = { mocks: new Map(), seq: 0 };
  const route: Route & { registry: Registry } = {
    registry: created,
    claims: (request) => new URL(request.url).hostname.endsWith(IN_PROCESS_DOMAIN),
    handle: async (request) =>
      (await created.mocks.get(new URL(request.url).host)?.handle(request)) ??
      Response.json({ jsonrpc: '2.0', error: { code: -32000, message: `no MCP endpoint at ${request.url}` }, id: null }, { status: 404 }),
  };
  layer.processRoutes.push(route);
  return created;
}

/** Interception on (MSW loaded, ghostwire's handlers in whichever server listens). */
function ensureRouted(): void {
  inProcessLayer().intercept();
}

function bin(): string {
  const pkg = createRequire(import.meta.url).resolve('ghostwire/package.json');
  return join(dirname(pkg), 'bin/ghostwire.js');
}

/** One test's mock MCP server and the ways to reach it. */
export class MockMCPTestServer {
  readonly mock: MockMCP;
  readonly #source: MCPScenarioSource;
  readonly #host: string;
  readonly #cleanups: Array<() => Promise<void> | void> = [];
  #url: string | undefined;

  constructor(source: MCPScenarioSource, options: MockMCPOptions = {}) {
    this.#source = source;
    this.mock = mockMCP().createMockMCP(source, options);
    const reg = registry();
    const label = this.mock.scenario.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 40) || 'mcp';
    this.#host = `${label}-${++reg.seq}.mcp${IN_PROCESS_DOMAIN}`;
  }

  /** Streamable HTTP answered in this process through MSW (for clients that use fetch): no port. */
  get url(): string {
    if (!this.#url) {
      const reg = registry();
      reg.mocks.set(this.#host, this.mock);
      this.#cleanups.push(() => void reg.mocks.delete(this.#host));
      this.#url = `http://${this.#host}/mcp`;
    }
    ensureRouted();
    return this.#url;
  }

  /** `{ type: 'http', url }` for `url` (in-process, through MSW). */
  get httpEntry(): McpJsonHttpEntry {
    return { type: 'http', url: this.url };
  }

  /** A connected in-memory transport: `await client.connect(await server.connect())`. */
  connect(): Promise<Transport> {
    return this.mock.connect();
  }

  /** The same mock on a real 127.0.0.1 port, for clients in other processes; `{ type: 'http', url }`. */
  async listen(): Promise<McpJsonHttpEntry> {
    // The server announces its port: the in-process layer lets the client's fetch to it through MSW.
    const server: MockMCPServer = await nodeServer().startMockMCPServer({ mock: this.mock });
    this.#cleanups.push(() => server.close());
    return { type: 'http', url: server.url };
  }

  /**
   * A stdio entry spawning `ghostwire mcp serve --stdio` with this scenario. The process has its
   * own copy of the scenario: its calls do not show in `mock` (whoever spawns it ends it).
   */
  stdioEntry(): McpJsonStdioEntry {
    let file: string;
    if (typeof this.#source === 'string') file = resolve(this.#source);
    else {
      const dir = mkdtempSync(join(tmpdir(), 'gw-mock-mcp-'));
      this.#cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      file = join(dir, 'scenario.json');
      writeFileSync(file, JSON.stringify(this.mock.scenario));
    }
    return { command: process.execPath, args: [bin(), 'mcp', 'serve', '--stdio', '--scenarios', file] };
  }

  assertAllConsumed(): void {
    this.mock.assertAllConsumed();
  }

  /** Ends everything this test started for the mock. */
  async close(): Promise<void> {
    for (const c of this.#cleanups.splice(0).reverse()) await c();
    await this.mock.close();
  }
}

/**
 * A mock MCP server for the rest of this test (a scenario object, builder or JSON file path),
 * closed when the test finishes. In `test.concurrent` tests use the `mockMCP` fixture.
 * @example
 *   test('agent reads issues', async () => {
 *     const github = useMockMCP('fixtures/mcp/github.json');
 *     await runAgent({ mcpServers: { github: github.httpEntry } });
 *     github.assertAllConsumed();
 *   });
 */
export function useMockMCP(source: MCPScenarioSource, options: MockMCPOptions = {}): MockMCPTestServer {
  if ((TestRunner.getCurrentTest() as { concurrent?: boolean } | undefined)?.concurrent) {
    throw new Error('useMockMCP() in a test.concurrent test: use the mockMCP fixture (its cleanup belongs to its own test)');
  }
  const server = new MockMCPTestServer(source, options);
  onTestFinished(() => server.close());
  return server;
}

/**
 * Records (GHOSTWIRE_RECORD=1) or replays the MCP servers of a `.mcp.json` for this test: hand
 * `golden.config` to the code under test; its servers are in-process URLs (MSW). Replay starts no
 * process. The recording is written (redacted) when the test finishes.
 * @example
 *   test('triage', async () => {
 *     const mcp = await useMCPGolden({ mcpServers: { github: { command: 'github-mcp' } } }, { file: 'goldens/triage.mcp.json' });
 *     await mcpGhost({ ..., serverConfig: mcp.config });
 *   });
 */
export async function useMCPGolden(config: { mcpServers: Record<string, MCPServerEntry> }, options: MCPGoldenOptions): Promise<MCPGolden> {
  const reg = registry();
  const golden = await mcpGolden().mcpGolden(config, {
    ...options,
    urlFor:
      options.urlFor ??
      ((name) => {
        const host = `${name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 40) || 'mcp'}-${++reg.seq}.mcp-golden${IN_PROCESS_DOMAIN}`;
        return `http://${host}/mcp`;
      }),
  });
  const routedHosts = [...new Set(Object.values(golden.config.mcpServers).map((e) => new URL(e.url).host))];
  for (const host of routedHosts) reg.mocks.set(host, golden);
  ensureRouted();
  onTestFinished(async () => {
    for (const host of routedHosts) reg.mocks.delete(host);
    await golden.close();
  });
  return golden;
}
