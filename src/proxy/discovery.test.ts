// Search never waits on a dead server: a bounded discovery wait, and servers that are failing,
// backing off or still connecting named as unavailable (MCP answers and the CLI).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from './create-proxy.ts';
import { stdioEntry, tempDir } from './test-helpers.ts';

const json = (r: unknown): any => (r as CallToolResult).structuredContent;
const bin = fileURLToPath(new URL('../../bin/ghostwire.js', import.meta.url));
const dead = { command: process.execPath, args: ['-e', 'process.stderr.write("boom: no database\\n"); process.exit(4)'] };

describe('search with a dead server in the config', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

  async function searchOnce(mcpServers: Record<string, unknown>): Promise<{ ms: number; answer: any }> {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    // Retries with backoff 1 + 2 + 4 s: the search must not sit them out.
    const proxy = createProxy({ mcpServers, mcp_client_proxy: { max_connection_retries: 3 } } as never, { storePath: join(dir, 'p.db'), env: {}, embedder: null, llm: null });
    cleanups.push(() => proxy.close());
    const [a, b] = InMemoryTransport.createLinkedPair();
    await proxy.connect(a);
    const client = new Client({ name: 'd', version: '1' });
    await client.connect(b);
    cleanups.push(() => client.close());
    const started = performance.now();
    const answer = json(await client.callTool({ name: 'search_tools', arguments: { query: 'library documentation' } }));
    return { ms: performance.now() - started, answer };
  }

  it('answers without sitting out the backoff, and names the server with its last error', async () => {
    const healthy = await searchOnce({ docs: stdioEntry('proxy-docs') });
    const withDead = await searchOnce({ docs: stdioEntry('proxy-docs'), db: dead });
    expect(withDead.answer.results[0]).toMatchObject({ server: 'docs' });
    expect(withDead.answer.unavailable).toEqual([{ server: 'db', state: 'connecting', last_error: expect.stringMatching(/boom: no database/) }]);
    expect(healthy.answer.unavailable).toBeUndefined();
    // Loose on purpose (timing goals live in bench/): far below the 7 s of backoff it used to wait.
    expect(withDead.ms).toBeLessThan(Math.max(3 * healthy.ms, 3000));
  });

  it('the CLI names the unavailable server too', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const config = join(dir, '.mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { docs: stdioEntry('proxy-docs'), db: dead } }));
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'proxy', 'search-tools', 'library documentation', '--config', config, '--store', join(dir, 's.db')], { timeout: 20_000 });
    expect(stdout).toMatch(/^unavailable: db \(connecting\): .*boom: no database/m);
    expect(stdout).toMatch(/docs\/search_docs|docs\/get_library_docs/);
  });
});
