import { GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { capturingFetch, type Exchange } from '../testing/capture.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

/** The SDK's own `httpOptions.fetch` answered by the mock, every exchange kept. */
async function withMockFetch<T>(mock: ReturnType<typeof createMockLLM>, run: (fetch: typeof globalThis.fetch, exchanges: Exchange[]) => Promise<T>): Promise<T> {
  const { fetch, exchanges } = capturingFetch(mock.handle);
  return run(fetch as typeof globalThis.fetch, exchanges);
}

describe('Gemini on Vertex AI through @google/genai', () => {
  it('answers a project/location request with a bearer token, as provider vertex-gemini', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 't', steps: [{ match: { provider: 'vertex-gemini', model: 'gemini-2.5-flash' }, respond: { text: 'From Vertex.' } }] }] });
    await withMockFetch(mock, async (fetch, exchanges) => {
      const ai = new GoogleGenAI({ vertexai: true, project: 'ghost-project', location: 'europe-west4', googleAuthOptions: { authClient: staticTokenClient('ya29.abc') }, httpOptions: { fetch } });
      const res = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
      expect(res.text).toBe('From Vertex.');
      const url = new URL(exchanges[0].url);
      expect(url.host).toBe('europe-west4-aiplatform.googleapis.com');
      expect(url.pathname).toBe('/v1beta1/projects/ghost-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent');
    });
    // The bearer token was sent (the journal keeps credentials redacted, as goldens do).
    expect(mock.requests[0].request?.headers.authorization).toBe('[REDACTED]');
  });

  it('answers express mode (an API key, the global host) and counts tokens', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 't', steps: [{ respond: { text: 'Express.' } }] }] });
    await withMockFetch(mock, async (fetch, exchanges) => {
      const ai = new GoogleGenAI({ vertexai: true, apiKey: 'express-key', httpOptions: { fetch } });
      expect((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).text).toBe('Express.');
      expect(new URL(exchanges[0].url).href).toBe('https://aiplatform.googleapis.com/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent');
      const counted = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'count these words please' });
      expect(counted.totalTokens).toBeGreaterThan(0);
    });
    expect(mock.requests.map((r) => r.provider)).toEqual(['vertex-gemini', 'vertex-gemini']);
  });
});
