import { describe, expect, test as base, vi } from 'vitest';
import { childPids, settledChildPids } from '../../fixtures/servers/children.ts';
import { scenario, openai } from '../scenario/builder.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { ghostFixture, type GhostFixture } from './ghost-fixture.ts';
import { mcpServerFixture, type McpServerFixture } from './mcp-server-fixture.ts';

const test = base.extend<{ ghost: GhostFixture; mcpServer: McpServerFixture }>({ ghost: ghostFixture, mcpServer: mcpServerFixture });

const chain = scenario('fixture-chain')
  .expect(openai()).then().respondWithToolCalls([{ id: 'q', name: 'db_query', arguments: { sql: 'SELECT count(*) AS n FROM customers' } }])
  .expect(openai()).then().respondWithText('3 customers.');

let serverPids: number[] = [];

describe('ghost and mcpServer fixtures', () => {
  test('run the ghost against a fixture server over HTTP', async ({ ghost, mcpServer }) => {
    const llm = await startMockLLMServer({ scenarios: [chain] });
    try {
      const db = await mcpServer.http('sqlite');
      expect(mcpServer.running).toHaveLength(1);
      serverPids = [db.pid];
      ghost.defaults({ provider: 'openai', apiKey: 'sk-test', baseURL: `${llm.url}/v1` });
      const result = await ghost({ serverConfig: { mcpServers: { db: { url: db.url } } }, userPrompt: 'How many customers?' });
      expect(result.success).toBe(true);
      expect(result.toolChain[0].result).toEqual([{ n: 3 }]);
      expect(ghost.runs).toEqual([result]);
    } finally {
      await llm.close();
    }
  });

  test('stopped the HTTP server of the previous test', () => {
    expect(serverPids).toHaveLength(1);
    expect(childPids()).not.toContain(serverPids[0]);
  });

  let before: number[] = [];
  test('aborts a run still going when the test ends', async ({ ghost, mcpServer }) => {
    before = childPids();
    // A mock that never answers keeps the run busy past the end of the test.
    const llm = await startMockLLMServer({ scenarios: [scenario('slow').expect(openai()).then().respondWithText('late').withLatency(60_000)] });
    ghost.defaults({ provider: 'openai', apiKey: 'sk-test', baseURL: `${llm.url}/v1` });
    void ghost({ serverConfig: { mcpServers: { db: mcpServer.stdio('sqlite') } }, userPrompt: 'Take your time.' });
    // The run is under way once its MCP server's process exists: wait for that, not for a fixed time.
    await vi.waitFor(() => expect(childPids().length).toBeGreaterThan(before.length), { timeout: 10_000, interval: 20 });
    void llm.close();
  });

  test('left no child process from the aborted run', async () => {
    expect(await settledChildPids(before)).toEqual(before);
  });
});
