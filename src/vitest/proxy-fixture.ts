// The `proxy` fixture: starts ghostwire MCP proxies for a test, each with a temp metrics store and an
// MCP SDK client already connected over an in-memory transport; everything is closed after the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createProxy, type CreateProxyOptions, type McpProxy } from '../proxy/create-proxy.ts';
import type { ProxyConfig, ProxyConfigInput } from '../proxy/config.ts';

export interface StartedProxy {
  proxy: McpProxy;
  /** An MCP client connected to the proxy, as a user's agent would be. */
  client: Client;
  /** Calls one of the proxy's own tools and returns its parsed JSON text answer (or the raw text). */
  call(tool: string, args?: Record<string, unknown>): Promise<unknown>;
}

export interface ProxyFixture {
  /** Starts a proxy in front of `config`'s servers; the store is a temp file unless `storePath` is given. */
  start(config: ProxyConfigInput | ProxyConfig | string, options?: CreateProxyOptions): Promise<StartedProxy>;
}

function parseText(result: Awaited<ReturnType<Client['callTool']>>): unknown {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  const text = content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The fixture function for `test.extend`.
 * @example
 *   const it = test.extend<{ proxy: ProxyFixture }>({ proxy: proxyFixture });
 *   it('lists servers', async ({ proxy }) => {
 *     const { call } = await proxy.start({ mcpServers: { db: { command: process.execPath, args: ['fixtures/servers/sqlite.ts'] } } });
 *     expect(await call('list_mcp_servers')).toMatchObject({ servers: [expect.objectContaining({ name: 'db' })] });
 *   });
 */
export async function proxyFixture({}: object, use: (fixture: ProxyFixture) => Promise<void>): Promise<void> {
  const started: Array<{ proxy: McpProxy; client: Client; dir: string }> = [];
  const fixture: ProxyFixture = {
    async start(config, options = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'ghostwire-proxy-'));
      const proxy = createProxy(config, { storePath: join(dir, 'metrics.db'), ...options });
      const client = new Client({ name: 'ghostwire-proxy-fixture', version: '1.0.0' });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      started.push({ proxy, client, dir });
      await proxy.connect(serverSide);
      await client.connect(clientSide);
      const call = async (tool: string, args: Record<string, unknown> = {}) => parseText(await client.callTool({ name: tool, arguments: args }));
      return { proxy, client, call };
    },
  };
  try {
    await use(fixture);
  } finally {
    // Every proxy is closed and its temp dir removed even when one close fails; the first failure is rethrown.
    let failure: unknown = null;
    for (const { proxy, client, dir } of started.reverse()) {
      await client.close().catch(() => {});
      await proxy.close().catch((error: unknown) => (failure ??= error));
      rmSync(dir, { recursive: true, force: true });
    }
    if (failure !== null) throw failure;
  }
}
