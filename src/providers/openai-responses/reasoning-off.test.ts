import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// A step's scripted reasoning on a Responses request that does not reason (a chat model such as
// gpt-4o, `reasoning.effort: 'none'`, gpt-5.1 left at its default `none`): no reasoning item, no
// reasoning tokens, output tokens without them. A request that reasons counts them, summary or not.
// Over MSW and the real port, streaming (the SDK's ResponseStream) and not.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';
type Params = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'input' | 'stream'>;

describe.each(TRANSPORTS)('OpenAI Responses: reasoning tokens on a request with reasoning off, over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  /** One answer of `step`, as the SDK hands it over (the stream's final response when streaming). */
  async function answer(step: ReturnType<typeof scenario>, params: Params, stream: boolean): Promise<OpenAI.Responses.Response> {
    mock.reset();
    mock.use(step);
    if (!stream) return rig.openai.responses.create({ ...params, input: 'hi' });
    return rig.openai.responses.stream({ ...params, input: 'hi' }).finalResponse();
  }
  const plain = () => scenario('plain').respondWithText('Hello there!');
  const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');

  it.each([false, true])('counts none for gpt-4o or effort none, with no reasoning item; counts them for a request that reasons (stream: %s)', async (stream) => {
    const base = (await answer(plain(), { model: 'gpt-4o' }, stream)).usage!;
    const offs: Params[] = [{ model: 'gpt-4o' }, { model: 'gpt-5.1', reasoning: { effort: 'none', summary: 'auto' } }, { model: 'gpt-5.1' }];
    for (const params of offs) {
      const response = await answer(thinking(), params, stream);
      expect(response.output.map((o) => o.type), JSON.stringify(params)).toEqual(['message']);
      expect({ params, output: response.usage!.output_tokens, reasoning: response.usage!.output_tokens_details.reasoning_tokens }).toEqual({ params, output: base.output_tokens, reasoning: 0 });
      expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + base.output_tokens);
      // The journal keeps the step's reasoning whatever the wire showed.
      expect(mock.requests[0].reasoning).toEqual({ text: REASONING, redacted: false });
    }
    const ons: Params[] = [{ model: 'o4-mini' }, { model: 'gpt-5.1', reasoning: { effort: 'low', summary: 'auto' } }];
    for (const params of ons) {
      const response = await answer(thinking(), params, stream);
      expect(response.output.map((o) => o.type), JSON.stringify(params)).toEqual(['reasoning', 'message']);
      const reasoning = response.usage!.output_tokens_details.reasoning_tokens;
      expect(reasoning).toBeGreaterThan(0);
      expect(response.usage!.output_tokens).toBe(base.output_tokens + reasoning);
    }
  });

  it("keeps a step's scripted output tokens on a request that does not reason, without reasoning tokens", async () => {
    const step = () => scenario('scripted').respondWithReasoning(REASONING).respondWithText('Hi.').withUsage({ inputTokens: 3, outputTokens: 40, reasoningTokens: 32 });
    const off = await answer(step(), { model: 'gpt-5.1', reasoning: { effort: 'none' } }, true);
    expect(off.usage).toMatchObject({ input_tokens: 3, output_tokens: 40, total_tokens: 43, output_tokens_details: { reasoning_tokens: 0 } });
    const on = await answer(step(), { model: 'gpt-5.1', reasoning: { effort: 'medium' } }, false);
    expect(on.usage).toMatchObject({ output_tokens: 40, output_tokens_details: { reasoning_tokens: 32 } });
  });
});
