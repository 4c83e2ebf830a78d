import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// A step's scripted reasoning on a Messages request where Claude does not think (no `thinking`,
// `thinking: { type: 'disabled' }`, or a tool loop's next turn without interleaved thinking): no
// thinking block, and `output_tokens` without thinking, as the API bills none. With thinking on
// it counts, shown or omitted. Over MSW and the real port, `messages.create` and `messages.stream`.

const MODEL = 'claude-sonnet-4-6';
const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';
const ask: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
type Params = Omit<Anthropic.MessageCreateParamsNonStreaming, 'messages' | 'model' | 'max_tokens'>;

describe.each(TRANSPORTS)('Anthropic: thinking tokens on a request without thinking, over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  /** One answer of `step`, as the SDK hands it over (the stream's final message when streaming). */
  async function answer(step: ReturnType<typeof scenario>, params: Params, stream: boolean): Promise<Anthropic.Message> {
    mock.reset();
    mock.use(step);
    const body = { model: MODEL, max_tokens: 4096, messages: ask, ...params };
    return stream ? rig.anthropic.messages.stream(body).finalMessage() : rig.anthropic.messages.create(body);
  }
  const plain = () => scenario('plain').respondWithText('Hello there!');
  const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');

  it.each([false, true])('counts no thinking without thinking on; counts it with thinking on, shown or omitted (stream: %s)', async (stream) => {
    const base = (await answer(plain(), {}, stream)).usage.output_tokens;
    for (const params of [{}, { thinking: { type: 'disabled' as const } }]) {
      const message = await answer(thinking(), params, stream);
      expect(message.content.map((b) => b.type), JSON.stringify(params)).toEqual(['text']);
      expect(message.usage.output_tokens).toBe(base);
      // Present and null, as the SDK's Usage types it (`OutputTokensDetails | null`).
      expect(message.usage.output_tokens_details).toBeNull();
      expect(mock.requests[0].reasoning).toEqual({ text: REASONING, redacted: false });
    }
    for (const params of [{ thinking: { type: 'enabled' as const, budget_tokens: 2048 } }, { thinking: { type: 'adaptive' as const, display: 'omitted' as const } }]) {
      const message = await answer(thinking(), params, stream);
      expect(message.content.map((b) => b.type), JSON.stringify(params)).toEqual(['thinking', 'text']);
      const thought = message.usage.output_tokens_details?.thinking_tokens ?? 0;
      expect(thought).toBeGreaterThan(0);
      expect(message.usage.output_tokens).toBe(base + thought);
    }
  });

  it("counts no thinking on a tool loop's next turn when thinking is not interleaved (Claude thinks once per turn)", async () => {
    const base = (await answer(scenario('plain').respondWithText('It is 21C.'), {}, false)).usage.output_tokens;
    const manual = { model: MODEL, max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 2048 } };
    // One mock for the loop's two turns: the thinking block passed back is the one it signed.
    mock.reset();
    mock.use(
      scenario('loop')
        .respondWithReasoning(REASONING)
        .respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
        .expect()
        .then()
        .respondWithReasoning(REASONING)
        .respondWithText('It is 21C.'),
    );
    const first = await rig.anthropic.messages.create({ ...manual, messages: ask });
    const use = first.content.find((b) => b.type === 'tool_use')!;
    const loop: Anthropic.MessageParam[] = [...ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21C' }] }];
    const next = await rig.anthropic.messages.stream({ ...manual, messages: loop }).finalMessage();
    expect(next.content.map((b) => b.type)).toEqual(['text']);
    expect(next.usage.output_tokens).toBe(base);
  });

  it("keeps a step's scripted output tokens without thinking, and reports its thinking tokens with thinking on", async () => {
    const step = () => scenario('scripted').respondWithReasoning(REASONING).respondWithText('Hi.').withUsage({ inputTokens: 3, outputTokens: 40, reasoningTokens: 32 });
    const off = await answer(step(), {}, true);
    expect(off.usage).toMatchObject({ input_tokens: 3, output_tokens: 40 });
    expect(off.usage.output_tokens_details?.thinking_tokens).toBeUndefined();
    const on = await answer(step(), { thinking: { type: 'adaptive' } }, false);
    expect(on.usage).toMatchObject({ output_tokens: 40, output_tokens_details: { thinking_tokens: 32 } });
  });
});
