import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// A step's scripted reasoning on a Mistral request where the model does not reason (a model other
// than Magistral without `reasoning_effort`, or with `none`): `completion_tokens` without it. Magistral
// and an effort other than `none` count it. Through @mistralai/mistralai, streamed and not.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';
const messages = [{ role: 'user' as const, content: 'hi' }];

describe.each(TRANSPORTS)('Mistral: reasoning tokens on a request that does not reason, over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  async function completionTokens(step: ReturnType<typeof scenario>, model: string, reasoningEffort: 'none' | 'high' | undefined, stream: boolean): Promise<number> {
    mock.reset();
    mock.use(step);
    const request = { model, messages, ...(reasoningEffort ? { reasoningEffort } : {}) };
    if (!stream) return (await rig.mistral.chat.complete(request)).usage.completionTokens!;
    let tokens: number | undefined;
    for await (const event of await rig.mistral.chat.stream(request)) tokens = event.data.usage?.completionTokens ?? tokens;
    return tokens!;
  }
  const plain = () => scenario('plain').respondWithText('Hello there!');
  const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');

  it.each([false, true])('counts none without reasoning; counts it for Magistral and effort high (stream: %s)', async (stream) => {
    const base = await completionTokens(plain(), 'mistral-large-latest', undefined, stream);
    expect(await completionTokens(thinking(), 'mistral-large-latest', undefined, stream)).toBe(base);
    expect(await completionTokens(thinking(), 'mistral-medium-latest', 'none', stream)).toBe(base);
    expect(await completionTokens(thinking(), 'magistral-medium-latest', undefined, stream)).toBeGreaterThan(base);
    expect(await completionTokens(thinking(), 'mistral-medium-latest', 'high', stream)).toBeGreaterThan(base);
  });
});
