/**
 * The ghost: an LLM tool-calling loop over MCP servers, tested with no key and no network.
 *
 *   npx vitest run examples/ghost.test.ts
 *
 * - The MCP server is a real process: the SQLite fixture (fixtures/servers/sqlite.ts), spawned over stdio
 *   from a `.mcp.json`-shaped config. Any server works the same way, e.g. one from npm.
 * - The LLM is ghostwire's mock, answering through MSW on OpenAI's own host (`useMockLLM`): the scenario
 *   scripts the model's turns; tool names arrive namespaced as `server_tool`.
 * - The first query fails (a wrong table name); the ghost hands the error back with a recovery prompt, the
 *   scripted model fixes the query, and the run ends with the answer. `result` says all of it.
 *
 * In your project: `import { mcpGhost } from 'ghostwire/ghost'` and `useMockLLM` from 'ghostwire/vitest'.
 */
import { expect, test } from 'vitest';
import { mcpGhost } from 'ghostwire/ghost';
import { openai, scenario } from 'ghostwire';
import { stdioFixture, useMockLLM } from 'ghostwire/vitest';

const model = scenario('orders')
  .expect(openai()).withLastMessage({ contains: 'How many orders' })
  .then().respondWithToolCalls([{ id: 'q1', name: 'shop_query', arguments: { sql: 'SELECT count(*) AS n FROM purchases' } }])
  .expect(openai()).withLastMessage({ contains: 'The previous approach failed' })
  .then().respondWithText('The table is called orders.').respondWithToolCalls([{ id: 'q2', name: 'shop_query', arguments: { sql: 'SELECT count(*) AS n FROM orders' } }])
  .expect(openai()).withToolResults('shop_query')
  .then().respondWithText('There are 5 orders.');

test('answers a question over a real MCP server, recovering from a failed tool call', async () => {
  const mock = useMockLLM(model);

  const result = await mcpGhost({
    serverConfig: { mcpServers: { shop: stdioFixture('sqlite') } },
    provider: 'openai',
    apiKey: 'sk-example',
    systemPrompt: 'You answer questions about the shop database.',
    userPrompt: 'How many orders do we have?',
  });

  expect(result.success).toBe(true);
  expect(result.finalResult).toBe('There are 5 orders.');
  expect(result.toolChain.map((t) => [t.toolName, t.success, t.retryAttempt])).toEqual([
    ['shop.query', false, 0],
    ['shop.query', true, 1],
  ]);
  expect(result.toolChain[0].error).toMatch(/no such table: purchases/);
  expect(result.errors[0].recoveryAction).toMatch(/recovery prompt/);
  expect(result.executionMetadata).toMatchObject({ serversConnected: 1, toolsDiscovered: 3, backtrackCount: 1, successRate: 50 });
  mock.assertAllConsumed();
});
