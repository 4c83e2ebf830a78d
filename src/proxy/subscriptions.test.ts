// Resource subscriptions and list_changed through the proxy, as a client sees them: two sessions of the
// official SDK Client in front of the proxy, a real stdio server (fixtures/servers/notes.ts) behind it.
// No sleeps: every "did not arrive" is checked after a round trip on the same session, which the
// transport delivers in order after anything sent before it.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  McpError, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { Subscriptions, type Subscriber } from './subscriptions.ts';
import { stdioEntry, tempDir } from './test-helpers.ts';

/** One client session and every notification it received, by method. */
interface Session {
  client: Client;
  seen: Map<string, unknown[]>;
  next(method: string): Promise<unknown>;
}

async function session(proxy: McpProxy): Promise<Session> {
  const client = new Client({ name: 'subs', version: '1.0.0' });
  const seen = new Map<string, unknown[]>();
  const waiters = new Map<string, Array<(params: unknown) => void>>();
  const record = (method: string, params: unknown): void => {
    seen.set(method, [...(seen.get(method) ?? []), params]);
    for (const resolve of waiters.get(method) ?? []) resolve(params);
    waiters.delete(method);
  };
  for (const schema of [ResourceUpdatedNotificationSchema, ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema, ToolListChangedNotificationSchema]) {
    client.setNotificationHandler(schema, (n) => record(n.method, n.params));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await proxy.connect(a);
  await client.connect(b);
  return {
    client, seen,
    next: (method) => new Promise((resolve) => waiters.set(method, [...(waiters.get(method) ?? []), resolve])),
  };
}

const text = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;
const notes = (s: Session, tool: string, args: Record<string, unknown> = {}): Promise<string> =>
  s.client.callTool({ name: 'call_tool', arguments: { server: 'notes', tool, arguments: args } }).then(text);
const updates = (s: Session): unknown[] => s.seen.get('notifications/resources/updated') ?? [];

describe('proxy resource subscriptions and list_changed', () => {
  const { dir, cleanup } = tempDir();
  const storePath = join(dir, 'p.db');
  let proxy: McpProxy;
  let a: Session;
  let b: Session;

  beforeAll(async () => {
    // Preconnected: the sessions' initialize waits for it, so they know it supports subscribe.
    const servers = { notes: stdioEntry('notes'), mirror: stdioEntry('docs-mirror') };
    proxy = createProxy({ mcpServers: servers, mcp_client_proxy: { preconnect_servers: ['notes'] } }, { storePath, env: {}, embedder: null, llm: null });
    [a, b] = await Promise.all([session(proxy), session(proxy)]);
  });
  afterAll(async () => {
    await Promise.all([a?.client.close(), b?.client.close()]);
    await proxy?.close();
    cleanup();
  });

  it('advertises subscribe because a downstream server supports it, and list_changed for tools, resources and prompts', () => {
    expect(a.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } });
  });

  it('sends an update only to the sessions subscribed to that URI, and stops after unsubscribe', async () => {
    expect(await a.client.subscribeResource({ uri: 'note://a' })).toEqual({});
    expect(await notes(a, 'subscribed')).toBe('["note://a"]');
    const got = a.next('notifications/resources/updated');
    expect(await notes(a, 'touch', { uri: 'note://a' })).toBe('notified');
    expect(await got).toEqual({ uri: 'note://a' });
    await b.client.ping();
    expect(updates(b)).toEqual([]);

    // Both subscribed: one downstream subscription; it stays while one session still holds it.
    await b.client.subscribeResource({ uri: 'note://a' });
    await a.client.unsubscribeResource({ uri: 'note://a' });
    expect(await notes(b, 'subscribed')).toBe('["note://a"]');
    const toB = b.next('notifications/resources/updated');
    await notes(a, 'touch', { uri: 'note://a' });
    expect(await toB).toEqual({ uri: 'note://a' });
    await a.client.ping();
    expect(updates(a)).toHaveLength(1);

    await b.client.unsubscribeResource({ uri: 'note://a' });
    expect(await notes(b, 'subscribed')).toBe('[]');
    // Even a server that notifies regardless reaches nobody: nobody subscribed to it through the proxy.
    expect(await notes(a, 'touch', { uri: 'note://a', always: true })).toBe('notified');
    await Promise.all([a.client.ping(), b.client.ping()]);
    expect([updates(a).length, updates(b).length]).toEqual([1, 1]);
  });

  it('refuses a URI no downstream server lists with an McpError naming it', async () => {
    const error = await a.client.subscribeResource({ uri: 'nowhere://missing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32002, message: expect.stringContaining('nowhere://missing') });
    const tooLong = await a.client.subscribeResource({ uri: `note://${'x'.repeat(9000)}` }).catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ code: -32602, message: expect.stringMatching(/URI too long.*9007 bytes, at most 8192/) });
  });

  it('releases a closed session\'s subscriptions downstream', async () => {
    const c = await session(proxy);
    await c.client.subscribeResource({ uri: 'note://b' });
    expect(await notes(a, 'subscribed')).toBe('["note://b"]');
    await c.client.close();
    await expect.poll(() => notes(a, 'subscribed')).toBe('[]');
  });

  it('subscribes again on a server that restarted, so updates keep coming', async () => {
    await a.client.subscribeResource({ uri: 'note://b' });
    expect(await notes(a, 'exit')).toBe('exiting');
    await expect.poll(() => proxy.core.listServers().servers.find((s) => s.name === 'notes')?.state).toBe('failed');
    // The next use reconnects; the subscription is sent ahead of this call on the new connection.
    expect(await notes(a, 'subscribed')).toBe('["note://b"]');
    const got = a.next('notifications/resources/updated');
    await notes(a, 'touch', { uri: 'note://b' });
    expect(await got).toEqual({ uri: 'note://b' });
    await a.client.unsubscribeResource({ uri: 'note://b' });
    expect(await notes(a, 'subscribed')).toBe('[]');
  });

  it('forwards resources and prompts list_changed, and re-indexes tools before announcing tools/list_changed', async () => {
    const resources = Promise.all([a.next('notifications/resources/list_changed'), b.next('notifications/resources/list_changed')]);
    await notes(a, 'add_note', { id: 'c' });
    await resources;
    expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain('note://c');

    const prompts = b.next('notifications/prompts/list_changed');
    await notes(a, 'add_prompt', { name: 'outline' });
    await prompts;
    expect((await b.client.listPrompts()).prompts.map((p) => p.name)).toContain('notes/outline');

    const tools = a.next('notifications/tools/list_changed');
    await notes(a, 'add_tool', { name: 'archive_notes' });
    await tools;
    // Announced after the refresh: the catalog already has the tool.
    const listed = JSON.parse(text(await a.client.callTool({ name: 'list_tools', arguments: { server: 'notes' } }))) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain('archive_notes');
  });

  it('sends updates to a session over the proxy\'s Streamable HTTP too (its standalone SSE stream)', async () => {
    const { url } = await proxy.listen({ port: 0 });
    const client = new Client({ name: 'subs-http', version: '1.0.0' });
    const got: unknown[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got.push(n.params));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      await client.subscribeResource({ uri: 'note://a' });
      // The client opens its SSE stream on its own after initialize: touch until the stream carries one.
      await expect.poll(async () => {
        await client.callTool({ name: 'call_tool', arguments: { server: 'notes', tool: 'touch', arguments: { uri: 'note://a' } } });
        return got.length;
      }).toBeGreaterThan(0);
      expect(got[0]).toEqual({ uri: 'note://a' });
    } finally {
      await client.close();
    }
  });

  it('remembers which servers support subscribe, so a later proxy advertises it before connecting them', async () => {
    const later = createProxy({ mcpServers: { notes: stdioEntry('notes') } }, { storePath, env: {}, embedder: null, llm: null, start: false });
    try {
      expect(later.core.passthrough.knownToSubscribe()).toBe(true);
      expect(later.core.listServers().servers[0]).toMatchObject({ state: 'configured', pid: null });
    } finally {
      await later.close();
    }
  });

  it('does not advertise subscribe when no downstream server supports it', async () => {
    const { dir: other, cleanup: done } = tempDir();
    const plain = createProxy({ mcpServers: { mirror: stdioEntry('docs-mirror') }, mcp_client_proxy: { lazy_connect: false } },
      { storePath: join(other, 'p.db'), env: {}, embedder: null, llm: null });
    const s = await session(plain);
    try {
      expect(plain.core.listServers().servers[0]).toMatchObject({ state: 'connected' });
      expect(s.client.getServerCapabilities()?.resources).toEqual({ listChanged: true });
      // The SDK client (not strict by default) still asks: the proxy answers as a server without the method.
      await expect(s.client.subscribeResource({ uri: 'note://a' })).rejects.toMatchObject({ code: -32601 });
    } finally {
      await s.client.close();
      await plain.close();
      done();
    }
  });
});

