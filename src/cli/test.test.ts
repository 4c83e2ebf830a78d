import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitTestArgs } from './test.ts';

describe('ghostwire test', () => {
  it('takes its own flags out and passes everything else to Vitest unchanged', () => {
    expect(splitTestArgs(['--record-goldens', 'run', 'src/a.test.ts', '-u', '--reporter', 'dot'])).toEqual({
      record: 'all',
      vitestArgs: ['run', 'src/a.test.ts', '-u', '--reporter', 'dot'],
      help: false,
    });
    expect(splitTestArgs(['--record-missing', '-t', 'weather']).record).toBe('missing');
    expect(splitTestArgs(['-h']).help).toBe(true);
  });

  it('an option Vitest does not know is a clear usage error (exit 2), not a crash', () => {
    const run = spawnSync(process.execPath, [resolve(import.meta.dirname, '../../bin/ghostwire.js'), 'test', '--bogus-flag'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/ghostwire test: Unknown option/);
    expect(run.stderr).toContain('--record-goldens');
  });
});
