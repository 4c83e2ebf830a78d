import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { createMockLLM } from '../transports/mock-llm.ts';
import { capturingFetch } from './testing/capture.ts';
import { validateOpenAI } from './testing/openapi.ts';
import { embeddingModel, UNKNOWN_EMBEDDING_MODEL } from './common/embedding-models.ts';

function setup() {
  const mock = createMockLLM();
  const { fetch, exchanges } = capturingFetch(mock.handle);
  return { exchanges, openai: new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 }), google: new GoogleGenAI({ apiKey: 'g', httpOptions: { fetch } }) };
}

describe('embedding sizes are the model’s own, and bounded by it', () => {
  it('answers each model with its real dimension by default', async () => {
    const { openai, google } = setup();
    const size = async (model: string) => (await openai.embeddings.create({ model, input: 'hello', encoding_format: 'float' })).data[0].embedding.length;
    expect(await size('text-embedding-3-small')).toBe(1536);
    expect(await size('text-embedding-3-large')).toBe(3072);
    expect(await size('text-embedding-ada-002')).toBe(1536);
    expect(await size('my-own-embedder')).toBe(UNKNOWN_EMBEDDING_MODEL.dimensions);
    const gemini = async (model: string) => (await google.models.embedContent({ model, contents: 'hello' })).embeddings?.[0].values?.length;
    expect(await gemini('text-embedding-004')).toBe(768);
    expect(await gemini('gemini-embedding-001')).toBe(3072);
    expect(embeddingModel('models/gemini-embedding-001')).toEqual({ dimensions: 3072, maxDimensions: 3072 });
  });

  it.each([
    ['text-embedding-3-large', 1_000_000_000, "Invalid 'dimensions': 1000000000 is greater than the maximum of 3072"],
    ['text-embedding-3-small', 1537, 'maximum of 1536'],
    ['text-embedding-ada-002', 256, 'This model does not support specifying dimensions.'],
    ['some-unknown-model', 4097, 'maximum of 4096'],
  ])('%s with dimensions %i → the API’s 400', async (model, dimensions, message) => {
    const { openai, exchanges } = setup();
    const err = await openai.embeddings.create({ model, input: 'hello', dimensions }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain(message);
    expect(validateOpenAI('ErrorResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('bounds outputDimensionality by the Gemini model, and a batch at 100 requests', async () => {
    const { google } = setup();
    const big = await google.models.embedContent({ model: 'text-embedding-004', contents: 'x', config: { outputDimensionality: 1_000_000_000 } }).catch((e: unknown) => e);
    expect((big as { status?: number }).status).toBe(400);
    expect((big as Error).message).toContain('maximum of 768');
    const many = await google.models.embedContent({ model: 'text-embedding-004', contents: Array.from({ length: 101 }, (_, i) => `text ${i}`) }).catch((e: unknown) => e);
    expect((many as { status?: number }).status).toBe(400);
    expect((many as Error).message).toContain('at most 100 requests');
    const fine = await google.models.embedContent({ model: 'text-embedding-004', contents: 'x', config: { outputDimensionality: 256 } });
    expect(fine.embeddings?.[0].values).toHaveLength(256);
  });

  it('bounds the OpenAI input list at 2,048 items', async () => {
    const { openai } = setup();
    const err = await openai.embeddings.create({ model: 'text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain("'$.input' is invalid");
  });

  it('keeps the real port alive after the one-request crash of issue 17 (dimensions 1e9, both APIs)', async () => {
    const server = await startMockLLMServer({});
    try {
      const post = (path: string, headers: Record<string, string>, body: unknown) =>
        fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const openai = await post('/v1/embeddings', { authorization: 'Bearer k' }, { model: 'text-embedding-3-large', input: 'hello', dimensions: 1_000_000_000 });
      expect(openai.status).toBe(400);
      const gemini = await post('/v1beta/models/gemini-embedding-001:embedContent', { 'x-goog-api-key': 'k' }, { content: { parts: [{ text: 'hello' }] }, outputDimensionality: 1_000_000_000 });
      expect(gemini.status).toBe(400);
      expect(await gemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      const healthy = await post('/v1/embeddings', { authorization: 'Bearer k' }, { model: 'text-embedding-3-small', input: 'hello', encoding_format: 'float' });
      expect(healthy.status).toBe(200);
      expect((await healthy.json()).data[0].embedding).toHaveLength(1536);
    } finally {
      await server.close();
    }
  });
});
