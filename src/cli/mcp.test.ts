import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpCommand } from './mcp.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-mcp-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(stopSignal?: (server: any) => Promise<void>) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {}, stopSignal }, out, err };
}

describe('ghostwire mcp', () => {
  it('serve: listens until stopped, answering the scenario at /mcp', async () => {
    let listed: string[] = [];
    const { io: sio, out } = io(async (server) => {
      const client = new Client({ name: 't', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      listed = (await client.listTools()).tools.map((t) => t.name);
      await client.close();
    });
    expect(await mcpCommand(['serve', '--scenarios', 'fixtures/mcp/hang.json'], sio)).toBe(0);
    expect(listed).toEqual(['ping', 'slow', 'wait_forever']);
    expect(out.join('')).toMatch(/^ghostwire mock MCP server "hang" listening on http:\/\/127\.0\.0\.1:\d+\/mcp\n {2}3 tool\(s\), 0 resource\(s\), 0 prompt\(s\)\n/);
    expect(out.join('')).not.toMatch(/bearer token/);
  });

  it('serve: usage errors exit 2, a bad scenario exits 1 naming where', async () => {
    const a = io();
    expect(await mcpCommand(['serve'], a.io)).toBe(2);
    expect(a.err.join('')).toMatch(/--scenarios <file\.json> is required/);
    const b = io();
    expect(await mcpCommand(['serve', '--scenarios', 'x.json', '--port', '99999'], b.io)).toBe(2);
    const c = io();
    expect(await mcpCommand(['serve', '--nope'], c.io)).toBe(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "name": "b", "tools": [{ "name": "" }] }');
    const d = io();
    expect(await mcpCommand(['serve', '--scenarios', bad], d.io)).toBe(1);
    expect(d.err.join('')).toContain(`${bad}:1:28: tools[0].name: expected a non-empty string, got ""`);
    const e = io();
    expect(await mcpCommand(['frobnicate'], e.io)).toBe(2);
  });

  it('serve: --max-mcp-sessions and --mcp-session-idle bound the MCP sessions; bad values exit 2 naming the flag', async () => {
    let refused: unknown;
    const { io: sio } = io(async (server) => {
      const first = new Client({ name: 't', version: '1' });
      await first.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      refused = await new Client({ name: 't2', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(server.url))).catch((e: unknown) => e);
      await first.close();
    });
    expect(await mcpCommand(['serve', '--scenarios', 'fixtures/mcp/hang.json', '--max-mcp-sessions', '1', '--mcp-session-idle', '0.5'], sio)).toBe(0);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(503);
    for (const [flag, value, expected] of [
      ['--max-mcp-sessions', '0', /--max-mcp-sessions must be a whole number of at least 1, got "0"/],
      ['--max-mcp-sessions', '2.5', /--max-mcp-sessions must be a whole number/],
      ['--mcp-session-idle', '-1', /--mcp-session-idle must be a number of minutes, 0 or more \(0 = never\), got "-1"/],
      ['--mcp-session-idle', 'soon', /--mcp-session-idle must be a number of minutes/],
    ] as const) {
      const bad = io();
      expect(await mcpCommand(['serve', '--scenarios', 'fixtures/mcp/hang.json', `${flag}=${value}`], bad.io)).toBe(2);
      expect(bad.err.join('')).toMatch(expected);
    }
    const help = io();
    expect(await mcpCommand(['serve', '--help'], help.io)).toBe(0);
    expect(help.out.join('')).toMatch(/--mcp-session-idle +minutes after which an MCP session with no request and no open stream/);
  });

  it('check: ok per valid file, every problem of the others, exit 1', async () => {
    const bad = join(dir, 'bad2.json');
    writeFileSync(bad, '{ "name": "b", "prompts": [{ "name": "p" }] }');
    const { io: cio, out, err } = io();
    expect(await mcpCommand(['check', 'fixtures/mcp/github.json', bad], cio)).toBe(1);
    expect(out.join('')).toBe('fixtures/mcp/github.json: ok (2 tool(s), 1 resource(s), 1 prompt(s))\n');
    expect(err.join('')).toContain(`${bad}:1:28: prompts[0].messages: missing; expected an array of`);
    const ok = io();
    expect(await mcpCommand(['check', 'fixtures/mcp/conformance.json'], ok.io)).toBe(0);
  });
});
