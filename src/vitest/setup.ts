/**
 * The setup file the ghostwire plugin registers (`ghostwire/vitest/setup`, which a project without the
 * plugin may list in `setupFiles`; `ghostwire/vitest` also imports it). As a setup file it runs before each
 * test file's imports, so provider hosts are sealed from the first line: an SDK client built at module
 * level keeps the intercepted `fetch`. It registers the one per-test hook (each test in its own slot) and
 * `toMatchGolden`. It loads no goldens, ghost, proxy or MCP code.
 *
 * Vitest evaluates a setup file again for every test file, isolated or not, while an import is evaluated
 * once per worker: under `isolate: false` only the setup file reaches every file. Both may run for one file
 * (the plugin's setup file, then the test's import of `ghostwire/vitest`, a separate module instance), so
 * the hook is registered once per file, recorded on the worker's layer.
 */
import { aroundEach, expect, inject, TestRunner } from 'vitest';
import { inProcessLayer, type SealOptions } from './in-process.ts';
import { checkRuntime } from './runtime-check.ts';
import { toMatchGolden } from './golden-matcher.ts';

/** Without the plugin: the providers' hosts from the registry, sealed unless GHOSTWIRE_RECORD asks to record. */
async function defaults(): Promise<SealOptions> {
  const { PROVIDER_ORIGINS, PROVIDER_HOST_PATTERNS } = await import('../providers/index.ts');
  const { resolveTraffic } = await import('../goldens/config.ts');
  return { sealedOrigins: [...PROVIDER_ORIGINS], sealedHostPatterns: [...PROVIDER_HOST_PATTERNS], seal: resolveTraffic('replay', process.env, !!process.env.CI && !/^(0|false)$/i.test(process.env.CI)) !== 'record' };
}

checkRuntime(process.versions.node, undefined);
const provided = inject('ghostwire');
const layer = inProcessLayer(provided ? { sealedOrigins: [...provided.providerOrigins, ...provided.hosts], sealedHostPatterns: provided.providerHostPatterns, seal: provided.traffic !== 'record' } : await defaults());
layer.seal();
if (layer.claimFile(TestRunner.getCurrentSuite().file)) {
  // Vitest parses a hook's context argument like a fixture's: it must be destructured.
  aroundEach(async (runTest, { task, onTestFinished }) => layer.runTest({ task, onTestFinished }, runTest));
}
expect.extend({ toMatchGolden });
