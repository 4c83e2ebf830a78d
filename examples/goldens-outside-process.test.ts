/**
 * Goldens for code outside the test process: the test starts an app server as a child process (Next.js,
 * Express, a CLI: here examples/playwright-goldens/app/server.mjs) with `golden.env()` in its environment,
 * so the app's OpenAI calls are recorded into this test's golden and replayed from it.
 *
 *   npx ghostwire test --record-goldens examples/goldens-outside-process.test.ts   # record (here: against a local mock server)
 *   npx vitest run examples/goldens-outside-process.test.ts                        # replay (the default; always in CI)
 *
 * For Playwright and other runners, `ghostwire serve --goldens DIR` does the same from outside Vitest
 * (examples/playwright-goldens/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, afterEach, expect, test as base } from 'vitest';
import { goldenFixture, type GoldenFixture } from 'ghostwire/vitest';
import { startMockLLMServer, type MockLLMServer } from 'ghostwire/server';

const test = base.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });
const APP = resolve(import.meta.dirname, 'playwright-goldens/app/server.mjs');

let upstream: MockLLMServer | null = null;
let app: ChildProcess | null = null;
afterEach(() => void app?.kill());
afterAll(async () => upstream?.close());

/** Starts the app with the golden's base URLs; resolves with its URL once it listens. */
function startApp(env: Record<string, string>): Promise<string> {
  app = spawn(process.execPath, [APP], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: '0', OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? 'sk-replay', ...env } });
  return new Promise((res, rej) => {
    let out = '';
    app!.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) res(m[1]);
    });
    app!.once('exit', (code) => rej(new Error(`the app exited (${code})`)));
  });
}

test('the app summarises a review', async ({ golden }) => {
  if (golden.mode === 'record') {
    // Recording normally talks to the real provider (your OPENAI_API_KEY passes through, never reaching the
    // golden); this example records against a local mock so it needs no key and no network.
    upstream = await startMockLLMServer({ scenarios: [{ name: 'summary', steps: [{ respond: { text: 'Long battery, bright screen.' } }] }] });
    golden.upstream(upstream.url);
  }
  const url = await startApp(await golden.env());
  const response = await fetch(`${url}/api/summary?text=${encodeURIComponent('The battery lasts two days and the screen is bright')}`);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchGolden();
});
