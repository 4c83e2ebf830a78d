// The proxy behind an MCP golden: a real stdio server (fixtures/servers/shifting.ts) changes its tools on
// its 2nd call; the proxy hears tools/list_changed, re-indexes, and its clients see the new tools. The
// recording replays that change at the same point, so the proxy re-indexes the same way with no server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { useMCPGolden } from '../vitest/use-mock-mcp.ts';
import type { MCPGolden } from '../mcp/mock/mcp-golden.ts';
import { createProxy } from './create-proxy.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-proxy-golden-'));
const file = join(dir, 'shifting.mcp.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const json = (r: unknown): any => (r as CallToolResult).structuredContent ?? JSON.parse(((r as CallToolResult).content[0] as { text: string }).text);

/** Two calls through the proxy, then what its index says about the server's tools. */
async function run(golden: MCPGolden, store: string): Promise<Record<string, unknown>> {
  const proxy = createProxy({ mcpServers: golden.config.mcpServers }, { storePath: join(dir, store), embedder: null, llm: null });
  const client = new Client({ name: 'proxy-user', version: '1.0.0' });
  let announced = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void announced++);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await proxy.connect(a);
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<any> => json(await client.callTool({ name, arguments: args }));
  const through = (tool: string, args: Record<string, unknown>) => client.callTool({ name: 'call_tool', arguments: { server: 'shifting', tool, arguments: args } }) as Promise<CallToolResult>;
  const names = async (): Promise<string[]> => (await call('list_tools', { server: 'shifting' })).tools.map((t: { name: string }) => t.name).sort();
  try {
    const before = await names();
    await through('search', { q: 'plans' });
    const afterFirst = await names();
    await through('draft', { title: 'retro' });
    await expect.poll(names).toContain('archive');
    await expect.poll(() => announced).toBeGreaterThan(0);
    const search = (await call('get_tool_schema', { server: 'shifting', tool: 'search' })).description;
    const archived = (await through('archive', { uri: 'memo://c' })).content;
    return { before, afterFirst, after: await names(), search, archived };
  } finally {
    await client.close();
    await proxy.close();
  }
}

describe('the proxy re-indexes on a recorded tools/list_changed', () => {
  let recorded: Record<string, unknown>;

  it('records the server changing its tools under the proxy', async () => {
    const golden = await useMCPGolden({ mcpServers: { shifting: stdioFixture('shifting') } }, { file, mode: 'record' });
    recorded = await run(golden, 'record.db');
    await golden.close();
    expect(recorded).toEqual({
      before: ['draft', 'search'],
      afterFirst: ['draft', 'search'],
      after: ['archive', 'search'],
      search: 'Search memos (v2).',
      archived: [{ type: 'text', text: 'archived memo://c' }],
    });
  });

  it('re-indexes the same way in replay, with no server to start', async () => {
    const golden = await useMCPGolden({ mcpServers: { shifting: { command: join(dir, 'no-such-server') } } }, { file, mode: 'replay' });
    expect(await run(golden, 'replay.db')).toEqual(recorded);
  });
});
