// `after` rules beyond the tool list's show and hide, as an SDK client sees them: a tool's listed
// definition changing, resource and prompt lists changing, and a resource's new contents announced only
// to the clients subscribed to it — each with its notification, after the Nth answered call.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMCPScenarioText } from './load.ts';
import { createMockMCP, type MockMCP } from './mock-mcp.ts';
import type { MCPScenarioInput } from './schema.ts';

const mocks: MockMCP[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

const scenario: MCPScenarioInput = {
  name: 'changing',
  tools: [{ name: 'search', description: 'v1', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, answers: [{ consume: false, text: 'found' }] }],
  resources: [
    { uri: 'memo://a', name: 'a', text: 'first' },
    { uri: 'memo://b', name: 'b', text: 'b', hidden: true },
  ],
  prompts: [
    { name: 'daily', messages: [{ role: 'user', content: { type: 'text', text: 'today' } }] },
    { name: 'weekly', hidden: true, messages: [{ role: 'user', content: { type: 'text', text: 'week' } }] },
  ],
  after: [
    { calls: 1, tools: { change: [{ name: 'search', description: 'v2', inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'number' } } } }] } },
    { calls: 1, resources: { show: ['memo://b'] }, prompts: { show: ['weekly'], hide: ['daily'] } },
    { calls: 2, updated: [{ uri: 'memo://a', text: 'second' }] },
  ],
};

/** Resources and prompts described anew after the first call. */
const redescribed: MCPScenarioInput = {
  ...scenario,
  after: [
    {
      calls: 1,
      resources: { change: [{ uri: 'memo://a', name: 'a', description: 'Memo a, v2', mimeType: 'text/markdown' }] },
      prompts: { change: [{ name: 'daily', description: 'Daily, v2', arguments: [{ name: 'day', required: true }] }] },
    },
  ],
};

async function client(mock: MockMCP): Promise<{ client: Client; seen: string[] }> {
  const c = new Client({ name: 'test', version: '1.0.0' });
  clients.push(c);
  const seen: string[] = [];
  for (const schema of [ToolListChangedNotificationSchema, ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema]) c.setNotificationHandler(schema, (n) => void seen.push(n.method));
  c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`updated ${n.params.uri}`));
  await c.connect(await mock.connect());
  return { client: c, seen };
}

const read = async (c: Client, uri: string): Promise<string> => ((await c.readResource({ uri })).contents[0] as { text: string }).text;

