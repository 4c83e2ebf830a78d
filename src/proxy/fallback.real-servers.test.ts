// Search and fallbacks against the reference servers everyone installs, over stdio through the proxy: two
// @modelcontextprotocol/server-filesystem instances (different roots) and two server-everything instances.
// The query's action leads; same-job alternatives are found (deprecated twins, the same tool on another
// server) and nothing of another action or object is offered; the failure decides where suggestions come from.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { tempDir } from './test-helpers.ts';

const entry = (name: string): string => fileURLToPath(new URL(`../../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url));
const json = (r: unknown): any => (r as CallToolResult).structuredContent;
const ids = (list: Array<{ server: string; tool: string }>): string[] => list.map((s) => `${s.server}/${s.tool}`);

describe('search and fallbacks on the real reference servers', () => {
  let proxy: McpProxy;
  let client: Client;
  let rootA: string;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    const a = tempDir('ghostwire-fs-a-');
    const b = tempDir('ghostwire-fs-b-');
    const store = tempDir();
    cleanups.push(a.cleanup, b.cleanup, store.cleanup);
    rootA = a.dir;
    proxy = createProxy({
      mcpServers: {
        fs: { command: process.execPath, args: [entry('server-filesystem'), a.dir] },
        fs2: { command: process.execPath, args: [entry('server-filesystem'), b.dir] },
        // A 1 s call timeout on the first instance, so its long-running operation times out.
        everything: { command: process.execPath, args: [entry('server-everything')], timeout: 1 },
        everything2: { command: process.execPath, args: [entry('server-everything')] },
      },
      recommend_tools: { auto_retry_fallback: true },
    } as never, { storePath: join(store.dir, 'p.db'), env: {}, embedder: null, llm: null });
    const [x, y] = InMemoryTransport.createLinkedPair();
    await proxy.connect(x);
    client = new Client({ name: 'real-servers', version: '1.0.0' });
    await client.connect(y);
    // Index all four servers.
    await client.callTool({ name: 'list_tools', arguments: {} });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    for (const c of cleanups.reverse()) c();
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<any> => json(await client.callTool({ name, arguments: args }));
  const alternatives = async (server: string, tool: string): Promise<string[]> => ids((await call('get_tool_alternatives', { server, tool })).alternatives);

  it('"write text to a file" finds write_file first: the query asks to write, not to read text', async () => {
    const answer = await call('search_tools', { query: 'write text to a file' });
    expect(answer.mode).toBe('lexical');
    expect(answer.results[0].tool).toBe('write_file');
    // Both filesystems' write_file come before any tool that only reads.
    const first = answer.results.findIndex((r: any) => /^read/.test(r.tool));
    const writes = answer.results.map((r: any, i: number) => (r.tool === 'write_file' ? i : -1)).filter((i: number) => i >= 0);
    expect(writes).toHaveLength(2);
    if (first >= 0) expect(Math.max(...writes)).toBeLessThan(first);
  });

  it('read_file and read_text_file are alternatives of each other, and the same tool on the other filesystem is one', async () => {
    const forText = await alternatives('fs', 'read_text_file');
    expect(forText).toContain('fs/read_file');
    expect(forText).toContain('fs2/read_text_file');
    expect(await alternatives('fs', 'read_file')).toContain('fs/read_text_file');
    // Never another action (write_file, edit_file) nor another object (media, several files at once).
    for (const tool of ['read_text_file', 'read_file']) {
      const found = await alternatives('fs', tool);
      for (const never of ['write_file', 'edit_file', 'read_media_file', 'read_multiple_files', 'list_directory']) {
        expect(found.filter((id) => id.endsWith(`/${never}`)), `${tool} -> ${never}`).toEqual([]);
      }
    }
    expect(await alternatives('fs', 'list_directory')).toEqual(expect.arrayContaining(['fs/list_directory_with_sizes', 'fs2/list_directory']));
  });

  it('write_file, echo and the long-running operation have their twins on the other instances as alternatives', async () => {
    expect(await alternatives('fs', 'write_file')).toEqual(['fs2/write_file']);
    expect(await alternatives('everything', 'echo')).toEqual(['everything2/echo']);
    expect(await alternatives('everything', 'trigger-long-running-operation')).toEqual(['everything2/trigger-long-running-operation']);
  });

  it('a file not found is the server\'s answer for all its tools: only the other server\'s same-job tools, and why', async () => {
    const body = await call('call_tool', { server: 'fs', tool: 'read_text_file', arguments: { path: join(rootA, 'missing.txt') } });
    expect(body).toMatchObject({ success: false, kind: 'error', cause: 'not_found' });
    expect(body.error).toMatch(/ENOENT/);
    const suggested = ids(body.fallback_suggestions);
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.every((id) => id.startsWith('fs2/read'))).toBe(true);
    expect(body.fallback_note).toMatch(/another server/);
  });

  it('access denied: the same, never the same server', async () => {
    const body = await call('call_tool', { server: 'fs', tool: 'read_text_file', arguments: { path: '/etc/hostname' }, include_fallbacks: true });
    expect(body).toMatchObject({ success: false, cause: 'access_denied' });
    const suggested = ids(body.fallback_suggestions);
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.every((id) => id.startsWith('fs2/'))).toBe(true);
  });

  it('arguments the tool\'s schema rejects are the caller\'s to fix: nothing suggested, and why', async () => {
    const body = await call('call_tool', { server: 'fs', tool: 'read_text_file', arguments: { path: 42 } });
    expect(body).toMatchObject({ success: false, kind: 'arguments', fallback_suggestions: [] });
    expect(body.error).toMatch(/"path" must be string/);
    expect(body.fallback_note).toMatch(/arguments do not match .*no other tool is suggested/);
  });

  it('arguments the server itself rejects (head and tail at once) are read as such: only the other server, and why', async () => {
    const file = join(rootA, 'lines.txt');
    writeFileSync(file, 'a\nb\nc\n');
    const body = await call('call_tool', { server: 'fs', tool: 'read_text_file', arguments: { path: file, head: 1, tail: 1 }, include_fallbacks: true });
    expect(body).toMatchObject({ success: false, kind: 'error', cause: 'invalid_argument' });
    expect(body.error).toMatch(/Cannot specify both head and tail/);
    expect(ids(body.fallback_suggestions)).toContain('fs2/read_text_file');
    expect(ids(body.fallback_suggestions).every((id) => id.startsWith('fs2/'))).toBe(true);
    expect(body.fallback_note).toMatch(/arguments were rejected: fs decides that for all its tools/);
  });

  it('a destination that already exists is a conflict on this server: never its own tools', async () => {
    writeFileSync(join(rootA, 'from.txt'), 'x');
    writeFileSync(join(rootA, 'to.txt'), 'y');
    const body = await call('call_tool', { server: 'fs', tool: 'move_file', arguments: { source: join(rootA, 'from.txt'), destination: join(rootA, 'to.txt') }, include_fallbacks: true });
    expect(body).toMatchObject({ success: false, kind: 'error', cause: 'conflict' });
    expect(body.error).toMatch(/already exists/);
    expect(ids(body.fallback_suggestions)).toContain('fs2/move_file');
    expect(ids(body.fallback_suggestions).every((id) => id.startsWith('fs2/'))).toBe(true);
    expect(body.fallback_note).toMatch(/already exists: fs decides that for all its tools/);
  });

  it('an empty result is this tool\'s answer: the same job on any server, its own included', async () => {
    // An empty folder lists as no text at all.
    const empty = join(rootA, 'empty');
    mkdirSync(empty);
    const body = await call('call_tool', { server: 'fs', tool: 'list_directory', arguments: { path: empty }, include_fallbacks: true });
    expect(body).toMatchObject({ success: false, kind: 'empty' });
    const suggested = ids(body.fallback_suggestions);
    expect(suggested).toEqual(expect.arrayContaining(['fs/list_directory_with_sizes', 'fs2/list_directory']));
    expect(suggested.every((id) => /list_directory/.test(id))).toBe(true);
    expect(body.fallback_note).toMatch(/empty result: tools doing the same job/);
  });

  it('a timeout suggests the same job elsewhere; auto-retry runs it there, read-only as annotated', async () => {
    const body = await call('call_tool', { server: 'everything', tool: 'trigger-long-running-operation', arguments: { duration: 2, steps: 2 } });
    expect(body).toMatchObject({ success: false, kind: 'timeout' });
    expect(ids(body.fallback_suggestions)).toEqual(['everything2/trigger-long-running-operation']);
    expect(body.fallback_note).toMatch(/no tool of everything can answer now/);
    expect(body.fallback_result).toMatchObject({ server: 'everything2', tool: 'trigger-long-running-operation', success: true });
    expect(body.fallback_result.result.content[0].text).toMatch(/Long running operation completed/);
  }, 20_000);
});
