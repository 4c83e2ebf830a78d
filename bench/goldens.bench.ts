/**
 * Replaying a golden of a 10-turn streamed conversation vs serving the same 10 turns from a plain
 * scenario, through the official openai SDK, in the same run. Goal: replay ≤ 1.2x the scenario's median time
 * (medians, because two cores shared with other work make means swing on single GC or scheduling stalls).
 * Both sides answer through the SDK's `fetch` option (no network, no MSW), so the figure compares the
 * replayer with the scenario engine + adapter rendering and nothing else.
 */
import OpenAI from 'openai';
import { expect, test } from 'vitest';
import { createMockLLM } from '../src/transports/mock-llm.ts';
import { Recorder } from '../src/goldens/recorder.ts';
import { Redactor } from '../src/goldens/redact.ts';
import { Replayer } from '../src/goldens/replayer.ts';
import type { Interaction } from '../src/goldens/schema.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { resolveGoldensConfig } from '../src/goldens/config.ts';
import { GoldensRuntime } from '../src/goldens/runtime.ts';
import { GOLDEN_FORMAT_VERSION } from '../src/goldens/schema.ts';
import { writeGolden } from '../src/goldens/store.ts';

const TURNS = 10;
const answer = 'The forecast for Paris: sunny in the morning, light clouds after noon, 21°C, wind from the west. ';

/** Ten streamed turns: nine tool calls, then the final answer; each turn also streams some text. */
const scenario = {
  name: 'ten-turns',
  steps: Array.from({ length: TURNS }, (_, i) => ({
    respond:
      i < TURNS - 1
        ? { text: `Step ${i + 1}: ${answer}`, toolCalls: [{ id: `call_${i + 1}`, name: 'lookup', arguments: { step: i + 1 } }], stream: { chunkSize: 8 } }
        : { text: answer.repeat(2), stream: { chunkSize: 8 } },
  })),
};

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
const asFetch = (serve: (r: Request) => Promise<Response>): Fetch => (input, init) => serve(new Request(input, init));

async function conversation(fetch: Fetch): Promise<string> {
  const client = new OpenAI({ apiKey: 'sk-bench', maxRetries: 0, fetch });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Plan my day in Paris.' }];
  const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
  for (let turn = 0; turn < TURNS; turn++) {
    const completion = await client.chat.completions.stream({ model: 'gpt-4o', messages, tools }).finalChatCompletion();
    const message = completion.choices[0].message;
    messages.push(message as OpenAI.Chat.ChatCompletionMessageParam);
    for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: '{"ok":true}' });
    if (!message.tool_calls?.length) return message.content ?? '';
  }
  throw new Error('conversation did not finish');
}

// Record once: the recorder passes through to a scenario-backed mock, as `--record-goldens` would.
const redactor = new Redactor();
const recorder = new Recorder(redactor);
const upstream = createMockLLM({ scenarios: [scenario as never] });
const recordedAnswer = await conversation(asFetch((r) => recorder.handle(r, upstream.handle)));
const interactions: Interaction[] = await recorder.settled();
if (interactions.length !== TURNS) throw new Error(`expected ${TURNS} recorded turns, got ${interactions.length}`);

test(`${TURNS}-turn streamed conversation through the openai SDK: golden replay vs plain scenario`, async ({ bench }) => {
  const BASELINE = 'plain scenario (baseline)';
  const REPLAY = 'golden replay';
  const results = await bench.compare(
    bench(BASELINE, async () => {
      const mock = createMockLLM({ scenarios: [scenario as never] });
      if ((await conversation(asFetch(mock.handle))) !== recordedAnswer) throw new Error('scenario answer differs');
    }),
    bench(REPLAY, async () => {
      const replayer = new Replayer(interactions, { file: 'bench.json', redactor });
      if ((await conversation(asFetch((r) => replayer.serve(r)))) !== recordedAnswer) throw new Error('replayed answer differs');
    }),
  );
  const baseline = results.get(BASELINE).latency.p50;
  const replay = results.get(REPLAY).latency.p50;
  const ratio = replay / baseline;
  console.log(`baseline ${baseline.toFixed(2)} ms, replay ${replay.toFixed(2)} ms per conversation (median): ratio ${ratio.toFixed(2)}x (goal ≤ 1.2x)`);
  expect(ratio).toBeLessThanOrEqual(1.2);
});

// The whole per-test path the `golden` fixture takes: load + leak-scan the file, MSW listen, replay, close.
const root = mkdtempSync(join(tmpdir(), 'gw-bench-'));
const runtime = new GoldensRuntime(resolveGoldensConfig({}, { root, env: {}, update: false }), {});
const testFile = join(root, 'bench.test.ts');
await writeGolden(runtime.session(testFile, 'ten turns').file, {
  formatVersion: GOLDEN_FORMAT_VERSION,
  test: { file: 'bench.test.ts', name: 'ten turns' },
  recordedAt: new Date().toISOString(),
  provider: 'openai',
  model: 'gpt-4o',
  input: null,
  interactions,
  expected: {},
});
await runtime.finish(testFile, 'ten turns', false);

test(`${TURNS}-turn streamed conversation per test through MSW: golden session vs scenario handler`, async ({ bench }) => {
  const BASELINE = 'scenario via MSW (baseline)';
  const REPLAY = 'golden session via MSW';
  const results = await bench.compare(
    bench(BASELINE, async () => {
      const mock = createMockLLM({ scenarios: [scenario as never] });
      const server = setupServer(http.all('*', ({ request }) => mock.handle(request)));
      server.listen({ onUnhandledFrame: 'error' });
      try {
        if ((await conversation(globalThis.fetch)) !== recordedAnswer) throw new Error('scenario answer differs');
      } finally {
        server.close();
      }
    }),
    bench(REPLAY, async () => {
      const session = runtime.session(testFile, 'ten turns');
      await session.intercept();
      try {
        if ((await conversation(globalThis.fetch)) !== recordedAnswer) throw new Error('replayed answer differs');
      } finally {
        await runtime.finish(testFile, 'ten turns', true);
      }
    }),
  );
  const baseline = results.get(BASELINE).latency.p50;
  const replay = results.get(REPLAY).latency.p50;
  const ratio = replay / baseline;
  console.log(`baseline ${baseline.toFixed(2)} ms, replay ${replay.toFixed(2)} ms per test (median): ratio ${ratio.toFixed(2)}x (goal ≤ 1.2x)`);
  expect(ratio).toBeLessThanOrEqual(1.2);
});
