// A user's test file: its own MSW server failing every request no handler answers (onUnhandledFrame: 'error',
// MSW 2's onUnhandledRequest), MSW's recipe with resetHandlers after each test, and ghostwire's real-port
// servers called through the official SDKs. Their ports pass MSW untouched while they listen, with no
// handler written by the user, across the user's resetHandlers(); once closed, the port is MSW's again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpScenario, startMockMCPServer, type MockMCPServer } from 'ghostwire/mcp';
import { createProxy } from 'ghostwire/proxy';
import { startMockLLMServer } from 'ghostwire/server';
import { scenario } from 'ghostwire';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'ghostwire/vitest';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const mswErrors = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((c) => c.map(String).join(' ')).filter((line) => line.includes('without a matching request handler'));

const github = mcpScenario('github').tool('get_issue', { inputSchema: { type: 'object', properties: { number: { type: 'number' } } } }, (t) => t.text('#42 Crash on startup').always());

describe("ghostwire's real-port servers beside the user's MSW server (onUnhandledFrame: 'error')", () => {
  let mcp: MockMCPServer;
  // Started before the tests and kept across them: the user's resetHandlers() after each must not drop its pass.
  beforeAll(async () => {
    mcp = await startMockMCPServer({ scenario: github });
  });
  afterAll(() => mcp.close());

  test('startMockLLMServer called through the openai SDK: answered, no MSW error; once closed, MSW owns the port again', async () => {
    const error = vi.spyOn(console, 'error');
    try {
      const llm = await startMockLLMServer({ port: 0, scenarios: [scenario('hi').respondWithText('Hello from the port')] });
      const client = new OpenAI({ apiKey: 'test', baseURL: `${llm.url}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(completion.choices[0].message.content).toBe('Hello from the port');
      expect(llm.mock.requests).toHaveLength(1);
      expect(mswErrors(error)).toEqual([]);

      await llm.close();
      // The spy does see MSW's error: a request to the closed server's port is MSW's unhandled request again.
      await expect(fetch(`${llm.url}/v1/models`)).rejects.toThrow();
      expect(mswErrors(error)).toEqual([expect.stringContaining(`GET ${llm.url}/v1/models`)]);
    } finally {
      error.mockRestore();
    }
  });

  test('the MCP proxy listening on a port, called through the MCP SDK client: no MSW error', async () => {
    const error = vi.spyOn(console, 'error');
    const dir = mkdtempSync(join(tmpdir(), 'gw-port-proxy-'));
    const proxy = createProxy({ mcpServers: {} }, { storePath: join(dir, 'metrics.db'), embedder: null, llm: null });
    try {
      const { url } = await proxy.listen({ port: 0 });
      const client = new Client({ name: 'user-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('list_mcp_servers');
      await client.close();
      expect(mswErrors(error)).toEqual([]);
    } finally {
      error.mockRestore();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const round of ['first', 'second']) {
    test(`startMockMCPServer called through the MCP SDK client (${round} test, after the user's resetHandlers())`, async () => {
      const error = vi.spyOn(console, 'error');
      try {
        const client = new Client({ name: 'user-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
        const result = (await client.callTool({ name: 'get_issue', arguments: { number: 42 } })) as { content: Array<{ text: string }> };
        expect(result.content[0].text).toBe('#42 Crash on startup');
        await client.close();
        expect(mswErrors(error)).toEqual([]);
      } finally {
        error.mockRestore();
      }
    });
  }
});
