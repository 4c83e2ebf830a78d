import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveOnPort, type ServedMock } from './testing/spawn-serve.ts';

/**
 * The MCP conformance suite's server scenarios (every one, `--suite all`) against
 * `ghostwire mcp serve --scenarios fixtures/mcp/conformance.json` on a 127.0.0.1 port.
 * The suite only talks to the URL it is given: no network.
 */

const SCENARIO = resolve(import.meta.dirname, '../../../fixtures/mcp/conformance.json');
const require = createRequire(import.meta.url);
const CONFORMANCE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

let served: ServedMock;
let workDir: string;
let suite: ChildProcess | undefined;

beforeAll(async () => {
  served = await serveOnPort(SCENARIO);
  workDir = mkdtempSync(join(tmpdir(), 'gw-conformance-'));
});

afterAll(async () => {
  // A suite still running (the test timed out) ends with its process group.
  if (suite && suite.exitCode === null && suite.signalCode === null) {
    try {
      process.kill(-suite.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await served?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function runSuite(url: string): Promise<{ code: number | null; out: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, '--suite', 'all'], { cwd: workDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    suite = child;
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => res({ code, out }));
  });
}

it('passes every server scenario of @modelcontextprotocol/conformance', { timeout: 180_000 }, async () => {
  const { code, out } = await runSuite(served.url);
  const summary = out.slice(out.indexOf('=== SUMMARY ==='));
  const rows = [...summary.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gm)].map((m) => ({ ok: m[1] === '✓', name: m[2], failed: Number(m[4]) }));
  const failing = rows.filter((r) => !r.ok || r.failed > 0).map((r) => r.name);
  expect(failing, summary).toEqual([]);
  expect(rows.length, summary).toBe(32);
  expect(code, summary).toBe(0);
});
