/**
 * The mock MCP server's cost per tools/call, over an in-memory pair, against a hand-written SDK
 * McpServer answering the same text (the baseline, same run). The mock matches arguments against
 * ordered answers, fills templates, journals both messages and records the call. Goal: ≤ 2x the
 * baseline's median.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { mcpScenario } from '../src/mcp/mock/builder.ts';
import { createMockMCP } from '../src/mcp/mock/mock-mcp.ts';

test('tools/call in memory: mock MCP server vs a hand-written SDK McpServer (goal ≤ 2x at the median)', async ({ bench, annotate }) => {
  const server = new McpServer({ name: 'baseline', version: '1' });
  server.registerTool('get_issue', { description: 'Read one issue', inputSchema: { number: z.number() } }, async ({ number }) => ({ content: [{ type: 'text', text: `#${number} Crash on startup` }] }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const direct = new Client({ name: 'direct', version: '1' });
  await direct.connect(b);

  const mock = createMockMCP(
    mcpScenario('github').tool('get_issue', { description: 'Read one issue', inputSchema: { type: 'object', properties: { number: { type: 'number' } } } }, (t) =>
      t.when({ number: 57 }).text('#57 other').when({ number: { equals: 42 } }).always().text('#{{number}} Crash on startup'),
    ),
    { journalLimitBytes: 1024 * 1024 },
  );
  const viaMock = new Client({ name: 'mock', version: '1' });
  await viaMock.connect(await mock.connect());
  const args = { number: 42 };
  expect(await viaMock.callTool({ name: 'get_issue', arguments: args })).toEqual(await direct.callTool({ name: 'get_issue', arguments: args }));

  const BASE = 'hand-written SDK McpServer (baseline)';
  const MOCK = 'mock MCP server from a scenario';
  const results = await bench.compare(
    bench(BASE, async () => void (await direct.callTool({ name: 'get_issue', arguments: args }))),
    bench(MOCK, async () => void (await viaMock.callTool({ name: 'get_issue', arguments: args }))),
    { time: 1000 },
  );
  const p50 = (name: typeof BASE | typeof MOCK): number => results.get(name).latency.p50 ?? results.get(name).latency.mean;
  const ratio = p50(MOCK) / p50(BASE);
  const line = `tools/call median in memory: baseline ${p50(BASE).toFixed(3)} ms, mock ${p50(MOCK).toFixed(3)} ms, ratio ${ratio.toFixed(3)} (goal ≤ 2)`;
  console.info(line);
  await annotate(line);
  await Promise.all([direct.close(), viaMock.close(), mock.close(), server.close()]);
  expect(ratio).toBeLessThanOrEqual(2);
});
