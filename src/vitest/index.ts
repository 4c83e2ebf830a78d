// ghostwire/vitest: useMockLLM, the extended `test` with fixtures, and the toMatchGolden types.
// Importing it starts the worker's in-process layer (./setup.ts) when the plugin has not already; an import
// runs once per worker, so without the plugin under isolate: false `ghostwire/vitest/setup` goes in setupFiles.
export { test } from './test.ts';
export type { GhostwireFixtures } from './test.ts';
export { useMockLLM, mswServer, mockLLMFixture } from './use-mock-llm.ts';
export { goldenFixture } from './golden-fixture.ts';
export { ghostFixture, mcpServerFixture, proxyFixture } from './lazy-fixtures.ts';
export { useMockMCP, useMCPGolden, MockMCPTestServer } from './use-mock-mcp.ts';
export { mockMCPFixture } from './mock-mcp-fixture.ts';
export type { McpJsonEntry, McpJsonStdioEntry, McpJsonHttpEntry } from './use-mock-mcp.ts';
export type { MockMCPFixture } from './mock-mcp-fixture.ts';
export type { UseMockLLMOptions } from './use-mock-llm.ts';
export type { GoldenFixture } from './golden-fixture.ts';
export type { GhostFixture } from './ghost-fixture.ts';
export type { McpServerFixture } from './mcp-server-fixture.ts';
export type { ProxyFixture, StartedProxy } from './proxy-fixture.ts';
export type { PropertyMatchers } from './golden-matcher.ts';
// ghostwire's fixture MCP servers, to start outside a test (beforeAll, a config): the mcpServer fixture's building blocks.
export { stdioFixture, startHttpFixture } from '../../fixtures/servers/launch.ts';
export type { FixtureServerName, FixtureOptions, HttpFixture } from '../../fixtures/servers/launch.ts';
export { expect, describe, beforeEach, afterEach, beforeAll, afterAll, vi } from 'vitest';
