// `test` extended with every ghostwire fixture. Each fixture is lazy: a test pays only for the ones it names,
// and the heavy ones (ghost, proxy, MCP servers) are not even imported until then.
import { test as base } from 'vitest';
import type { MockLLM } from '../transports/mock-llm.ts';
import type { GhostFixture } from './ghost-fixture.ts';
import { goldenFixture, type GoldenFixture } from './golden-fixture.ts';
import { ghostFixture, mcpServerFixture, proxyFixture } from './lazy-fixtures.ts';
import type { McpServerFixture } from './mcp-server-fixture.ts';
import type { ProxyFixture } from './proxy-fixture.ts';
import { mockLLMFixture } from './use-mock-llm.ts';
import { mockMCPFixture, type MockMCPFixture } from './mock-mcp-fixture.ts';

export interface GhostwireFixtures {
  /** A mock LLM answering this test's requests to the providers' hosts (MSW); add scenarios with `mockLLM.use(...)`. */
  mockLLM: MockLLM;
  /** This test's golden: provider traffic recorded or replayed. */
  golden: GoldenFixture;
  /** Runs `mcpGhost()` with cleanup at test end. */
  ghost: GhostFixture;
  /** Starts fixture MCP servers, stopped after the test. */
  mcpServer: McpServerFixture;
  /** Starts MCP proxies with a connected client, closed after the test. */
  proxy: ProxyFixture;
  /** Creates mock MCP servers from MCP scenarios, closed after the test. */
  mockMCP: MockMCPFixture;
}

/**
 * Vitest's `test` with the ghostwire fixtures.
 * @example
 *   import { test, expect } from 'ghostwire/vitest';
 *   test('greets', async ({ mockLLM }) => {
 *     mockLLM.use(scenario('hi').respondWithText('Hello'));
 *     // ... code under test calls OpenAI, Anthropic or Gemini
 *     mockLLM.assertAllConsumed();
 *   });
 */
export const test = base.extend<GhostwireFixtures>({
  mockLLM: mockLLMFixture,
  golden: goldenFixture,
  ghost: ghostFixture,
  mcpServer: mcpServerFixture,
  proxy: proxyFixture,
  mockMCP: mockMCPFixture,
});
