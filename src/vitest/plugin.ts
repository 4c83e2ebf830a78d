import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vitest/config';
import { parseGoldensOptions, resolveGoldensConfig, type GoldensOptionsInput } from '../goldens/config.ts';
import { GoldensReporter } from './goldens-reporter.ts';

export type { GoldensOptionsInput as GhostwireOptions } from '../goldens/config.ts';

// `.ts` in the repository, `.js` in the built package.
const SETUP_FILE = fileURLToPath(new URL(`./golden-setup${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/**
 * The ghostwire Vitest plugin: registers the goldens setup file (runtime + `toMatchGolden`), hands the
 * resolved options to the workers and adds the goldens reporter. Options are validated up front.
 * @example
 *   // vitest.config.ts
 *   import { defineConfig } from 'vitest/config';
 *   import { ghostwire } from 'ghostwire/plugin';
 *   export default defineConfig({ plugins: [ghostwire({ goldensDir: 'goldens', maxAgeDays: 90 })] });
 */
export function ghostwire(options: GoldensOptionsInput = {}): Plugin {
  const parsed = parseGoldensOptions(options);
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
      if (resolved.ci && process.env.GHOSTWIRE_RECORD && !warned) {
        warned = true;
        vitest.logger.warn('ghostwire: CI is set, so goldens are replayed; GHOSTWIRE_RECORD / --record-goldens is ignored in CI.');
      }
      const reporters = vitest.config.reporters as unknown[];
      if (!reporters.some((r) => r instanceof GoldensReporter)) reporters.push(new GoldensReporter(resolved));
    },
  };
}
