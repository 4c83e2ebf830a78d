/**
 * Proxy start-up, lazy vs eager (the seed's Phase 7 benchmark), same run, medians of a few starts each
 * (every start spawns three fixture MCP servers, ~0.4 s each, so samples are few and timed by hand):
 * - lazy: createProxy → the first `list_mcp_servers` answered through an MCP client; no downstream started.
 * - eager (`lazy_connect: false`): the same, then every server connected and its tools indexed, which is
 *   when an eager proxy is ready to serve its first tool call without waiting.
 * - lazy, first tool call: what the lazy proxy's first user pays instead (one server connected on demand).
 * No goal: the figures show what laziness buys at start and what the first call pays for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, expect, test } from 'vitest';
import { createProxy } from '../src/proxy/create-proxy.ts';
import { stdioEntry } from '../src/proxy/test-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'ghostwire-proxy-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLES = 5;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const servers = { db: stdioEntry('sqlite'), docs: stdioEntry('proxy-docs'), names: stdioEntry('awkward-names') };

async function start(lazy: boolean, i: number) {
  const t0 = performance.now();
  const proxy = createProxy(
    { mcpServers: servers, mcp_client_proxy: { lazy_connect: lazy } },
    { storePath: join(dir, `${lazy ? 'lazy' : 'eager'}-${i}.db`), embedder: null, llm: null },
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await proxy.connect(a);
  const client = new Client({ name: 'startup-bench', version: '1' });
  await client.connect(b);
  await client.callTool({ name: 'list_mcp_servers', arguments: {} });
  const answering = performance.now() - t0;
  if (!lazy) await Promise.all(proxy.core.serverNames().map((name) => proxy.core.discover(name)));
  const ready = performance.now() - t0;
  return { proxy, client, answering, ready };
}

test('proxy start-up: lazy vs eager connection (reported, no goal)', async ({ annotate }) => {
  const lazy: number[] = [];
  const eager: number[] = [];
  const lazyFirstCall: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const l = await start(true, i);
    lazy.push(l.answering);
    const t = performance.now();
    const result = await l.client.callTool({ name: 'call_tool', arguments: { server: 'db', tool: 'list_tables', arguments: {} } });
    lazyFirstCall.push(performance.now() - t);
    expect(result.isError).toBeFalsy();
    expect(l.proxy.core.listServers().servers.filter((s) => s.state === 'connected').map((s) => s.name)).toEqual(['db']);
    await l.client.close();
    await l.proxy.close();

    const e = await start(false, i);
    eager.push(e.ready);
    expect(e.proxy.core.listServers().servers.every((s) => s.state === 'connected')).toBe(true);
    await e.client.close();
    await e.proxy.close();
  }
  const line =
    `proxy start-up with 3 stdio servers, median of ${SAMPLES}: lazy ${median(lazy).toFixed(1)} ms to answer; ` +
    `eager ${median(eager).toFixed(1)} ms until every server is connected and indexed; ` +
    `the lazy proxy's first call_tool then pays ${median(lazyFirstCall).toFixed(1)} ms (one server connected on demand)`;
  console.info(line);
  await annotate(line);
  expect(median(lazy)).toBeLessThan(median(eager));
}, 120_000);
