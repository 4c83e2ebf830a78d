import type { GenerateContentConfig, GenerateContentResponseUsageMetadata } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// A step's scripted reasoning on a Gemini request where the model does not think (`thinkingBudget:
// 0` on 2.5 Flash, a model without thinking such as gemini-2.0-flash): no thought parts, no
// `thoughtsTokenCount`, candidates and total without thoughts. A thinking request counts them,
// with or without includeThoughts. Over MSW and the real port, generateContent and its stream.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';

describe.each(TRANSPORTS)('Gemini: thought tokens on a request that does not think, over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  /** The parts and usage of one answer of `step` (the stream's chunks put together when streaming). */
  async function answer(step: ReturnType<typeof scenario>, model: string, config: GenerateContentConfig, stream: boolean) {
    mock.reset();
    mock.use(step);
    if (!stream) {
      const res = await rig.google.models.generateContent({ model, contents: 'hi', config });
      return { parts: res.candidates![0].content!.parts!, usage: res.usageMetadata! };
    }
    const parts = [];
    let usage: GenerateContentResponseUsageMetadata | undefined;
    for await (const chunk of await rig.google.models.generateContentStream({ model, contents: 'hi', config })) {
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      usage = chunk.usageMetadata ?? usage;
    }
    return { parts, usage: usage! };
  }
  const plain = () => scenario('plain').respondWithText('Hello there!');
  const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');
  const off = { thinkingConfig: { thinkingBudget: 0, includeThoughts: true } };

  it.each([false, true])('counts no thoughts with thinkingBudget 0 or a model that does not think; counts them when it thinks (stream: %s)', async (stream) => {
    const base = (await answer(plain(), 'gemini-2.5-flash', {}, stream)).usage;
    for (const [model, config] of [['gemini-2.5-flash', off], ['gemini-2.5-flash-lite', off], ['gemini-2.0-flash', { thinkingConfig: { includeThoughts: true } }]] as const) {
      const { parts, usage } = await answer(thinking(), model, config, stream);
      expect(parts.some((p) => p.thought), model).toBe(false);
      expect(usage.thoughtsTokenCount, model).toBeUndefined();
      expect(usage.candidatesTokenCount).toBe(base.candidatesTokenCount);
      expect(usage.totalTokenCount).toBe(base.totalTokenCount);
      expect(mock.requests[0].reasoning).toEqual({ text: REASONING, redacted: false });
    }
    for (const config of [{}, { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } }]) {
      const { usage } = await answer(thinking(), 'gemini-2.5-flash', config, stream);
      expect(usage.thoughtsTokenCount, JSON.stringify(config)).toBeGreaterThan(0);
      expect(usage.candidatesTokenCount).toBe(base.candidatesTokenCount);
      expect(usage.totalTokenCount).toBe(base.totalTokenCount! + usage.thoughtsTokenCount!);
    }
  });

  it("keeps a step's scripted output tokens as candidates when the model does not think", async () => {
    const step = () => scenario('scripted').respondWithReasoning(REASONING).respondWithText('Hi.').withUsage({ inputTokens: 30, outputTokens: 20, reasoningTokens: 12 });
    const { usage } = await answer(step(), 'gemini-2.5-flash', off, true);
    expect(usage).toMatchObject({ promptTokenCount: 30, candidatesTokenCount: 20, totalTokenCount: 50 });
    expect(usage.thoughtsTokenCount).toBeUndefined();
    const thinks = await answer(step(), 'gemini-2.5-flash', {}, false);
    expect(thinks.usage).toMatchObject({ candidatesTokenCount: 8, thoughtsTokenCount: 12, totalTokenCount: 50 });
  });
});
