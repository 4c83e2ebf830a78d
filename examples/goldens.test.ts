/**
 * Goldens: record real provider traffic once, replay it forever.
 *
 *   npx ghostwire test --record-goldens examples/goldens.test.ts   # record (here: against a local mock server)
 *   npx vitest run examples/goldens.test.ts                        # replay (the default; always in CI)
 *   npx vitest run examples/goldens.test.ts -u                     # re-derive expected outputs from replay (-u after the
 *                                                                  # file: Vitest reads `-u FILE` as an update mode, running all)
 *   npx ghostwire inspect goldens/examples/goldens/*.json          # read a golden as a conversation
 *
 * In your project, add `ghostwire()` from 'ghostwire/plugin' to vitest.config.ts and use the `golden`
 * fixture from ghostwire/vitest. Recording normally talks to the real provider; this example records
 * against `startMockLLMServer` (set as the upstream) so it needs no key and no network.
 */
import OpenAI from 'openai';
import { afterAll, describe, expect, test as base } from 'vitest';
import { goldenFixture, type GoldenFixture } from 'ghostwire/vitest';
import { startMockLLMServer, type MockLLMServer } from 'ghostwire/server';

const test = base.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });

/** The code under test: a small tool-calling agent on the official openai SDK, streaming every turn. */
async function weatherAgent(client: OpenAI, question: string) {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
  const tools: OpenAI.Chat.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ];
  const toolChain: Array<{ toolName: string; arguments: unknown; executionTimeMs: number }> = [];
  for (let turn = 1; turn <= 5; turn++) {
    const stream = client.chat.completions.stream({ model: 'gpt-4o', messages, tools, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0].message;
    messages.push(message as OpenAI.Chat.ChatCompletionMessageParam);
    if (!message.tool_calls?.length) return { id: completion.id, finalResult: message.content, toolChain, turns: turn };
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const started = performance.now();
      const args = JSON.parse(call.function.arguments) as { city: string };
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ city: args.city, sky: 'sunny', celsius: 21 }) });
      toolChain.push({ toolName: call.function.name, arguments: args, executionTimeMs: performance.now() - started });
    }
  }
  throw new Error('no final answer after 5 turns');
}

/** What the upstream answers while recording (a real provider would answer for itself). */
const upstreamScenario = {
  name: 'weather',
  steps: [
    { match: { lastMessage: { role: 'user', content: { contains: 'weather' } } }, respond: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 24, outputTokens: 9 } } },
    { match: { toolResults: ['get_weather'] }, respond: { text: 'It is sunny in Paris, 21°C.', usage: { inputTokens: 41, outputTokens: 10 } } },
  ],
};

describe('goldens workflow', () => {
  let upstream: MockLLMServer | null = null;
  afterAll(async () => upstream?.close());

  test('the weather agent answers from the golden', async ({ golden }) => {
    if (golden.mode === 'record') {
      upstream = await startMockLLMServer({ scenarios: [upstreamScenario as never] });
      golden.upstream(upstream.url);
    }
    const question = 'What is the weather in Paris?';
    golden.input({ question });
    // In replay no request leaves the process: the SDK's calls are answered from the golden, streams included.
    const run = await weatherAgent(new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'sk-example', maxRetries: 0 }), question);

    expect(run.finalResult).toContain('sunny');
    // Semantic comparison with the stored output: `id` and `executionTimeMs` are masked by default.
    expect(run).toMatchGolden();
    // Several named outputs per test; property matchers for values that may legitimately vary.
    expect({ tools: run.toolChain.map((t) => t.toolName), turns: run.turns }).toMatchGolden('shape', { turns: expect.any(Number) });
  });
});
