// The MCP conformance suite (@modelcontextprotocol/conformance, its `server` command) against the
// proxy's Streamable HTTP endpoint on 127.0.0.1, with server-everything downstream for resources and
// prompts. The CLI talks only to --url (its GitHub client serves `tier-check`, which is not run here).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from './create-proxy.ts';
import { tempDir } from './test-helpers.ts';

const cli = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/** Scenarios the proxy must pass; the others need tools, prompts and resources with names the suite fixes. */
const REQUIRED = ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];

interface Check { id: string; status: string; errorMessage?: string }

describe('MCP conformance suite against the proxy', () => {
  const { dir, cleanup } = tempDir();
  let proxy: McpProxy;
  let url: string;

  beforeAll(async () => {
    proxy = createProxy({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } },
      { storePath: join(dir, 'p.db'), env: {}, embedder: null, llm: null });
    ({ url } = await proxy.listen({ port: 0 }));
  });
  afterAll(async () => {
    await proxy?.close();
    cleanup();
  });

  it(`passes ${REQUIRED.join(', ')}`, async () => {
    const out = join(dir, 'results');
    // The suite's exit code counts the scenarios that need the suite's own fixtures too: read the results.
    await promisify(execFile)(process.execPath, [cli, 'server', '--url', url, '-o', out], { timeout: 120_000 }).catch((err: { stdout?: string }) => err);
    const results = new Map<string, Check[]>();
    for (const folder of readdirSync(out)) {
      const scenario = REQUIRED.find((name) => folder.startsWith(`server-${name}-`));
      if (scenario) results.set(scenario, JSON.parse(readFileSync(join(out, folder, 'checks.json'), 'utf8')) as Check[]);
    }
    const summary = Object.fromEntries(REQUIRED.map((name) => [name, (results.get(name) ?? []).map((c) => `${c.id}: ${c.status}${c.errorMessage ? ` (${c.errorMessage})` : ''}`)]));
    for (const name of REQUIRED) {
      expect(summary[name].length, `${name} ran`).toBeGreaterThan(0);
      expect(summary[name].every((line) => /: SUCCESS$/.test(line)), `${name}: ${summary[name].join('; ')}`).toBe(true);
    }
  }, 150_000);
});
