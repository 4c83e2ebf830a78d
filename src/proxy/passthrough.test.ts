// A client behind the proxy loses nothing: downstream resources, templates, prompts and completions
// (namespaced like tools) and logging, through the official SDK client, against server-everything.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { stdioEntry, tempDir } from './test-helpers.ts';

const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

describe('proxy passthrough', () => {
  const { dir, cleanup } = tempDir();
  let proxy: McpProxy;
  let client: Client;
  const logs: Array<LoggingMessageNotification['params']> = [];

  beforeAll(async () => {
    proxy = createProxy({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] }, mirror: stdioEntry('docs-mirror') } },
      { storePath: join(dir, 'p.db'), env: {}, embedder: null, llm: null });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await proxy.connect(a);
    client = new Client({ name: 'pt', version: '1.0.0' });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
    await client.connect(b);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    cleanup();
  });

  it('advertises resources, prompts, completions and logging', () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} });
  });

  it('lists and reads downstream resources and templates, namespaced by server', async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.name.startsWith('everything/') && r._meta?.['ghostwire/server'] === 'everything')).toBe(true);
    const read = await client.readResource({ uri: resources[0].uri });
    expect(read.contents[0].uri).toBe(resources[0].uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    const dynamic = resourceTemplates.find((t) => t.uriTemplate.includes('dynamic/text'));
    expect(dynamic?.name).toBe('everything/Dynamic Text Resource');
    const viaTemplate = await client.readResource({ uri: dynamic!.uriTemplate.replace('{resourceId}', '7') });
    expect(viaTemplate.contents[0]).toMatchObject({ uri: expect.stringContaining('dynamic/text/7') });
    await expect(client.readResource({ uri: 'nowhere://x' })).rejects.toThrow(/resource not found/);
  });

  it('lists and gets prompts and completes their arguments through `server/name`', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['everything/simple-prompt', 'everything/args-prompt']));
    const got = await client.getPrompt({ name: 'everything/args-prompt', arguments: { city: 'Lyon' } });
    expect(JSON.stringify(got.messages)).toContain('Lyon');
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'everything/completable-prompt' }, argument: { name: 'department', value: 'E' } });
    expect(completed.completion.values).toEqual(expect.arrayContaining(['Engineering']));
    await expect(client.getPrompt({ name: 'no-namespace' })).rejects.toThrow(/server\/name/);
  });

  it('honours logging/setLevel and forwards downstream log messages at or above it', async () => {
    expect(await client.setLoggingLevel('warning')).toEqual({});
    logs.length = 0;
    await client.callTool({ name: 'call_tool', arguments: { server: 'mirror', tool: 'fetch_library_docs', arguments: { library_id: 'react' } } });
    await expect.poll(() => logs.length).toBeGreaterThan(0);
    expect(logs).toEqual([{ level: 'warning', logger: 'mirror/fetch', data: 'serving react from the mirror' }]);
  });
});
