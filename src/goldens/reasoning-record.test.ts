// A thinking-enabled tool loop recorded through the Anthropic SDK from a mock LLM upstream (whose
// signatures are real HMACs of its own key), then replayed with the upstream gone: the SDK gets the
// same signed thinking back, the golden's summaries and `inspect` show the reasoning, and a second
// recording (another server, another key: every signature differs) neither drifts nor stops the
// first recording's requests from matching.
import Anthropic from '@anthropic-ai/sdk';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenario } from '../scenario/builder.ts';
import { anthropic } from '../scenario/builder-helpers.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { inspectGolden } from './inspect.ts';
import { Redactor } from './redact.ts';
import { Replayer } from './replayer.ts';
import { tempRuntime } from './testing/runtime.ts';

const FIRST = 'Paris is asked: call the weather tool.';
const loop = scenario('think-loop')
  .expect(anthropic()).then().respondWithReasoning(FIRST).respondWithToolCalls([{ id: 'toolu_g1', name: 'get_weather', arguments: { city: 'Paris' } }])
  .expect(anthropic()).withToolResults(['get_weather']).then().respondWithText('It is 21°C in Paris.');

const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];

/** The user's loop, streamed: its assistant turn goes back whole (the signed thinking first). */
async function agent(): Promise<{ answer: string; thinking: Anthropic.ThinkingBlock }> {
  const client = new Anthropic({ apiKey: 'sk-ant-record-test', maxRetries: 0 });
  const request = { model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools };
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const first = await client.messages.stream({ ...request, messages }).finalMessage();
  const call = first.content.find((b) => b.type === 'tool_use')!;
  messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21' }] });
  const second = await client.messages.stream({ ...request, messages }).finalMessage();
  return { answer: second.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''), thinking: first.content[0] as Anthropic.ThinkingBlock };
}

async function record(root?: string) {
  const server = await startMockLLMServer({ scenarios: [loop] });
  const { runtime, root: dir } = tempRuntime('record', {}, root);
  const file = join(dir, 'agent.test.ts');
  try {
    const session = runtime.session(file, 'thinks');
    session.setUpstream(server.url);
    await session.intercept();
    const result = await agent();
    const outcome = await runtime.finish(file, 'thinks', true);
    return { result, outcome, golden: session.golden()!, root: dir, file };
  } finally {
    await server.close();
  }
}

describe('a thinking tool loop in a golden', () => {
  it('records the signed thinking, replays it to the SDK unchanged, and shows it in the summary and inspect', async () => {
    const recorded = await record();
    expect(recorded.result.answer).toBe('It is 21°C in Paris.');
    expect(recorded.result.thinking).toMatchObject({ type: 'thinking', thinking: FIRST, signature: expect.any(String) });
    expect(recorded.golden.interactions.map((i) => i.summary?.reasoning)).toEqual([FIRST, undefined]);
    expect(inspectGolden(recorded.golden)).toContain(`thinking: ${FIRST}`);

    const { runtime } = tempRuntime('replay', {}, recorded.root);
    await runtime.session(recorded.file, 'thinks').intercept();
    const replayed = await agent();
    expect(replayed).toEqual(recorded.result);
    expect((await runtime.finish(recorded.file, 'thinks', true))?.action).toBe('replayed');
  });

  it('a re-recording mints new signatures, yet reports no drift and its requests match the first recording', async () => {
    const first = await record();
    const second = await record(first.root);
    expect(second.result.thinking.signature).not.toBe(first.result.thinking.signature);
    expect(second.outcome?.drift).toEqual([]);
    // The second request of each recording passes back its own signature; each matches the other's recording.
    const replayer = new Replayer(first.golden.interactions, { file: 'first.json', redactor: new Redactor() });
    for (const interaction of second.golden.interactions) {
      const { method, url, headers, body } = interaction.request;
      const response = await replayer.serve(new Request(url, { method, headers, body: JSON.stringify(body) }));
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    expect(replayer.unused()).toEqual([]);
  });
});
