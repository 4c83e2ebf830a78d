// `ghostwire proxy ...` run as the user runs it: bin/ghostwire.js under this Node, no API keys.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { stdioEntry, tempDir } from '../proxy/test-helpers.ts';
import { LARGE_CATALOG_DIR } from '../proxy/eval-command.ts';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/ghostwire.js', import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI'))) as Record<string, string>;

async function ghostwire(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err: any) {
    return { code: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

describe('ghostwire proxy (CLI)', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  const config = join(dir, 'mcp.json');
  const store = join(dir, 'store.db');
  writeFileSync(config, JSON.stringify({ mcpServers: { docs: stdioEntry('proxy-docs') } }));

  it('refresh reports what changed, then nothing on the second run', async () => {
    const first = await ghostwire('proxy', 'refresh', '--config', config, '--store', store);
    expect(first.stdout).toBe('docs: 7 added, 0 updated, 0 removed, 0 unchanged, 0 embedded\n');
    const second = await ghostwire('proxy', 'refresh', '--config', config, '--store', store, '--json');
    expect(JSON.parse(second.stdout).results[0]).toMatchObject({ server: 'docs', added: [], unchanged: 7 });
    const forced = await ghostwire('proxy', 'refresh', '--config', config, '--store', store, '--force');
    expect(forced.stdout).toContain('7 updated');
  });

  it('search-tools and recommend-tools --mode answer from the catalog, noting the lexical fallback', async () => {
    const search = await ghostwire('proxy', 'search-tools', 'library', 'documentation', '--config', config, '--store', store, '--top-k', '2');
    expect(search.code).toBe(0);
    const lines = search.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^note: No embeddings API configured/);
    expect(lines[1]).toBe('mode: lexical');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^\d\.\d{3} {2}docs\/(get_library_docs|search_docs) {2}/);
    const rec = await ghostwire('proxy', 'recommend-tools', 'resolve a package name', '--mode', 'semantic', '--config', config, '--store', store, '--json');
    expect(JSON.parse(rec.stdout).recommendations[0]).toMatchObject({ server: 'docs', tool: 'resolve_library_id' });
  });

  it('fails clearly on bad input', async () => {
    const badConfig = join(dir, 'bad.json');
    writeFileSync(badConfig, JSON.stringify({ mcpServers: {}, mcp_client_proxy: { connection_timeout: -1 } }));
    // Independent processes: run them side by side.
    const [badMode, bad, unknown, noQuery, version] = await Promise.all([
      ghostwire('proxy', 'recommend-tools', 'x', '--mode', 'fast', '--config', config, '--store', join(dir, 'other.db')),
      ghostwire('proxy', 'refresh', '--config', badConfig, '--store', join(dir, 'other2.db')),
      ghostwire('proxy', 'frobnicate'),
      ghostwire('proxy', 'search-tools', '--config', config, '--store', join(dir, 'other3.db')),
      ghostwire('--version'),
    ]);
    expect(version).toMatchObject({ code: 0, stdout: `${(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n` });
    expect(badMode).toMatchObject({ code: 2, stderr: expect.stringContaining('--mode: expected semantic, hybrid or llm, got "fast"') });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${badConfig}: mcp_client_proxy.connection_timeout: must be a positive number of seconds`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(noQuery.stderr).toContain('give the query');
  });

  it('eval prints recall@k, MRR and destructive-first picks per search mode and query class', async () => {
    // Both modes over one set (the semantic pass embeds every tool; eval.test.ts covers the modes on every
    // set). The run over the eight default sets is the package test's, from the installed tarball.
    const both = await ghostwire('proxy', 'eval', '--json', '--catalog', LARGE_CATALOG_DIR);
    expect(both.code).toBe(0);
    const large = JSON.parse(both.stdout);
    expect(large.embeddings).toBe('mock');
    expect(large.sets[0].results.map((r: any) => r.mode)).toEqual(['lexical', 'semantic (text-embedding-3-small)']);
    expect(Object.keys(large.sets[0].results[0].byClass)).toEqual(['direct', 'synonym', 'destructive-check']);
    expect(large.sets[0].results[0].byClass.synonym).toMatchObject({ queries: 74, destructiveFirst: expect.any(Number) });
  });

  it('eval --catalog with a directory lacking its files names the missing file', async () => {
    const missing = join(tmpdir(), `gw-no-eval-set-${process.pid}`);
    const out = await ghostwire('proxy', 'eval', '--catalog', missing);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain(`${join(missing, 'tools.json')}: no such file (an eval set is a directory holding tools.json and queries.json`);
  });
});
