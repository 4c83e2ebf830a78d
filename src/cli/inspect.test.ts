import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeGolden } from '../goldens/store.ts';
import { sampleGolden } from '../goldens/testing/golden.ts';

const BIN = resolve(import.meta.dirname, '../../bin/ghostwire.js');

function ghostwire(args: string[], env: Record<string, string> = {}) {
  const clean = { ...process.env };
  delete clean.FORCE_COLOR;
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...clean, ...env }, timeout: 20_000 });
}

describe('ghostwire inspect', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-inspect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const good = join(dir, 'good.json');
  writeFileSync(good, serializeGolden(sampleGolden()));

  it('prints the golden plainly in a pipe, with colour when forced', () => {
    const plain = ghostwire(['inspect', good]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('── step 1 · POST api.openai.com/v1/chat/completions · 200');
    expect(plain.stdout).toContain('assistant: hello');
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    expect(ghostwire(['inspect', good], { FORCE_COLOR: '1' }).stdout).toMatch(/\x1b\[/);
  });

  it('a directory stands for every golden under it', () => {
    const run = ghostwire(['inspect', dir]);
    expect(run.stdout.match(/^golden /gm)?.length).toBeGreaterThanOrEqual(1);
    expect(run.stdout).toContain('good.json');
  });

  it('a broken golden is reported with its file and JSON path, exit code 1', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...sampleGolden(), interactions: [{ request: {} }] }));
    const run = ghostwire(['inspect', bad]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${bad}: $.interactions[0]`);
  });
});
