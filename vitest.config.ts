import { readdirSync, readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './vitest.sequencer.ts';

// In this repository `ghostwire/*` self-imports resolve to the TypeScript sources (the `ghostwire-source`
// export condition) instead of dist/, which only an installed package uses. Vite keeps its default
// conditions alongside these; Vitest runs tests in the ssr environment and also passes its conditions to
// the worker processes as `--conditions`.
const conditions = ['ghostwire-source'];

// Node's compile cache (V8 code cache, type-stripped TypeScript included) for every process of the run: the
// workers and the many Node children the tests start (fixture MCP servers, the CLI, a user's Vitest) load the
// same SDK and source modules, and reading them from the cache halves their load time. The variable reaches
// the workers and every child that inherits the environment; a fresh clone fills the cache in its first run.
process.env.NODE_COMPILE_CACHE ??= resolve(import.meta.dirname, 'node_modules/.cache/node-compile-cache');
enableCompileCache(process.env.NODE_COMPILE_CACHE);

const roots = ['src', 'examples', 'fixtures', 'bench'];
const testFiles = roots.flatMap((root) =>
  (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts')).map((f) => join(root, f)),
);
// End to end: a whole process run as a user runs it: a project's Vitest run in a child process, a user's
// project installed from the packed tarball, `ghostwire test` on a fixture project, and any file that runs
// the `ghostwire` command itself (bin/ghostwire.js, or `mcp serve` through spawn-serve.ts). They are the
// suite's costliest files (over half of its CPU with the pack's build and the CLI's children), so they form
// their own project, run by `npm run test:e2e` (CI runs it after `npm test`): `npm test` stays the quick
// loop over the library in-process (docs/decisions/suite-speed.md). The package tests also share one
// `npm pack` (pack-once.ts), which needs them in one project: Vitest runs a global setup once per project.
const E2E = /installPacked|installUserProject|runGhostwireTest|ghostwire\.js'|spawn-serve\.ts'/;
// A test file in the Vitest layer (src/vitest) runs in a fresh process. A `*.port.test.ts` file needs a
// process where nothing intercepts (HTTP/2 clients to the real port, Bedrock's default, stall under the
// in-process layer, which stays on in a worker once a file started it): it goes to `shared`, whose files
// leave nothing patched (the guard below checks), whatever else it imports.
// Files that use ghostwire's in-process layer (useMockLLM, the MCP goldens, the golden fixture) as a user's
// tests do, the examples included, share workers the way the layer documents for `isolate: false`: its setup
// file before every file. Of src/vitest, only the files that use the layer that way and test nothing about a
// fresh process, another MSW server, the plugin or a child process's run.
const LAYER_AS_USED = ['golden-fixture', 'mock-llm-fixture', 'test', 'use-mock-llm', 'use-mock-llm-concurrent', 'use-mock-mcp'].map((name) => join('src', 'vitest', `${name}.test.ts`));
const IN_PROCESS = /useMockLLM|useMockMCP|useMCPGolden|mockLLMScope|golden-setup|golden-fixture|ghostwire\/vitest|\/vitest\/[\w-]+\.ts'/;
// Files that intercept fetch otherwise (MSW servers, the goldens layer's own interceptor) share workers
// with each other only: two MSW servers listening in one process both intercept, so each file must close
// what it started. A setup file checks that after every file of the shared projects
// (vitest.interception-guard.ts); files reaching MSW through a helper (the providers' conformance rigs) sit
// in `shared` and close what they start too.
const INTERCEPTS = /from 'msw|setupServer|mswServer|MswServer|mswInterceptor|\.intercept\(|mockLLMHandlers|goldens\/testing\/runtime|'\.\/testing\/runtime\.ts'/;
const sources = new Map(testFiles.map((f) => [f, readFileSync(f, 'utf8')]));
const e2e = testFiles.filter((f) => E2E.test(sources.get(f)!));
const port = (f: string) => f.endsWith('.port.test.ts');
const isolated = testFiles.filter((f) => !e2e.includes(f) && f.startsWith(join('src', 'vitest')) && !LAYER_AS_USED.includes(f));
const inProcess = testFiles.filter((f) => !e2e.includes(f) && !isolated.includes(f) && !port(f) && (LAYER_AS_USED.includes(f) || IN_PROCESS.test(sources.get(f)!)));
const intercepting = testFiles.filter((f) => !e2e.includes(f) && !isolated.includes(f) && !inProcess.includes(f) && !port(f) && INTERCEPTS.test(sources.get(f)!));
const shared = testFiles.filter((f) => !e2e.includes(f) && !isolated.includes(f) && !inProcess.includes(f) && !intercepting.includes(f));

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is cores - 1 workers: one on the 2-core machine, idle while its test waits on the
    // processes and sockets it started. One per core: cores + 1 had filled those waits, but the suite is
    // CPU-bound now, and three alternating pairs of runs on 2 cores gave one per core 7–15% less CPU and
    // the same or less wall time (docs/decisions/suite-speed.md).
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirstSequencer },
    // The package tests' tarball, packed once for the run when the first of them asks (not before); the
    // fixture MCP servers as single files, built when their inputs changed.
    globalSetup: ['src/cli/testing/pack-once.ts', 'vitest.fixture-bundles.ts'],
    // CI also writes the results as JSON, so .ci/run can close with a plain "N passed, N failed" line
    // (`npm run test:e2e` names its own file with --outputFile.json).
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.tmp/test-results.json' },
    projects: [
      { extends: true, test: { name: 'e2e', include: e2e, isolate: true, benchmark: { include: [] } } },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
      { extends: true, test: { name: 'in-process', include: inProcess, isolate: false, setupFiles: ['src/vitest/setup.ts'], benchmark: { include: [] } } },
      { extends: true, test: { name: 'intercepting', include: intercepting, isolate: false, setupFiles: ['vitest.interception-guard.ts'], benchmark: { include: [] } } },
      // Bench files run once, each in its own process (the isolated project's default).
      { extends: true, test: { name: 'shared', include: shared, isolate: false, setupFiles: ['vitest.interception-guard.ts'], benchmark: { include: [] } } },
    ],
  },
});