describe('after rules that change lists and contents', () => {
  it('changes a tool\'s listed definition, keeping its answers, and announces it', async () => {
    const mock = createMockMCP(scenario);
    mocks.push(mock);
    const { client: c, seen } = await client(mock);
    expect((await c.listTools()).tools.map((t) => [t.name, t.description, Object.keys(t.inputSchema.properties ?? {})])).toEqual([['search', 'v1', ['q']]]);
    await c.callTool({ name: 'search', arguments: { q: 'x' } });
    await expect.poll(() => seen).toContain('notifications/tools/list_changed');
    expect((await c.listTools()).tools.map((t) => [t.name, t.description, Object.keys(t.inputSchema.properties ?? {})])).toEqual([['search', 'v2', ['q', 'limit']]]);
    expect((await c.callTool({ name: 'search', arguments: { q: 'x', limit: 2 } })).content).toEqual([{ type: 'text', text: 'found' }]);
    mock.reset();
    expect((await c.listTools()).tools[0].description).toBe('v1');
  });

  it('shows and hides resources and prompts (hidden ones cannot be read or got) with their list_changed', async () => {
    const mock = createMockMCP(scenario);
    mocks.push(mock);
    const { client: c, seen } = await client(mock);
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(['memo://a']);
    await expect(c.readResource({ uri: 'memo://b' })).rejects.toThrow(/Resource not found: memo:\/\/b/);
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['daily']);
    await expect(c.getPrompt({ name: 'weekly' })).rejects.toThrow(/Prompt weekly not found/);
    await c.callTool({ name: 'search', arguments: { q: 'x' } });
    await expect.poll(() => seen.length).toBe(3);
    expect(seen.sort()).toEqual(['notifications/prompts/list_changed', 'notifications/resources/list_changed', 'notifications/tools/list_changed']);
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(['memo://a', 'memo://b']);
    expect(await read(c, 'memo://b')).toBe('b');
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['weekly']);
    expect((await c.getPrompt({ name: 'weekly' })).messages[0].content).toEqual({ type: 'text', text: 'week' });
    await expect(c.getPrompt({ name: 'daily' })).rejects.toThrow(/Prompt daily not found/);
  });

  it('changes a resource\'s and a prompt\'s listed definitions, keeping contents and messages, and announces both', async () => {
    const mock = createMockMCP(redescribed);
    mocks.push(mock);
    const { client: c, seen } = await client(mock);
    expect((await c.listResources()).resources.map((r) => [r.uri, r.description, r.mimeType])).toEqual([['memo://a', undefined, undefined]]);
    expect((await c.listPrompts()).prompts.map((p) => [p.name, p.description, p.arguments])).toEqual([['daily', undefined, undefined]]);
    await c.callTool({ name: 'search', arguments: { q: 'x' } });
    await expect.poll(() => [...seen].sort()).toEqual(['notifications/prompts/list_changed', 'notifications/resources/list_changed']);
    expect((await c.listResources()).resources).toEqual([{ uri: 'memo://a', name: 'a', description: 'Memo a, v2', mimeType: 'text/markdown' }]);
    expect((await c.readResource({ uri: 'memo://a' })).contents).toEqual([{ uri: 'memo://a', mimeType: 'text/markdown', text: 'first' }]);
    expect((await c.listPrompts()).prompts).toEqual([{ name: 'daily', description: 'Daily, v2', arguments: [{ name: 'day', required: true }] }]);
    expect((await c.getPrompt({ name: 'daily', arguments: { day: 'monday' } })).messages[0].content).toEqual({ type: 'text', text: 'today' });
    mock.reset();
    expect((await c.listResources()).resources[0].description).toBeUndefined();
    expect((await c.listPrompts()).prompts[0].description).toBeUndefined();
  });

  it('gives a resource new contents and tells only the clients subscribed to it', async () => {
    const mock = createMockMCP(scenario);
    mocks.push(mock);
    const subscribed = await client(mock);
    const other = await client(mock);
    await subscribed.client.subscribeResource({ uri: 'memo://a' });
    expect(await read(other.client, 'memo://a')).toBe('first');
    await other.client.callTool({ name: 'search', arguments: { q: 'x' } });
    await other.client.callTool({ name: 'search', arguments: { q: 'y' } });
    await expect.poll(() => subscribed.seen).toContain('updated memo://a');
    expect(await read(other.client, 'memo://a')).toBe('second');
    // Sent as the call is answered, before its result: a round trip on the other connection is past it.
    await other.client.ping();
    expect(other.seen.filter((s) => s.startsWith('updated'))).toEqual([]);
  });

  it('counts a call to a tool it does not list, as the server recorded answered it too', async () => {
    const mock = createMockMCP(scenario);
    mocks.push(mock);
    const { client: c, seen } = await client(mock);
    await expect(c.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Tool nope not found/);
    await expect.poll(() => seen).toContain('notifications/tools/list_changed');
    expect((await c.listTools()).tools[0].description).toBe('v2');
  });

  it('refuses rules that name what the scenario does not have', () => {
    const text = JSON.stringify({
      ...scenario,
      after: [
        {
          calls: 1,
          tools: { change: [{ name: 'nope', inputSchema: { type: 'array' } }] },
          resources: { hide: ['memo://z'], change: [{ uri: 'memo://y', name: 'y' }] },
          prompts: { show: ['monthly'], change: [{ name: 'yearly' }] },
        },
        { calls: 2, updated: [{ uri: 'memo://a', text: 'x', blob: 'eA==' }] },
      ],
    });
    expect(parseMCPScenarioText(text, 'x.json').issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'after[0].tools.change[0].name: no tool named "nope" in tools',
      'after[0].tools.change[0].inputSchema.type: expected "object", got "array"',
      'after[0].resources.hide[0]: no resource with URI "memo://z" in resources',
      'after[0].resources.change[0].uri: no resource with URI "memo://y" in resources',
      'after[0].prompts.show[0]: no prompt named "monthly" in prompts',
      'after[0].prompts.change[0].name: no prompt named "yearly" in prompts',
      'after[1].updated[0].blob: new contents are either text or blob, not both',
    ]);
  });
});
