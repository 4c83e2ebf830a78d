import { delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCI } from 'std-env';
import type { Plugin } from 'vitest/config';
import { parseGoldensOptions, resolveGoldensConfig, type GoldensOptionsInput, type OutputsUpdate } from '../goldens/config.ts';
// The provider registry's list of default origins: the hosts sealed in every test file.
import { PROVIDER_ORIGINS } from '../providers/index.ts';
import { loadScenarios } from '../scenario/loader.ts';
import { GoldensReporter } from './goldens-reporter.ts';
import { checkRuntime } from './runtime-check.ts';

export { checkRuntime };

/** The plugin's options: the goldens options, plus where the `mockLLM` fixture's default scenarios live. */
export type GhostwireOptions = GoldensOptionsInput & {
  /** A scenario file or directory every `mockLLM` fixture starts with (default: `MOCKLLM_SCENARIOS`). */
  scenarios?: string;
};

// `.ts` in the repository, `.js` in the built package.
const SETUP_FILE = fileURLToPath(new URL(`./setup${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/** CI as Vitest detects it (std-env), except that an explicit CI=0/false means not CI. */
function detectCI(env: NodeJS.ProcessEnv): boolean {
  if (env.CI !== undefined && /^(0|false|no|)$/i.test(env.CI.trim())) return false;
  return isCI || (env.CI !== undefined && env.CI !== '');
}

/**
 * The ghostwire Vitest plugin: its setup file seals the providers' hosts from the first line of every
 * test file and routes each test's requests to its own mocks and golden; it hands the resolved options
 * to the workers and adds the goldens reporter. Options are validated up front.
 * @example
 *   // vitest.config.ts
 *   import { defineConfig } from 'vitest/config';
 *   import { ghostwire } from 'ghostwire/plugin';
 *   export default defineConfig({ plugins: [ghostwire({ goldensDir: 'goldens', maxAgeDays: 90, scenarios: 'fixtures/scenarios' })] });
 */
export function ghostwire(options: GhostwireOptions = {}): Plugin {
  checkRuntime(process.versions.node, undefined);
  const { scenarios, ...goldens } = options;
  if (scenarios !== undefined && (typeof scenarios !== 'string' || scenarios.trim() === '')) {
    throw new Error(`ghostwire plugin: scenarios: expected a scenario file or directory path, got ${JSON.stringify(scenarios)}`);
  }
  const parsed = parseGoldensOptions(goldens);
  let warned = false;
  return {
    name: 'ghostwire',
    config() {
      return { test: { setupFiles: [SETUP_FILE] } };
    },
    configureVitest({ vitest, project }) {
      checkRuntime(process.versions.node, vitest.version);
      const update = (vitest.config.snapshotOptions?.updateSnapshot ?? 'new') as OutputsUpdate;
      const ci = detectCI(process.env);
      const resolved = resolveGoldensConfig(parsed, { root: project.config.root, env: process.env, update, ci, providerOrigins: PROVIDER_ORIGINS });
      project.provide('ghostwire', resolved);
      const source = scenarios ?? process.env.MOCKLLM_SCENARIOS?.trim();
      if (source) {
        const paths = source.split(delimiter).filter(Boolean).map((p) => resolve(project.config.root, p));
        // Loaded once here so a bad file fails the run up front, naming file and JSON path.
        loadScenarios(paths);
        project.provide('ghostwireScenarios', paths);
      }
      if (ci && process.env.GHOSTWIRE_RECORD && !warned) {
        warned = true;
        vitest.logger.warn('ghostwire: CI is set, so goldens are replayed; GHOSTWIRE_RECORD / --record-goldens is ignored in CI.');
      }
      const reporters = vitest.config.reporters as unknown[];
      if (!reporters.some((r) => r instanceof GoldensReporter)) reporters.push(new GoldensReporter(resolved));
    },
  };
}
