import { delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vitest/config';
import { parseGoldensOptions, resolveGoldensConfig, type GoldensOptionsInput } from '../goldens/config.ts';
import { loadScenarios } from '../scenario/loader.ts';
import { GoldensReporter } from './goldens-reporter.ts';

/** The plugin's options: the goldens options, plus where the `mockLLM` fixture's default scenarios live. */
export type GhostwireOptions = GoldensOptionsInput & {
  /** A scenario file or directory every `mockLLM` fixture starts with (default: `MOCKLLM_SCENARIOS`). */
  scenarios?: string;
};

// `.ts` in the repository, `.js` in the built package.
const SETUP_FILE = fileURLToPath(new URL(`./golden-setup${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/**
 * The ghostwire Vitest plugin: registers the goldens setup file (runtime + `toMatchGolden`), hands the
 * resolved options to the workers and adds the goldens reporter. Options are validated up front.
 * @example
 *   // vitest.config.ts
 *   import { defineConfig } from 'vitest/config';
 *   import { ghostwire } from 'ghostwire/plugin';
 *   export default defineConfig({ plugins: [ghostwire({ goldensDir: 'goldens', maxAgeDays: 90, scenarios: 'fixtures/scenarios' })] });
 */
export function ghostwire(options: GhostwireOptions = {}): Plugin {
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
      const update = vitest.config.snapshotOptions?.updateSnapshot === 'all';
      const resolved = resolveGoldensConfig(parsed, { root: project.config.root, env: process.env, update });
      project.provide('ghostwire', resolved);
      const source = scenarios ?? process.env.MOCKLLM_SCENARIOS?.trim();
      if (source) {
        const paths = source.split(delimiter).filter(Boolean).map((p) => resolve(project.config.root, p));
        // Loaded once here so a bad file fails the run up front, naming file and JSON path.
        loadScenarios(paths);
        project.provide('ghostwireScenarios', paths);
      }
      if (resolved.ci && process.env.GHOSTWIRE_RECORD && !warned) {
        warned = true;
        vitest.logger.warn('ghostwire: CI is set, so goldens are replayed; GHOSTWIRE_RECORD / --record-goldens is ignored in CI.');
      }
      const reporters = vitest.config.reporters as unknown[];
      if (!reporters.some((r) => r instanceof GoldensReporter)) reporters.push(new GoldensReporter(resolved));
    },
  };
}
