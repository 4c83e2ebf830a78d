// A user's MSW server warning on unhandled requests listening while a test connects to a mock MCP server's
// real port: ghostwire's own loopback traffic passes MSW silently; other unhandled requests still warn.
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { test } from './test.ts';

const server = setupServer();
let local: Server;
let localUrl = '';

beforeAll(async () => {
  // MSW 3 names MSW 2's onUnhandledRequest option onUnhandledFrame.
  server.listen({ onUnhandledFrame: 'warn' });
  local = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
  localUrl = `http://127.0.0.1:${(local.address() as { port: number }).port}/other`;
});
afterAll(async () => {
  server.close();
  await new Promise<void>((r) => local.close(() => r()));
});

const mswWarnings = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((c) => c.map(String).join(' ')).filter((line) => line.includes('without a matching request handler'));

describe("a mock MCP server's listen() under a user's MSW server", () => {
  test('MCP messages to the port raise no MSW warning; an unknown loopback port still does', async ({ mockMCP }) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const github = mockMCP('fixtures/mcp/github.json');
      const { url } = await github.listen();
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const result = (await client.callTool({ name: 'get_issue', arguments: { repo: 'acme/widgets', number: 42 } })) as { content: Array<{ text: string }> };
      expect(result.content[0].text).toMatch(/^#42 /);
      await client.close();
      expect(github.mock.calls).toHaveLength(1);
      expect(mswWarnings(warn)).toEqual([]);

      // The spy does see MSW's warning for a loopback server ghostwire did not start.
      expect(await (await fetch(localUrl)).text()).toBe('ok');
      expect(mswWarnings(warn)).toEqual([expect.stringContaining(`GET ${localUrl}`)]);
    } finally {
      warn.mockRestore();
    }
  });
});
