import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// A step's scripted reasoning on a Chat Completions request that does not reason (a chat model such
// as gpt-4o, effort `none`, gpt-5.1 left at its default `none`): the API counts no reasoning tokens,
// so neither `reasoning_tokens` nor `completion_tokens` carries them. A request that reasons counts
// them, shown or not. Over MSW and the real port, streaming and not.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';
const ask: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];

type Params = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'messages' | 'stream'>;

describe.each(TRANSPORTS)('OpenAI Chat: reasoning tokens on a request with reasoning off, over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  /** The usage one answer of `step` reports, streamed (include_usage) or not. */
  async function usageOf(step: ReturnType<typeof scenario>, params: Params, stream: boolean): Promise<OpenAI.CompletionUsage> {
    mock.reset();
    mock.use(step);
    if (!stream) return (await rig.openai.chat.completions.create({ ...params, messages: ask })).usage!;
    let usage: OpenAI.CompletionUsage | undefined;
    const chunks = await rig.openai.chat.completions.create({ ...params, messages: ask, stream: true, stream_options: { include_usage: true } });
    for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage;
    return usage!;
  }
  const plain = () => scenario('plain').respondWithText('Hello there!');
  const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');

  it.each([false, true])('counts none for a chat model (gpt-4o) or effort none; counts them for o4-mini (stream: %s)', async (stream) => {
    const base = await usageOf(plain(), { model: 'gpt-4o' }, stream);
    for (const params of [{ model: 'gpt-4o' }, { model: 'gpt-4.1-mini' }, { model: 'gpt-5.1', reasoning_effort: 'none' as const }, { model: 'gpt-5.1' }]) {
      const off = await usageOf(thinking(), params, stream);
      expect({ params, completion: off.completion_tokens, reasoning: off.completion_tokens_details?.reasoning_tokens }).toEqual({
        params,
        completion: base.completion_tokens,
        reasoning: 0,
      });
      expect(off.total_tokens).toBe(off.prompt_tokens + base.completion_tokens);
    }
    for (const params of [{ model: 'o4-mini' }, { model: 'gpt-5.1', reasoning_effort: 'low' as const }, { model: 'gpt-5-mini', reasoning_effort: 'minimal' as const }]) {
      const on = await usageOf(thinking(), params, stream);
      const reasoning = on.completion_tokens_details?.reasoning_tokens ?? 0;
      expect(reasoning, JSON.stringify(params)).toBeGreaterThan(0);
      expect(on.completion_tokens).toBe(base.completion_tokens + reasoning);
    }
  });

  it("keeps a step's scripted output tokens on a request that does not reason, without reasoning tokens", async () => {
    const step = () => scenario('scripted').respondWithReasoning(REASONING).respondWithText('Hi.').withUsage({ inputTokens: 3, outputTokens: 40, reasoningTokens: 32 });
    const off = await usageOf(step(), { model: 'gpt-5.1', reasoning_effort: 'none' }, false);
    expect(off).toMatchObject({ prompt_tokens: 3, completion_tokens: 40, total_tokens: 43, completion_tokens_details: { reasoning_tokens: 0 } });
    const on = await usageOf(step(), { model: 'gpt-5.1', reasoning_effort: 'high' }, true);
    expect(on).toMatchObject({ prompt_tokens: 3, completion_tokens: 40, completion_tokens_details: { reasoning_tokens: 32 } });
  });

  it("sends no reasoning_content from an OpenAI-compatible server's model asked for effort none", async () => {
    mock.use(scenario('r1').respondWithReasoning(REASONING).respondWithText('4').times(2));
    const off = await rig.openai.chat.completions.create({ model: 'deepseek-reasoner', messages: ask, reasoning_effort: 'none' });
    expect(off.choices[0].message).not.toHaveProperty('reasoning_content');
    expect(off.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
    const on = await rig.openai.chat.completions.create({ model: 'deepseek-reasoner', messages: ask });
    expect((on.choices[0].message as { reasoning_content?: string }).reasoning_content).toBe(REASONING);
  });
});
