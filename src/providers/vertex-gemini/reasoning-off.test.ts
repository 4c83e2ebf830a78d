import { GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { capturingFetch } from '../testing/capture.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

// Gemini on Vertex AI renders as the Gemini API does: a request whose model does not think
// (`thinkingBudget: 0`) counts no thoughts; one that thinks counts them. Through @google/genai with
// `vertexai: true`, its own fetch answered by the mock, streamed and not.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';

describe('Gemini on Vertex AI: thought tokens on a request that does not think', () => {
  it('counts no thoughtsTokenCount with thinkingBudget 0, streamed and not; counts them when the model thinks', async () => {
    const mock = createMockLLM({
      scenarios: [
        { name: 'plain', steps: [{ respond: { text: 'Hello there!' } }] },
        { name: 'think', steps: [0, 1, 2].map(() => ({ respond: { reasoning: REASONING, text: 'Hello there!' } })) },
      ],
    });
    const ai = new GoogleGenAI({
      vertexai: true,
      project: 'ghost-project',
      location: 'europe-west4',
      googleAuthOptions: { authClient: staticTokenClient('ya29.abc') },
      httpOptions: { fetch: capturingFetch(mock.handle).fetch as typeof globalThis.fetch },
    });
    const model = 'gemini-2.5-flash';
    const base = (await ai.models.generateContent({ model, contents: 'hi' })).usageMetadata!;
    const config = { thinkingConfig: { thinkingBudget: 0 } };
    const off = (await ai.models.generateContent({ model, contents: 'hi', config })).usageMetadata!;
    let streamed = base;
    for await (const chunk of await ai.models.generateContentStream({ model, contents: 'hi', config })) streamed = chunk.usageMetadata ?? streamed;
    for (const usage of [off, streamed]) {
      expect(usage.thoughtsTokenCount).toBeUndefined();
      expect(usage).toMatchObject({ candidatesTokenCount: base.candidatesTokenCount, totalTokenCount: base.totalTokenCount });
    }
    const on = (await ai.models.generateContent({ model, contents: 'hi' })).usageMetadata!;
    expect(on.thoughtsTokenCount).toBeGreaterThan(0);
    expect(on.totalTokenCount).toBe(base.totalTokenCount! + on.thoughtsTokenCount!);
    expect(mock.requests.map((r) => r.provider)).toEqual(['vertex-gemini', 'vertex-gemini', 'vertex-gemini', 'vertex-gemini']);
  });
});
