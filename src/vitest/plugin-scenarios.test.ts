// The plugin's `scenarios` option end to end: a small project run through the bin in a child process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'ghostwire-plugin-scenarios-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const clean = { ...process.env };
    for (const k of ['CI', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS', 'MOCKLLM_SCENARIOS']) delete clean[k];
    const child = spawn(process.execPath, [join(REPO, 'bin/ghostwire.js'), 'test', '--root', 'fixtures/scenarios-project'], {
      cwd: REPO,
      env: { ...clean, FORCE_COLOR: '0', NO_COLOR: '1', GW_GOLDENS_DIR: join(tmp, 'goldens'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

describe('ghostwire({ scenarios })', () => {
  it('gives every mockLLM fixture the configured scenarios', async () => {
    const { code, output } = await run({});
    expect(output).toMatch(/1 passed/);
    expect(code).toBe(0);
  }, 60_000);

  it('fails the run up front when the scenario file is bad, naming file and JSON path', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'bad', steps: [{ respond: { text: 42 } }] }));
    const { code, output } = await run({ GW_SCENARIOS: bad });
    expect(code).not.toBe(0);
    expect(output).toContain('bad.json');
    expect(output).toContain('steps[0].respond.text');
  }, 60_000);
});
