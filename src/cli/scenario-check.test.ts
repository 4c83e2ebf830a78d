import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scenarioCommand, type CommandIO } from './scenario-check.ts';

const run = promisify(execFile);

async function check(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CommandIO = { out: (t) => void (out += t), err: (t) => void (err += t) };
  const code = await scenarioCommand(args, io);
  return { code, out, err };
}

describe('ghostwire scenario check', () => {
  it('prints ok with counts for the example scenarios', async () => {
    const { code, out, err } = await check(['check', 'fixtures/scenarios']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.split('\n')[0]).toBe('ok: 5 files, 5 scenarios, 11 steps');
    expect(out).toContain('fixtures/scenarios/weather.json: weather (2 steps)');
  });

  it('prints every problem with file:line:column and exits 1', async () => {
    const { code, out, err } = await check(['check', 'fixtures/scenarios-bad/wrong-fields.json']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('fixtures/scenarios-bad/wrong-fields.json:16:68: steps[2].respond.toolCalls[1].name: expected a non-empty string, got ""');
    expect(err.trimEnd().split('\n').at(-1)).toBe('6 problems in 1 file');
  });

  it('reports merges and accepts several paths', async () => {
    const { code, out } = await check(['check', 'fixtures/scenarios/weather.json', 'fixtures/scenarios/weather.json']);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toBe('ok: 2 files, 1 scenario (1 merged by name), 2 steps');
  });

  it('prints warnings but still passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ghostwire-check-'));
    try {
      const file = join(dir, 'w.json');
      writeFileSync(file, JSON.stringify({ name: 'w', steps: [{ respond: { text: 'a' }, consume: false }, { respond: { text: 'b' } }] }, null, 2));
      const { code, out, err } = await check(['check', file]);
      expect(code).toBe(0);
      expect(out.split('\n')[0]).toBe('ok: 1 file, 1 scenario, 2 steps');
      expect(err).toBe(`warning: ${file}:10:5: steps[1]: never answers: steps[0] before it matches every request and is never consumed\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--json gives a machine-readable report', async () => {
    const good = await check(['check', '--json', 'fixtures/scenarios/errors.json']);
    expect(JSON.parse(good.out)).toEqual({ ok: true, files: 1, scenarios: [{ name: 'errors', priority: 10, steps: 4 }], issues: [], warnings: [] });
    const bad = await check(['check', 'fixtures/scenarios-bad/truncated.json', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out).issues).toEqual([
      { file: 'fixtures/scenarios-bad/truncated.json', path: '', line: 4, column: 1, message: 'invalid JSON: unexpected end of input, expected a JSON value' },
    ]);
  });

  it('explains usage mistakes with exit 2', async () => {
    expect((await check([])).code).toBe(2);
    expect((await check(['check'])).code).toBe(2);
    const unknownSub = await check(['lint', 'x']);
    expect(unknownSub.code).toBe(2);
    expect(unknownSub.err).toContain('unknown subcommand "lint"');
    const unknownOpt = await check(['check', '--bogus', 'fixtures/scenarios']);
    expect(unknownOpt.code).toBe(2);
    expect(unknownOpt.err).toContain('unknown option --bogus');
  });

  it('works through the real bin (spawned with this Node)', async () => {
    const ok = await run(process.execPath, ['bin/ghostwire.js', 'scenario', 'check', 'fixtures/scenarios']);
    expect(ok.stdout.split('\n')[0]).toBe('ok: 5 files, 5 scenarios, 11 steps');
    const bad = await run(process.execPath, ['bin/ghostwire.js', 'scenario', 'check', 'fixtures/scenarios-bad']).then(
      () => {
        throw new Error('expected exit code 1');
      },
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('fixtures/scenarios-bad/invalid-json.json:5:5: invalid JSON');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
