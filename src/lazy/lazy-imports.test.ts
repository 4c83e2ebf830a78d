// Importing ghostwire's test-facing entry points must not load the dependencies that only some tests need
// (src/lazy): each is loaded on first use instead. Checked in a fresh Node process per entry, whose resolve
// hook lists every package the import graph reaches (the graph is resolved in full before any module runs,
// so an entry that fails to evaluate outside Vitest still lists all of them).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'gw-lazy-'));
const hook = join(dir, 'hook.mjs');
writeFileSync(hook, `import { registerHooks } from 'node:module';
const packages = new Set();
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  const m = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
  if (m) packages.add(m[1]);
  // ghostwire's own folders, as 'ghostwire:src/<folder>[/<subfolder>]'.
  const own = /\\/src\\/([a-z-]+)\\/(?:([a-z-]+)\\/)?/.exec(resolved.url);
  if (own && !m) packages.add('ghostwire:src/' + own[1] + (own[2] ? '/' + own[2] : ''));
  return resolved;
} });
process.on('exit', () => {
  // Node's own fetch and WebSocket (undici), listed as 'node:undici': importing node:http as a module reads its
  // lazy WebSocket getters and loads it (~30-70 ms), so entries load node:http when a server starts instead.
  if (process.moduleLoadList.some((m) => m.endsWith('deps/undici/undici'))) packages.add('node:undici');
  process.stdout.write('\\n' + JSON.stringify([...packages]));
});
`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages (and ghostwire's own folders, `ghostwire:src/<folder>[/<subfolder>]`) an import of `entry` (a source file) reaches, in a fresh process. */
function packagesOf(entry: string): string[] {
  const url = pathToFileURL(join(ROOT, entry)).href;
  const child = spawnSync(process.execPath, ['--conditions=ghostwire-source', '--import', pathToFileURL(hook).href, '--input-type=module', '-e', `await import(${JSON.stringify(url)}).catch(() => {})`], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as string[];
}

const LOADED_ON_FIRST_USE = ['ajv', 'ws', '@smithy/eventstream-codec', '@secretlint/core', '@modelcontextprotocol/sdk'];

describe('what importing an entry point loads', () => {
  it.each(['src/index.ts', 'src/transports/msw.ts', 'src/transports/server.ts', 'src/vitest/index.ts'])('%s: none of the dependencies loaded on first use', (entry) => {
    const packages = packagesOf(entry);
    // The graph was walked: the scenario schemas' zod is in every one.
    expect(packages).toContain('zod');
    expect(packages.filter((p) => LOADED_ON_FIRST_USE.includes(p))).toEqual([]);
    // msw loads it itself (its interceptors build on the Fetch API's classes); the others must not.
    if (!packages.includes('msw')) expect(packages).not.toContain('node:undici');
  });

  // The MCP mock (its CLI, `ghostwire/mcp`) shares the scenario format's pieces, not the LLM's providers
  // (only providers/common's byte helpers, which the real-port writer uses).
  it.each(['src/cli/mcp.ts', 'src/mcp/index.ts'])('%s: none of the LLM providers', (entry) => {
    const packages = packagesOf(entry);
    expect(packages).toContain('@modelcontextprotocol/sdk');
    expect(packages.filter((p) => p.startsWith('ghostwire:src/providers') && p !== 'ghostwire:src/providers/common')).toEqual([]);
    // A stdio server never listens: node:http (and the undici it loads) waits for an HTTP start.
    expect(packages).not.toContain('node:undici');
  });

  // The proxy (`ghostwire/proxy`, and its CLI, which a user's MCP client starts): the openai SDK is an optional
  // peer loaded when an embedder is made, the ranking LLM's providers come from the ghost's provider factory
  // alone, and the mock LLM (every provider adapter) is `proxy eval`'s, loaded for that subcommand.
  it.each(['src/cli/proxy.ts', 'src/proxy/index.ts'])('%s: neither the openai SDK nor the mock LLM', (entry) => {
    const packages = packagesOf(entry);
    expect(packages).toContain('ghostwire:src/proxy');
    expect(packages.filter((p) => p === 'openai' || p.startsWith('ghostwire:src/providers') || p.startsWith('ghostwire:src/transports') || p.startsWith('ghostwire:src/scenario'))).toEqual([]);
    expect(packages).not.toContain('node:undici');
  });
});
