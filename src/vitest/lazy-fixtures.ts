// The fixtures whose implementations are heavy (the ghost, the MCP proxy with node:sqlite, the fixture
// MCP servers) as thin functions that import them on first use: importing `ghostwire/vitest` costs
// nothing for a test that does not name them.
import type { GhostFixture } from './ghost-fixture.ts';
import type { McpServerFixture } from './mcp-server-fixture.ts';
import type { ProxyFixture } from './proxy-fixture.ts';

/**
 * The `ghost` fixture (see ghost-fixture.ts), loaded when a test names it.
 * @example const it = test.extend<{ ghost: GhostFixture }>({ ghost: ghostFixture });
 */
export async function ghostFixture({}: object, use: (fixture: GhostFixture) => Promise<void>): Promise<void> {
  return (await import('./ghost-fixture.ts')).ghostFixture({}, use);
}

/**
 * The `mcpServer` fixture (see mcp-server-fixture.ts), loaded when a test names it.
 * @example const it = test.extend<{ mcpServer: McpServerFixture }>({ mcpServer: mcpServerFixture });
 */
export async function mcpServerFixture({}: object, use: (fixture: McpServerFixture) => Promise<void>): Promise<void> {
  return (await import('./mcp-server-fixture.ts')).mcpServerFixture({}, use);
}

/**
 * The `proxy` fixture (see proxy-fixture.ts), loaded when a test names it.
 * @example const it = test.extend<{ proxy: ProxyFixture }>({ proxy: proxyFixture });
 */
export async function proxyFixture({}: object, use: (fixture: ProxyFixture) => Promise<void>): Promise<void> {
  return (await import('./proxy-fixture.ts')).proxyFixture({}, use);
}
