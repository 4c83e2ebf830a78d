// The proxy as a separate process: `ghostwire proxy serve` spawned with this Node, reached by the
// MCP SDK client over stdio (and once over --http); killed with SIGKILL to check that its children
// go with it and that recorded metrics survive.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsRecorder } from './metrics.ts';
import { openStore } from './store.ts';
import { isAlive, stdioEntry, tempDir } from './test-helpers.ts';

const bin = fileURLToPath(new URL('../../bin/ghostwire.js', import.meta.url));
const json = (r: unknown): any => (r as CallToolResult).structuredContent;

function writeConfig(dir: string): string {
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { docs: stdioEntry('proxy-docs') }, mcp_client_proxy: { preconnect_servers: ['docs'] } }));
  return file;
}

// No OPENAI_API_KEY reaches the child: tests never talk to a real API.
const childEnv = (): Record<string, string> => Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('OPENAI'))) as Record<string, string>;

describe('ghostwire proxy serve', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

  it('serves over stdio; a SIGKILLed proxy leaves no child behind and loses no recorded call', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = join(dir, 'store.db');
    const transport = new StdioClientTransport({
      command: process.execPath, args: [bin, 'proxy', 'serve', '--config', writeConfig(dir), '--store', store], env: childEnv(), stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    // preconnect_servers: docs connects in the background without being asked.
    await expect.poll(async () => json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers[0].state, { timeout: 10_000 }).toBe('connected');
    for (let i = 0; i < 5; i++) {
      const r = (await client.callTool({ name: 'call_tool', arguments: { server: 'docs', tool: 'search_docs', arguments: { query: `q${i}` } } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
    }
    const childPid = json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers[0].pid as number;
    expect(isAlive(childPid)).toBe(true);
    // Calls are committed in batches within 25 ms; give the last batch that long, then kill without warning.
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(transport.pid as number, 'SIGKILL');
    await expect.poll(() => isAlive(childPid), { timeout: 10_000 }).toBe(false);
    const db = openStore(store);
    expect(new MetricsRecorder(db).get({ server: 'docs', tool: 'search_docs' })[0]).toMatchObject({ call_count: 5, success_count: 5 });
    db.close();
  });

  it('closes its children when the client closes stdin', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const transport = new StdioClientTransport({
      command: process.execPath, args: [bin, 'proxy', 'serve', '--config', writeConfig(dir), '--store', join(dir, 's.db')], env: childEnv(), stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await client.connect(transport);
    await client.callTool({ name: 'list_tools', arguments: { server: 'docs' } });
    const childPid = json(await client.callTool({ name: 'list_mcp_servers', arguments: {} })).servers[0].pid as number;
    const proxyPid = transport.pid as number;
    await client.close();
    await expect.poll(() => isAlive(childPid), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => isAlive(proxyPid), { timeout: 10_000 }).toBe(false);
  });

  it('serves Streamable HTTP with --http', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const child = spawn(process.execPath, [bin, 'proxy', 'serve', '--config', writeConfig(dir), '--store', join(dir, 's.db'), '--http', '127.0.0.1:0'], {
      env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    cleanups.push(() => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }));
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) => {
        const m = /^listening (http:\/\/\S+)$/.exec(line);
        if (m) resolve(m[1]); else reject(new Error(line));
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const client = new Client({ name: 'http-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const r = (await client.callTool({ name: 'call_tool', arguments: { server: 'docs', tool: 'resolve_library_id', arguments: { name: 'zod' } } })) as CallToolResult;
    expect(r.content).toEqual([{ type: 'text', text: '/lib/zod' }]);
    await client.close();
  });
});
