/**
 * The setup file the ghostwire plugin registers: installs this worker's goldens runtime with the
 * plugin's options and registers `toMatchGolden`. Also importable directly from a test file when the
 * plugin is not configured: options are then the defaults, with root and `-u` taken from Vitest's config.
 */
import { expect, inject } from 'vitest';
import { GoldensRuntime, goldensRuntime } from '../goldens/runtime.ts';
import { resolveGoldensConfig } from '../goldens/config.ts';
import { toMatchGolden } from './golden-matcher.ts';
import { primeWorkerInterceptor } from './golden-interceptor.ts';
import { goldenScope } from './golden-scope.ts';

/** Vitest's worker config (internal, read-only, optional): the fallback when no plugin provided options. */
function workerConfig(): { root?: string; snapshotOptions?: { updateSnapshot?: string } } | undefined {
  return (globalThis as { __vitest_worker__?: { config?: { root?: string; snapshotOptions?: { updateSnapshot?: string } } } }).__vitest_worker__?.config;
}

const provided = inject('ghostwire');
goldensRuntime(() => {
  if (provided) return new GoldensRuntime(provided);
  const config = workerConfig();
  return new GoldensRuntime(resolveGoldensConfig({}, { root: config?.root ?? process.cwd(), env: process.env, update: config?.snapshotOptions?.updateSnapshot === 'all' }));
});
expect.extend({ toMatchGolden });
// Each test in its own golden slot: the golden fixture and toMatchGolden find their test's session there (test.concurrent).
goldenScope();
if (provided?.interceptEarly) primeWorkerInterceptor();
