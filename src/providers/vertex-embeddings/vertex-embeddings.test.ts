import { GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { capturingFetch } from '../testing/capture.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

function client() {
  const mock = createMockLLM();
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const ai = new GoogleGenAI({ vertexai: true, project: 'ghost-project', location: 'us-central1', googleAuthOptions: { authClient: staticTokenClient() }, httpOptions: { fetch } });
  return { ai, exchanges, mock };
}

describe('Vertex AI embeddings through @google/genai (:predict)', () => {
  it.each([
    ['text-embedding-005', 768],
    ['text-multilingual-embedding-002', 768],
    ['gemini-embedding-001', 3072],
  ])('%s answers with its real size (%i)', async (model, size) => {
    const { ai, exchanges, mock } = client();
    const res = await ai.models.embedContent({ model, contents: ['first text', 'second text'] });
    expect(res.embeddings?.map((e) => e.values?.length)).toEqual([size, size]);
    expect(res.embeddings?.[0].statistics?.tokenCount).toBeGreaterThan(0);
    expect(new URL(exchanges[0].url).pathname).toMatch(new RegExp(`/publishers/google/models/${model}:predict$`));
    expect(mock.requests[0]).toMatchObject({ provider: 'embeddings', status: 200 });
  });

  it('honours outputDimensionality up to the model’s size, and refuses more with Google’s 400', async () => {
    const { ai } = client();
    const res = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'text', config: { outputDimensionality: 256 } });
    expect(res.embeddings?.[0].values).toHaveLength(256);
    const err = await ai.models.embedContent({ model: 'text-embedding-005', contents: 'text', config: { outputDimensionality: 1024 } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining('maximum of 768') });
  });
});
