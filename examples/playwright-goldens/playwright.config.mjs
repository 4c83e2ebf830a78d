// Playwright: ghostwire serve answers the app's LLM calls from e2e/goldens (replay, the default and
// always in CI); `GHOSTWIRE_RECORD=1 npx playwright test` records the goldens that are missing against
// the real provider (your OPENAI_API_KEY passes through; it never reaches a golden).
import { defineConfig } from '@playwright/test';

const record = process.env.GHOSTWIRE_RECORD === '1' ? ['--record-missing'] : [];

export default defineConfig({
  testDir: 'e2e',
  webServer: [
    {
      command: ['npx ghostwire serve --goldens e2e/goldens --port 4010', ...record].join(' '),
      url: 'http://127.0.0.1:4010/__ghostwire/health',
      reuseExistingServer: !process.env.CI,
    },
    {
      command: 'node app/server.mjs',
      url: 'http://127.0.0.1:3000/api/summary',
      env: { PORT: '3000', OPENAI_BASE_URL: 'http://127.0.0.1:4010/v1', OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? 'sk-replay' },
      reuseExistingServer: !process.env.CI,
    },
  ],
  use: { baseURL: 'http://127.0.0.1:3000' },
});
