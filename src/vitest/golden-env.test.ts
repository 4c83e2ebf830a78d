// golden.env(): a test that spawns an app (the openai and Anthropic SDKs, streaming and tools, in a child
// process) records and replays the child's traffic into the test's own golden, beside the test's in-process
// call. Recorded once against a local upstream (GHOSTWIRE_RECORD=1 npx vitest run src/vitest/golden-env.test.ts);
// the suite replays it with no upstream at all.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import OpenAI from 'openai';
import { afterAll, expect, test as base } from 'vitest';
import { goldenFixture, type GoldenFixture } from './golden-fixture.ts';
import './golden-matcher.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';

const test = base.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });
const APP = resolve(import.meta.dirname, '../../fixtures/user-project/child-app.mjs');
let upstream: MockLLMServer | null = null;
afterAll(async () => upstream?.close());

const scenarios = [
  {
    name: 'agent',
    steps: [
      { match: { provider: 'openai', toolResults: ['get_weather'] }, respond: { text: 'It is sunny in Paris, 21 °C.' }, consume: false },
      { match: { provider: 'openai', tools: ['get_weather'] }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
      { match: { provider: 'openai' }, respond: { text: 'Hi there!' }, consume: false },
      { match: { provider: 'anthropic', toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris: 21 degrees.' }, consume: false },
      { match: { provider: 'anthropic', tools: ['get_weather'] }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
    ],
  },
];

function runApp(env: Record<string, string>): Promise<{ openai: unknown; anthropic: unknown; error?: unknown }> {
  const { CI: _ci, ...rest } = process.env;
  const child = spawn(process.execPath, [APP], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...rest, OPENAI_API_KEY: 'sk-golden-env-test', ANTHROPIC_API_KEY: 'sk-ant-golden-env-test', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((res, rej) => child.once('exit', () => (out ? res(JSON.parse(out)) : rej(new Error(`the app printed nothing: ${err}`)))));
}

test('a child app records and replays through golden.env(), into the test golden beside in-process traffic', async ({ golden }) => {
  if (golden.mode === 'record') {
    upstream = await startMockLLMServer({ scenarios: scenarios as never });
    golden.upstream(upstream.url);
  }
  const env = await golden.env();
  expect(env.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/g\w+\/v1$/);
  expect(env.ANTHROPIC_BASE_URL).toBe(await golden.url());
  expect(env.GOOGLE_GEMINI_BASE_URL).toBe(await golden.url());
  const app = await runApp(env);
  expect(app.error).toBeUndefined();
  expect(app.openai).toEqual({ calls: [{ name: 'get_weather', args: { city: 'Paris' } }], answer: 'It is sunny in Paris, 21 °C.', plain: 'Hi there!' });
  expect(app.anthropic).toEqual({ calls: [{ name: 'get_weather', args: { city: 'Paris' } }], answer: 'Sunny in Paris: 21 degrees.' });
  // The test's own in-process call lands in the same golden.
  const own = await new OpenAI({ apiKey: 'sk-golden-env-test', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }] });
  expect(own.choices[0].message.content).toBe('Hi there!');
  expect({ openai: app.openai, anthropic: app.anthropic }).toMatchGolden();
  if (golden.mode !== 'record') {
    const stored = golden.read()!;
    expect(stored.interactions.map((i) => `${i.provider} ${new URL(i.request.url).pathname}`)).toEqual([
      'openai /v1/chat/completions',
      'openai /v1/chat/completions',
      'openai /v1/chat/completions',
      'anthropic /v1/messages',
      'anthropic /v1/messages',
      'openai /v1/chat/completions',
    ]);
  }
});
