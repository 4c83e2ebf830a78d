/**
 * Mock MCP servers: the server your agent talks to, declared as a scenario instead of written by hand.
 *
 *   npx vitest run examples/mock-mcp.test.ts
 *
 * - `mcpScenario(name)` (or a JSON file, see docs/mcp-scenario-format.md) declares the tools and how
 *   each answers, matched on the arguments; `createMockMCP` serves it over any transport.
 * - The `mockMCP` fixture of `ghostwire/vitest` gives a per-test mock with the ways to reach it: an
 *   in-process URL (MSW, no port), an in-memory transport, a real port, or a stdio `.mcp.json` entry.
 * - On the command line: `ghostwire mcp serve --scenarios github.json [--port N | --stdio]`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMockMCP, mcpScenario } from 'ghostwire/mcp';
import { expect, test } from 'ghostwire/vitest';

const github = mcpScenario('github')
  .tool('search_issues', { description: 'Search issues', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }, (t) =>
    t.when({ query: { contains: 'crash' } }).text('#42 Crash on startup').next().isError('rate limited, try later'),
  )
  .after(2, { crash: true });

test('an agent client against a mock server, in memory', async () => {
  const mock = createMockMCP(github);
  const client = new Client({ name: 'my-agent', version: '1.0.0' });
  await client.connect(await mock.connect());
  const found = await client.callTool({ name: 'search_issues', arguments: { query: 'crash on start' } });
  expect(found.content).toEqual([{ type: 'text', text: '#42 Crash on startup' }]);
  const limited = await client.callTool({ name: 'search_issues', arguments: { query: 'slow' } });
  expect(limited.isError).toBe(true);
  // The third call crashes the server: the connection closes.
  await expect(client.callTool({ name: 'search_issues', arguments: { query: 'x' } })).rejects.toThrow(/Connection closed/);
  mock.assertAllConsumed();
  await mock.close();
});

test.concurrent('the mockMCP fixture: an in-process URL for a client that uses fetch', async ({ mockMCP }) => {
  const server = mockMCP('fixtures/mcp/github.json');
  const client = new Client({ name: 'my-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const issue = await client.callTool({ name: 'get_issue', arguments: { repo: 'acme/widgets', number: 42 } });
  expect(issue.content).toEqual([{ type: 'text', text: expect.stringMatching(/^#42 Crash on startup/) }]);
  expect(server.mock.calls).toEqual([expect.objectContaining({ tool: 'get_issue', answer: 0 })]);
  await client.close();
});
