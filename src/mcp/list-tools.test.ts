import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestMcpServer } from '../rollout/testing/mcp-test-server.ts';
import { connect } from './connect.ts';
import { listAllTools } from './list-tools.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** A server paging its tools `perPage` at a time; `loop` makes it repeat its cursor forever. */
async function pagedClient(total: number, perPage: number, loop = false): Promise<Client> {
  const server = new Server({ name: 'paged', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = loop ? 0 : Number(request.params?.cursor ?? 0);
    const tools = Array.from({ length: Math.min(perPage, total - start) }, (_, i) => ({ name: `t${start + i}`, inputSchema: { type: 'object' as const } }));
    const next = start + perPage;
    return { tools, ...(loop || next < total ? { nextCursor: String(loop ? 1 : next) } : {}) };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(b);
  cleanup.push(() => client.close());
  return client;
}

describe('listAllTools', () => {
  it('follows nextCursor through every page', async () => {
    const tools = await listAllTools(await pagedClient(7, 3));
    expect(tools.map((t) => t.name)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
  });

  it('stops a server that repeats its cursor', async () => {
    await expect(listAllTools(await pagedClient(5, 2, true))).rejects.toThrow(/paging did not end/);
  });
});

describe('connect: HTTP transport choice', () => {
  it('speaks SSE to a URL ending in /sse without trying Streamable HTTP first', async () => {
    const s = await startTestMcpServer({ transport: 'sse' });
    cleanup.push(() => s.close());
    const session = await connect({ url: s.url });
    cleanup.push(() => session.close());
    expect(session.kind).toBe('sse');
    expect((await listAllTools(session.client)).length).toBeGreaterThan(0);
  });

  it('falls back from Streamable HTTP to SSE when the first POST gets a 4xx', async () => {
    const s = await startTestMcpServer({ transport: 'sse' });
    cleanup.push(() => s.close());
    const session = await connect({ type: 'http', url: s.url });
    cleanup.push(() => session.close());
    expect(session.kind).toBe('sse');
    expect((await session.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '5' }]);
  });

  it('uses Streamable HTTP for other URLs', async () => {
    const s = await startTestMcpServer();
    cleanup.push(() => s.close());
    const session = await connect({ url: s.url });
    cleanup.push(() => session.close());
    expect(session.kind).toBe('streamable-http');
  });
});
