// The `mcpServer` fixture: starts ghostwire's fixture MCP servers for a test and stops them after it.
import { startHttpFixture, stdioFixture, type FixtureOptions, type FixtureServerName, type HttpFixture } from '../../fixtures/servers/launch.ts';

export type { FixtureServerName, FixtureOptions, HttpFixture };

export interface McpServerFixture {
  /** Starts a fixture server over Streamable HTTP on a free port; it is stopped when the test ends. */
  http(name: FixtureServerName, options?: FixtureOptions): Promise<HttpFixture>;
  /** A `.mcp.json` stdio entry for a fixture server (whoever connects spawns it and must end it). */
  stdio(name: FixtureServerName, options?: FixtureOptions): ReturnType<typeof stdioFixture>;
  /** Servers started over HTTP in this test, still running. */
  readonly running: readonly HttpFixture[];
}

/**
 * The fixture function for `test.extend`.
 * @example
 * const it = test.extend<{ mcpServer: McpServerFixture }>({ mcpServer: mcpServerFixture });
 * it('queries', async ({ mcpServer }) => {
 *   const db = await mcpServer.http('sqlite');
 *   // ... connect to db.url ...
 * });
 */
export async function mcpServerFixture({}: object, use: (fixture: McpServerFixture) => Promise<void>): Promise<void> {
  const running: HttpFixture[] = [];
  try {
    await use({
      async http(name, options) {
        const server = await startHttpFixture(name, options);
        running.push(server);
        return server;
      },
      stdio: (name, options) => stdioFixture(name, options),
      running,
    });
  } finally {
    await Promise.all(running.splice(0).map((s) => s.close()));
  }
}
