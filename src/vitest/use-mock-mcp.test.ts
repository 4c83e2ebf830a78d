import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { mcpScenario } from '../mcp/mock/builder.ts';
import { test } from './test.ts';
import { useMockMCP } from './use-mock-mcp.ts';

async function connected(transport: Parameters<Client["connect"]>[0]): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const answer = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0].text;

describe('useMockMCP', () => {
  let previousUrl = '';

  it('is reachable in-process through MSW, in memory and on a port: one mock, one journal', async () => {
    const github = useMockMCP('fixtures/mcp/github.json');
    previousUrl = github.url;
    expect(github.httpEntry).toEqual({ type: 'http', url: expect.stringMatching(/^http:\/\/github-\d+\.mcp\.ghostwire\.test\/mcp$/) });
    const viaMsw = await connected(new StreamableHTTPClientTransport(new URL(github.url)));
    const inMemory = await connected(await github.connect());
    const port = await github.listen();
    expect(port.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const viaPort = await connected(new StreamableHTTPClientTransport(new URL(port.url)));
    for (const c of [viaMsw, inMemory, viaPort]) {
      expect(answer(await c.callTool({ name: 'get_issue', arguments: { repo: 'acme/widgets', number: 42 } }))).toMatch(/^#42 /);
    }
    expect(github.mock.calls).toHaveLength(3);
    expect(new Set(github.mock.journal.entries.map((e) => e.connection.replace(/-.*/, '')))).toEqual(new Set(['http', 'mem']));
    await Promise.all([viaMsw.close(), inMemory.close(), viaPort.close()]);
  });

  it('is gone after its test: the old URL is no longer answered', async () => {
    expect(previousUrl).not.toBe('');
    // The in-process domain stays claimed after the mock is gone: a JSON-RPC 404, never a lookup.
    const outcome = await fetch(previousUrl, { method: 'POST', body: '{}' }).then(
      async (r) => `${r.status} ${await r.text()}`,
      (err: Error) => `error ${err.message}`,
    );
    expect(outcome).toMatch(/^404 .*no MCP endpoint at http:\/\/github-\d+\.mcp\.ghostwire\.test\/mcp/);
  });

  it('gives a stdio .mcp.json entry for a scenario object (written to a temp file)', async () => {
    const server = useMockMCP(mcpScenario('echo').tool('echo', {}, (t) => t.always().text('said {{text}}')));
    const entry = server.stdioEntry();
    expect(entry.command).toBe(process.execPath);
    const client = await connected(new StdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' }));
    expect(answer(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('said hi');
    await client.close();
  });
});

describe('the mockMCP fixture under test.concurrent', () => {
  const seen: string[] = [];
  for (const name of ['alpha', 'beta', 'gamma']) {
    test.concurrent(`${name} sees only its own server`, async ({ mockMCP }) => {
      const server = mockMCP(mcpScenario(name).tool('who', {}, (t) => t.always().latency(30).text(name)));
      const client = await connected(new StreamableHTTPClientTransport(new URL(server.url)));
      const results = await Promise.all([1, 2].map(() => client.callTool({ name: 'who', arguments: {} })));
      expect(results.map(answer)).toEqual([name, name]);
      expect(server.mock.calls).toHaveLength(2);
      seen.push(name);
      await client.close();
    });
  }
  test.concurrent('useMockMCP itself refuses test.concurrent, pointing at the fixture', () => {
    expect(() => useMockMCP(mcpScenario('x'))).toThrow(/use the mockMCP fixture/);
  });
  it('ran them all', () => {
    expect(seen.sort()).toEqual(['alpha', 'beta', 'gamma']);
  });
});
