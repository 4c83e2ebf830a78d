// The `mockMCP` fixture: a factory of mock MCP servers for one test, all closed when it ends.
import type { MCPScenarioSource, MockMCPOptions } from '../mcp/mock/mock-mcp.ts';
import { MockMCPTestServer } from './use-mock-mcp.ts';

/** Creates a mock MCP server for this test (closed with it). */
export type MockMCPFixture = (source: MCPScenarioSource, options?: MockMCPOptions) => MockMCPTestServer;

/**
 * The fixture function for `test.extend`; safe under `test.concurrent` (teardown is the test's own).
 * @example
 *   test.concurrent('reads issues', async ({ mockMCP }) => {
 *     const github = mockMCP('fixtures/mcp/github.json');
 *     const client = new Client({ name: 't', version: '1' });
 *     await client.connect(new StreamableHTTPClientTransport(new URL(github.url)));
 *   });
 */
export async function mockMCPFixture({}: object, use: (factory: MockMCPFixture) => Promise<void>): Promise<void> {
  const servers: MockMCPTestServer[] = [];
  try {
    await use((source, options) => {
      const server = new MockMCPTestServer(source, options);
      servers.push(server);
      return server;
    });
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}
