/**
 * The in-process path users run in Vitest: one chat completion through the official openai SDK, answered
 * (a) by `useMockLLM` and (b) by a golden replay, each against (c) a plain MSW `http.post` handler returning
 * the same JSON — all on the worker's one MSW server, in alternating rounds of the same run. Goal: ≤ 1.2x the
 * plain handler per call, on this process's CPU time per call (client, MSW and answer all live here;
 * wall-clock figures beside it). Medians over rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from 'msw';
import OpenAI from 'openai';
import { afterAll, expect, test } from 'vitest';
import { resolveGoldensConfig } from '../src/goldens/config.ts';
import type { GoldenHandler, Interceptor } from '../src/goldens/interceptor.ts';
import { Recorder } from '../src/goldens/recorder.ts';
import { Redactor } from '../src/goldens/redact.ts';
import { GoldensRuntime } from '../src/goldens/runtime.ts';
import { GOLDEN_FORMAT_VERSION } from '../src/goldens/schema.ts';
import { writeGolden } from '../src/goldens/store.ts';
import { createMockLLM } from '../src/transports/mock-llm.ts';
import { mswServer, useMockLLM } from '../src/vitest/use-mock-llm.ts';
import { median } from './support/processes.ts';

const CALLS = 100;
// A round (100 calls, a third of a second) moves by ±20% with the collections that land in it (a major
// one in a Vitest worker takes tens of ms): nine rounds gave medians from 0.94x to 1.25x in one morning.
// Thirty narrow the median; the figure prints the rounds' range.
const ROUNDS = 30;
const URL_ = 'https://api.openai.com/v1/chat/completions';
const scenario = {
  name: 'in-process',
  steps: [{ respond: { text: 'A short answer for the in-process benchmark.', usage: { inputTokens: 5, outputTokens: 9 } }, consume: false }],
};
// Created once the worker's MSW server listens (the plugin's setup file starts it before a test file loads).
let client: OpenAI;
const params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: [{ role: 'user', content: 'bench' }] };
const expected = scenario.steps[0].respond.text;

async function calls(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const completion = await client.chat.completions.create(params);
    if (completion.choices[0].message.content !== expected) throw new Error(`unexpected answer: ${JSON.stringify(completion)}`);
  }
}

const root = mkdtempSync(join(tmpdir(), 'gw-bench-inproc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A golden of CALLS identical calls, recorded from a scenario-backed mock as `--record-goldens` would.
const redactor = new Redactor();
const recorder = new Recorder(redactor);
const upstream = createMockLLM({ scenarios: [scenario] });
const recordingClient = new OpenAI({ apiKey: 'sk-bench', maxRetries: 0, fetch: (input, init) => recorder.handle(new Request(input, init), upstream.handle) });
for (let i = 0; i < CALLS; i++) await recordingClient.chat.completions.create(params);
const runtime = new GoldensRuntime(resolveGoldensConfig({}, { root, env: {}, update: false }), {});
const testFile = join(root, 'bench.test.ts');
await writeGolden(runtime.session(testFile, 'calls').file, {
  formatVersion: GOLDEN_FORMAT_VERSION,
  test: { file: 'bench.test.ts', name: 'calls' },
  recordedAt: new Date().toISOString(),
  provider: 'openai',
  model: 'gpt-4o',
  input: null,
  interactions: await recorder.settled(),
  expected: {},
});
await runtime.finish(testFile, 'calls', false);

test('one chat completion through the openai SDK: useMockLLM and golden replay vs a plain MSW handler', { timeout: 300_000 }, async ({ annotate }) => {
  const server = mswServer();
  client = new OpenAI({ apiKey: 'sk-bench', maxRetries: 0 });
  const mock = useMockLLM([scenario]);
  // The plain handler answers with the bytes and headers the mock sends.
  const captured = await fetch(URL_, { method: 'POST', headers: { authorization: 'Bearer sk-bench', 'content-type': 'application/json' }, body: JSON.stringify(params) });
  const text = await captured.text();
  const headers = Object.fromEntries(captured.headers);
  let side: 'plain' | 'mock' | 'golden' = 'plain';
  // The golden session installs on the worker's MSW server, as the golden fixture does.
  let goldenHandler: GoldenHandler | undefined;
  const onWorkerServer: Interceptor = {
    install(handler) {
      goldenHandler = handler;
      return () => (goldenHandler = undefined);
    },
  };
  // Handlers added with use() run before the mock's; each answers only on its side's turn.
  server.use(
    http.all('*', ({ request }) => (side === 'golden' && goldenHandler?.claims(request) ? goldenHandler.handle(request) : undefined)),
    http.post(URL_, () => (side === 'plain' ? new Response(text, { status: 200, headers }) : undefined)),
  );
  const sides = {
    plain: () => calls(CALLS),
    mock: () => calls(CALLS),
    async golden() {
      await runtime.session(testFile, 'calls').intercept(onWorkerServer);
      await calls(CALLS);
      // Throws the first replay mismatch, as the fixture's teardown does.
      await runtime.finish(testFile, 'calls', true);
    },
  };
  const per: Record<keyof typeof sides, { cpu: number[]; wall: number[] }> = { plain: { cpu: [], wall: [] }, mock: { cpu: [], wall: [] }, golden: { cpu: [], wall: [] } };
  const order: (keyof typeof sides)[] = ['plain', 'mock', 'golden'];
  for (let round = -2; round < ROUNDS; round++) {
    for (const s of round % 2 === 0 ? order : [...order].reverse()) {
      side = s;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await sides[s]();
      const c = process.cpuUsage(c0);
      if (round < 0) continue; // warm-up
      per[s].cpu.push((c.user + c.system) / 1000 / CALLS);
      per[s].wall.push((performance.now() - t0) / CALLS);
    }
  }
  server.resetHandlers();
  expect(mock.requests.length).toBeGreaterThanOrEqual((ROUNDS + 2) * CALLS);
  const ratios = (s: 'mock' | 'golden') => per[s].cpu.map((x, i) => x / per.plain.cpu[i]);
  const ratio = (s: 'mock' | 'golden') => median(ratios(s));
  const range = (s: 'mock' | 'golden') => `rounds ${Math.min(...ratios(s)).toFixed(2)}–${Math.max(...ratios(s)).toFixed(2)}`;
  const ms = (xs: number[]) => median(xs).toFixed(3);
  const figure =
    `CPU per call: plain MSW handler ${ms(per.plain.cpu)} ms, useMockLLM ${ms(per.mock.cpu)} ms (${ratio('mock').toFixed(2)}x, ${range('mock')}), golden replay ${ms(per.golden.cpu)} ms (${ratio('golden').toFixed(2)}x, ${range('golden')}) (goal ≤ 1.2x); ` +
    `wall clock: ${ms(per.plain.wall)}, ${ms(per.mock.wall)}, ${ms(per.golden.wall)} ms`;
  console.log(figure);
  await annotate(figure);
  expect(ratio('mock')).toBeLessThanOrEqual(1.2);
  expect(ratio('golden')).toBeLessThanOrEqual(1.2);
});
