import { defineConfig } from 'vitest/config';

// In this repository `ghostwire/*` self-imports resolve to the TypeScript sources (the `ghostwire-source`
// export condition) instead of dist/, which only an installed package uses. Vite keeps its default
// conditions alongside these; Vitest runs tests in the ssr environment and also passes its conditions to
// the worker processes as `--conditions`.
const conditions = ['ghostwire-source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts', 'fixtures/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // CI also writes the results as JSON, so .ci/run can close with a plain "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.tmp/test-results.json' }]] : ['default'],
  },
});
