// The plugin's `scenarios` option end to end: a small project run through the bin in a child process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGhostwireTest } from './testing/run-ghostwire-test.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ghostwire-plugin-scenarios-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (env: Record<string, string>) =>
  runGhostwireTest('fixtures/scenarios-project', [], { GW_GOLDENS_DIR: join(tmp, 'goldens'), ...env });


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
