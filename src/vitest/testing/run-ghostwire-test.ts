/**
 * Runs `ghostwire test` on a fixture project in a child process (the end-to-end tests of the plugin,
 * the reporter and the golden fixture), with the parent's test-run variables scrubbed so the child
 * decides its mode only from what the test passes.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../../..');
const BIN = join(REPO, 'bin/ghostwire.js');
/** Variables of the parent run that would change the child's mode or pool. */
const SCRUBBED = ['CI', 'GHOSTWIRE_RECORD', 'GHOSTWIRE_UPSTREAM', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS', 'MOCKLLM_SCENARIOS'];

/** What a run printed (stdout and stderr together) and how it exited. */
export interface GhostwireRun {
  code: number | null;
  output: string;
}

/**
 * `ghostwire test --root <root> --color=false ...args` from the repository root; killed after 60 s.
 * @example
 *   const { code, output } = await runGhostwireTest('fixtures/goldens-project', ['-u'], { CI: '1' });
 */
export function runGhostwireTest(root: string, args: string[], env: Record<string, string | undefined>, scrub: readonly string[] = []): Promise<GhostwireRun> {
  return new Promise((done, fail) => {
    const clean = { ...process.env };
    for (const k of [...SCRUBBED, ...scrub]) delete clean[k];
    const child = spawn(process.execPath, [BIN, 'test', '--root', root, '--color=false', ...args], {
      cwd: REPO,
      env: { ...clean, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
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
