// MCP goldens replay what changes between calls: a real stdio server (fixtures/servers/shifting.ts)
// changes its tools, resources and prompts (added, removed, described anew) on its 2nd call and
// rewrites a subscribed resource. An SDK
// client sees the list_changed and resources/updated notifications after that call, and the new lists
// and contents when it fetches them again — while recording, and the same when the recording is
// replayed with no server at all (the replay's entry names a command that does not exist).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { stdioFixture } from '../../../fixtures/servers/launch.ts';
import { useMCPGolden } from '../../vitest/use-mock-mcp.ts';
import type { MCPGolden } from './mcp-golden.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-golden-shifting-'));
const file = join(dir, 'shifting.mcp.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOTIFIED = [
  'notifications/prompts/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated memo://a',
  'notifications/tools/list_changed',
  'notifications/tools/list_changed',
  'notifications/tools/list_changed',
];

/** What an SDK user sees across the server's change: lists, contents, answers and notifications, step by step. */
async function run(golden: MCPGolden): Promise<Record<string, unknown>> {
  const notified: string[] = [];
  const client = new Client({ name: 'shifting-user', version: '1.0.0' });
  for (const schema of [ToolListChangedNotificationSchema, ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema]) {
    client.setNotificationHandler(schema, (n) => void notified.push(n.method));
  }
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void notified.push(`${n.method} ${n.params.uri}`));
  await client.connect(new StreamableHTTPClientTransport(new URL(golden.config.mcpServers.shifting.url)));
  const text = (r: Awaited<ReturnType<Client['callTool']>>): string => (r.content as Array<{ text: string }>)[0].text;
  const lists = async () => ({
    tools: (await client.listTools()).tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    resources: (await client.listResources()).resources.map((r) => [r.uri, r.description]),
    prompts: (await client.listPrompts()).prompts.map((p) => [p.name, p.description]),
    memoA: ((await client.readResource({ uri: 'memo://a' })).contents[0] as { text: string }).text,
  });
  try {
    const before = await lists();
    await client.subscribeResource({ uri: 'memo://a' });
    const first = text(await client.callTool({ name: 'search', arguments: { q: 'plans' } }));
    // A round trip after the first call: anything it set off has arrived by now (nothing should have).
    await client.ping();
    const afterFirst = [...notified];
    const second = text(await client.callTool({ name: 'draft', arguments: { title: 'retro' } }));
    await expect.poll(() => notified.length).toBe(NOTIFIED.length);
    const after = await lists();
    const archived = text(await client.callTool({ name: 'archive', arguments: { uri: 'memo://c' } }));
    const searched = text(await client.callTool({ name: 'search', arguments: { q: 'plans', limit: 2 } }));
    // The server answers a removed tool with an error result, the replay with a JSON-RPC error: both say it is gone.
    const gone = await client.callTool({ name: 'draft', arguments: { title: 'again' } }).then((r) => r.isError === true, () => true);
    return { before, first, afterFirst, second, notified: [...notified].sort(), after, archived, searched, gone };
  } finally {
    await client.close();
  }
}

describe('MCP goldens replay list changes and resource updates between calls', () => {
  let recorded: Record<string, unknown>;

  it('records the change after the 2nd call as `after` rules, with what the client fetched next', async () => {
    const golden = await useMCPGolden({ mcpServers: { shifting: stdioFixture('shifting') } }, { file, mode: 'record' });
    recorded = await run(golden);
    await golden.close();
    const search = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    expect(recorded).toMatchObject({
      before: { tools: [{ name: 'search', description: 'Search memos.' }, { name: 'draft' }], resources: [['memo://a', undefined], ['memo://b', undefined]], prompts: [['daily', 'The daily summary.']], memoA: 'memo a, first draft' },
      first: 'found plans',
      afterFirst: [],
      second: 'drafted retro',
      notified: NOTIFIED,
      after: { tools: [{ name: 'search', description: 'Search memos (v2).' }, { name: 'archive' }], resources: [['memo://a', undefined], ['memo://b', 'Memo b, kept for the record.'], ['memo://c', undefined]],
        prompts: [['daily', 'The daily summary, with open questions.'], ['weekly', 'The weekly summary.']],
        memoA: 'memo a, second draft',
      },
      archived: 'archived memo://c',
      searched: 'found plans',
      gone: true,
    });
    expect((recorded.before as { tools: Array<{ inputSchema: unknown }> }).tools[0].inputSchema).toMatchObject(search);
    const scenario = JSON.parse(readFileSync(file, 'utf8')).servers.shifting;
    expect(scenario.tools.map((t: { name: string; hidden?: boolean }) => [t.name, t.hidden ?? false])).toEqual([['search', false], ['draft', false], ['archive', true]]);
    expect(scenario.resources.map((r: { uri: string; hidden?: boolean; text?: string }) => [r.uri, r.hidden ?? false, r.text])).toEqual([
      ['memo://a', false, 'memo a, first draft'], ['memo://b', false, undefined], ['memo://c', true, undefined],
    ]);
    // Three tool-list announcements (add, remove, update), each after the 2nd call; the client re-listed
    // once, after the last, so the last carries the change.
    // The call to the removed tool keeps no answer: the replay answers it as not found, as it does not list it.
    expect(scenario.tools.find((t: { name: string }) => t.name === 'draft').answers).toEqual([{ match: { argumentsEqual: { title: 'retro' } }, content: [{ type: 'text', text: 'drafted retro' }] }]);
    const tools = scenario.after.filter((r: { tools?: unknown }) => r.tools);
    expect(tools).toHaveLength(3);
    expect(tools.map((r: { calls: number }) => r.calls)).toEqual([2, 2, 2]);
    expect(tools[2].tools).toMatchObject({ show: ['archive'], hide: ['draft'], change: [{ name: 'search', description: 'Search memos (v2).' }] });
    // Two announcements each for resources and prompts (one added, one described anew); the re-list after
    // the second carries both, the new definition as a `change`.
    expect(scenario.after.filter((r: { resources?: unknown }) => r.resources)).toEqual([
      { calls: 2, resources: {} },
      { calls: 2, resources: { show: ['memo://c'], change: [{ uri: 'memo://b', name: 'memo b', description: 'Memo b, kept for the record.', mimeType: 'text/plain' }] } },
    ]);
    expect(scenario.after.filter((r: { prompts?: unknown }) => r.prompts)).toEqual([
      { calls: 2, prompts: {} },
      { calls: 2, prompts: { show: ['weekly'], change: [{ name: 'daily', description: 'The daily summary, with open questions.' }] } },
    ]);
    expect(scenario.after).toContainEqual({ calls: 2, updated: [{ uri: 'memo://a', mimeType: 'text/plain', text: 'memo a, second draft' }] });
  });

  it('replays them at the same point, with the same lists, contents and answers, no server started', async () => {
    const gone = { mcpServers: { shifting: { command: join(dir, 'no-such-server') } } };
    const golden = await useMCPGolden(gone, { file, mode: 'replay' });
    expect(await run(golden)).toEqual(recorded);
    golden.mocks.shifting.assertAllConsumed();
  });
});
