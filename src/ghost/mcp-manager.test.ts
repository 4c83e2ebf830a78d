import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childPids, settledChildPids } from '../../fixtures/servers/children.ts';
import { fixtureServerPath, startHttpFixture, stdioFixture, type HttpFixture } from '../../fixtures/servers/launch.ts';
import { McpManager } from './mcp-manager.ts';
import { parseServerConfig } from './server-config.ts';

const http: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(http.splice(0).map((h) => h.close()));
});

describe('McpManager', () => {
  it('connects in parallel, reports failed servers, keeps going, and leaves no child behind', async () => {
    const before = childPids();
    const config = parseServerConfig({
      mcpServers: {
        db: stdioFixture('sqlite'),
        odd: stdioFixture('awkward-names'),
        missing: { command: '/nonexistent/binary', args: [] },
        dies: { command: process.execPath, args: ['-e', 'console.error("boom at start"); process.exit(2)'] },
      },
    });
    const mcp = await McpManager.connect(config, { timeoutMs: 5000 });
    try {
      expect(mcp.serversConnected).toBe(2);
      expect(mcp.serverNames).toEqual(['db', 'odd']);
      expect(mcp.failures.map((f) => f.server)).toEqual(['dies', 'missing']);
      expect(mcp.failures[0].error).toMatch(/boom at start|closed/i);
      expect(mcp.tools.filter((t) => t.server === 'db').map((t) => t.name)).toEqual(['describe_table', 'list_tables', 'query']);
      expect(childPids().length - before.length).toBe(2);
      const rows = await mcp.callTool('db', 'query', { sql: 'SELECT name FROM customers ORDER BY id LIMIT 1' });
      expect(rows).toMatchObject({ ok: true, value: expect.anything() });
      expect(JSON.parse(rows.text)).toEqual([{ name: 'Ada' }]);
    } finally {
      await mcp.close();
    }
    expect(await settledChildPids(before)).toEqual(before);
  });

  it('bounds a hung call by timeoutMs and reports it as a timeout', async () => {
    const mcp = await McpManager.connect(parseServerConfig({ mcpServers: { h: stdioFixture('hang') } }), { timeoutMs: 300, connectTimeoutMs: 10_000 });
    try {
      const started = Date.now();
      const outcome = await mcp.callTool('h', 'wait_forever', {});
      expect(Date.now() - started).toBeLessThan(3000);
      expect(outcome).toMatchObject({ ok: false, timedOut: true });
      expect(outcome.error).toMatch(/timed out/i);
      // The server still answers afterwards: the hung request was cancelled, not the connection.
      expect(await mcp.callTool('h', 'ping', {})).toMatchObject({ ok: true, text: 'pong' });
    } finally {
      await mcp.close();
    }
  });

  it('reports a crash mid-call, then fails fast for that server', async () => {
    const before = childPids();
    const mcp = await McpManager.connect(parseServerConfig({ mcpServers: { c: stdioFixture('crash') } }), { timeoutMs: 5000 });
    try {
      const outcome = await mcp.callTool('c', 'crash', {});
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatch(/closed|exited/i);
      const after = await mcp.callTool('c', 'echo', { text: 'x' });
      expect(after.error).toMatch(/has exited.*exiting mid-call/s);
    } finally {
      await mcp.close();
    }
    expect(await settledChildPids(before)).toEqual(before);
  });

  it('reconnects a dropped Streamable HTTP session and retries the call', async () => {
    const server = await startHttpFixture('sqlite');
    http.push(server);
    const mcp = await McpManager.connect(parseServerConfig({ mcpServers: { db: { url: server.url } } }), { timeoutMs: 5000 });
    try {
      expect((await mcp.callTool('db', 'list_tables', {})).ok).toBe(true);
      const dropped = await fetch(new URL('/admin/drop-sessions', server.url), { method: 'POST' });
      expect((await dropped.json()).dropped).toBe(1);
      const again = await mcp.callTool('db', 'list_tables', {});
      expect(again).toMatchObject({ ok: true });
      expect(JSON.parse(again.text)).toContain('orders');
    } finally {
      await mcp.close();
    }
  });

  it('reports an HTTP server that is not there as a failure', async () => {
    const mcp = await McpManager.connect(parseServerConfig({ mcpServers: { gone: { url: 'http://127.0.0.1:9/mcp' } } }), { timeoutMs: 2000 });
    await mcp.close();
    expect(mcp.serversConnected).toBe(0);
    expect(mcp.failures[0]).toMatchObject({ server: 'gone' });
  });

  it('rejects a malformed config naming the path', () => {
    expect(() => parseServerConfig({ mcpServers: { db: { args: ['x'] } } })).toThrow(/serverConfig\.mcpServers\.db/);
    expect(() => parseServerConfig({ servers: {} })).toThrow(/mcpServers/);
  });
});

describe('renderToolResult', () => {
  it('joins text, describes binary content instead of inlining base64, and falls back to structuredContent', async () => {
    const { renderToolResult } = await import('./mcp-manager.ts');
    expect(renderToolResult({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] })).toBe('a\n[image: image/png, 3 bytes]');
    expect(renderToolResult({ content: [{ type: 'resource', resource: { uri: 'file:///x', text: 'hello' } }] })).toBe('[resource file:///x]\nhello');
    expect(renderToolResult({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });
});

describe('McpManager and its servers\' process groups', () => {
  it('an abort while a wrapper-started server is still initialising returns within a second and leaves none of its family', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-ghost-family-'));
    try {
      const pidsFile = join(dir, 'pids');
      const family = { command: 'sh', args: ['-c', `"${process.execPath}" "${fixtureServerPath('family')}" --no-init; true`], env: { FAMILY_PIDS: pidsFile } };
      const controller = new AbortController();
      const pending = McpManager.connect(parseServerConfig({ mcpServers: { family } }), { timeoutMs: 30_000, signal: controller.signal });
      await expect.poll(() => (existsSync(pidsFile) ? readFileSync(pidsFile, 'utf8').split('\n').filter(Boolean).length : 0), { timeout: 10_000 }).toBe(3);
      const pids = readFileSync(pidsFile, 'utf8').split('\n').filter(Boolean).map(Number);
      const started = performance.now();
      controller.abort(new Error('run cancelled'));
      const mcp = await pending;
      expect(performance.now() - started).toBeLessThan(1000);
      expect(mcp.failures).toEqual([{ server: 'family', error: expect.stringMatching(/run cancelled/) }]);
      expect(pids.filter(running)).toEqual([]);
      await mcp.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Running, zombies (orphans a container's PID 1 never reaps) excluded. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}
