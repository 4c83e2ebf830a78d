// ghostwire/vitest: useMockLLM, the extended `test` with fixtures, and the toMatchGolden types.

export { test } from './test.ts';
export type { GhostwireFixtures } from './test.ts';
export { useMockLLM, mockLLMScope, mswServer, mockLLMFixture } from './use-mock-llm.ts';
export { ghostFixture } from './ghost-fixture.ts';
export { goldenFixture } from './golden-fixture.ts';
export { mcpServerFixture } from './mcp-server-fixture.ts';
export { proxyFixture } from './proxy-fixture.ts';
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
export { expect, describe, beforeEach, afterEach, beforeAll, afterAll, vi } from 'vitest';