describe('Subscriptions bookkeeping', () => {
  // Only subscribeResource is used; it records what reached the "server".
  const asked: string[] = [];
  const client = { subscribeResource: async ({ uri }: { uri: string }) => void asked.push(uri) } as unknown as Client;
  const sink = (): Subscriber & { got: unknown[] } => {
    const got: unknown[] = [];
    return { got, notify: (params) => void got.push(params) };
  };

  it('holds each session and the whole proxy to a byte budget of URIs, freed by unsubscribe and close', async () => {
    const subs = new Subscriptions({ maxUriBytes: 16, maxSessionBytes: 20, maxTotalBytes: 30 });
    const [one, two] = [sink(), sink()];
    await subs.subscribe(one, 'a://0123456789', 'fs', client); // 14 bytes
    await expect(subs.subscribe(one, 'a://abcdefgh', 'fs', client)).rejects.toThrow(/too many subscriptions in this session \(1 URIs, 14 bytes; at most 20 bytes\).*a:\/\/abcdefgh/);
    await subs.subscribe(two, 'a://0123456789', 'fs', client); // shared URI: counted per session, asked downstream once
    expect(asked).toEqual(['a://0123456789']);
    await expect(subs.subscribe(two, 'b://x', 'fs', client)).rejects.toThrow(/maximum of subscriptions \(28 bytes of URIs\): cannot subscribe to b:\/\/x/);
    expect(subs.unsubscribe(one, 'a://0123456789')).toBeUndefined(); // two still holds it
    await subs.subscribe(two, 'b://x', 'fs', client);
    subs.updated('fs', { uri: 'a://0123456789' });
    subs.updated('other', { uri: 'b://x' }); // another server's URI of the same name reaches nobody
    expect([one.got, two.got]).toEqual([[], [{ uri: 'a://0123456789' }]]);
    expect(subs.drop(two)).toEqual([{ server: 'fs', uri: 'a://0123456789' }, { server: 'fs', uri: 'b://x' }]);
    await subs.subscribe(one, 'a://abcdefgh', 'fs', client);
    expect(subs.subscribers('a://abcdefgh')).toBe(1);
  });
});
