/**
 * Per-test-file overhead of the ghostwire Vitest plugin (issue 10's goal: <= 50 ms, from ~350 ms).
 * Temp projects of test files with one empty test each, run by a child Vitest with and without the plugin
 * in the same run, alternating, one worker, forks pool with isolation (Vitest's default: every file in a
 * fresh worker, the worst case). The plugin's extra time is measured at SMALL and LARGE file counts: its
 * growth per added file is the per-file overhead; what remains is the run's one-off cost (the plugin in
 * the main process: options, provider registry, reporter), reported beside it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SMALL = 2;
const LARGE = 12;
const SAMPLES = 5;
const dir = join(ROOT, '.tmp', `bench-plugin-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A project of `files` empty test files with both configs; returns its folder. */
function project(files: number): string {
  const root = join(dir, String(files));
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < files; i++) writeFileSync(join(root, `f${i}.test.ts`), "import { test } from 'vitest';\ntest('empty', () => {});\n");
  const plugin = JSON.stringify(join(ROOT, 'src/vitest/plugin.ts'));
  const test = "test: { include: ['*.test.ts'], pool: 'forks', maxWorkers: 1 }";
  writeFileSync(join(root, 'with.config.ts'), `import { defineConfig } from 'vitest/config';\nimport { ghostwire } from ${plugin};\nexport default defineConfig({ plugins: [ghostwire()], ${test} });\n`);
  writeFileSync(join(root, 'without.config.ts'), `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ ${test} });\n`);
  return root;
}

/** Vitest's own summary of the time spent in setup files, per file ("Duration 1.2s (setup 34%, …)"). */
const setups: number[] = [];

function runOnce(root: string, files: number, config: string): number {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const k of ['VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS', 'CI']) delete env[k];
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root, '--config', join(root, config)], { env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.stdout).toMatch(new RegExp(`${files} passed`));
  const summary = /Duration\s+(\d+(?:\.\d+)?)(m?s)\s+\(([^)]*)\)/.exec(result.stdout);
  if (config === 'with.config.ts' && files === LARGE && summary) {
    const total = Number(summary[1]) * (summary[2] === 's' ? 1000 : 1);
    const share = /setup (\d+(?:\.\d+)?)%/.exec(summary[3]);
    setups.push(share ? (total * Number(share[1])) / 100 / files : 0);
  }
  return ms;
}

/** The plugin's extra time (median with − median without) for a project of `files` files. */
function extra(files: number): { without: number; withPlugin: number; extra: number } {
  const root = project(files);
  runOnce(root, files, 'without.config.ts'); // warm the transform cache for both
  runOnce(root, files, 'with.config.ts');
  const without: number[] = [];
  const withPlugin: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    without.push(runOnce(root, files, 'without.config.ts'));
    withPlugin.push(runOnce(root, files, 'with.config.ts'));
  }
  return { without: median(without), withPlugin: median(withPlugin), extra: median(withPlugin) - median(without) };
}

test(`plugin overhead per test file (one empty test per file; goal <= 50 ms)`, { timeout: 900_000 }, async ({ annotate }) => {
  const small = extra(SMALL);
  const large = extra(LARGE);
  const perFile = (large.extra - small.extra) / (LARGE - SMALL);
  const oneOff = small.extra - SMALL * perFile;
  const line =
    `${LARGE} files: ${Math.round(large.without)} ms without the plugin, ${Math.round(large.withPlugin)} ms with; ` +
    `${SMALL} files: ${Math.round(small.without)} / ${Math.round(small.withPlugin)} ms → ${perFile.toFixed(1)} ms per file, ${Math.round(oneOff)} ms once per run; ` +
    `Vitest's own estimate of the setup files' share: ~${(median(setups) || 0).toFixed(1)} ms per file`;
  console.info(line);
  await annotate(line);
  expect(perFile).toBeLessThanOrEqual(50);
});
