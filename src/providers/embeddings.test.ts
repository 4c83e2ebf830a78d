import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import { cosineSimilarity } from '../scenario/embed.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { capturingFetch } from './testing/capture.ts';
import { validateOpenAI } from './testing/openapi.ts';
import { base64Vector } from './openai-embeddings/index.ts';

function setup(scenarios: ScenarioInput[] = []) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const openai = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
  const google = new GoogleGenAI({ apiKey: 'g-test', httpOptions: { fetch } });
  return { mock, openai, google, exchanges };
}

const norm = (v: readonly number[]) => Math.hypot(...v);

describe('OpenAI embeddings', () => {
  it('answers with default vectors (1536 dims) over the SDK default base64 encoding, decoded by the SDK', async () => {
    const { openai, exchanges } = setup();
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['list the tables', 'drop the tables'] });
    expect(JSON.parse(exchanges[0].requestBody).encoding_format).toBe('base64');
    const wire = JSON.parse(await exchanges[0].body);
    expect(typeof wire.data[0].embedding).toBe('string');
    // The spec models only float arrays; base64 is the same body with each vector encoded.
    const floats = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    };
    const decoded = { ...wire, data: wire.data.map((d: any) => ({ ...d, embedding: floats(d.embedding) })) };
    expect(decoded.data[0].embedding).toHaveLength(1536);
    expect(validateOpenAI('CreateEmbeddingResponse', decoded)).toEqual([]);
    expect(result.data).toHaveLength(2);
    expect(result.data.map((d) => d.index)).toEqual([0, 1]);
    expect(result.data[0].embedding).toHaveLength(1536);
    expect(norm(result.data[0].embedding)).toBeCloseTo(1, 5);
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage.total_tokens).toBe(result.usage.prompt_tokens);
    expect(result.model).toBe('text-embedding-3-small');
  });

  it('honours dimensions and encoding_format float, valid against the spec', async () => {
    const { openai, exchanges } = setup();
    const result = await openai.embeddings.create({ model: 'text-embedding-3-large', input: 'hello world', dimensions: 64, encoding_format: 'float' });
    expect(result.data[0].embedding).toHaveLength(64);
    expect(Array.isArray(JSON.parse(await exchanges[0].body).data[0].embedding)).toBe(true);
    expect(validateOpenAI('CreateEmbeddingResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('gives texts that share words a higher cosine similarity than unrelated texts', async () => {
    const { openai } = setup();
    const { data } = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['search the customer database tables', 'query customer tables in the database', 'bake a chocolate cake tonight'],
    });
    const [a, b, c] = data.map((d) => d.embedding);
    expect(cosineSimilarity(a, b)).toBeGreaterThan(cosineSimilarity(a, c) + 0.3);
  });

  it('base64 round-trips the float32 vector exactly as the SDK decodes it', async () => {
    const { openai } = setup([{ name: 'fixed', steps: [{ match: { provider: 'embeddings' }, respond: { embeddings: [[0.5, -0.25, 1]] } }] }]);
    const result = await openai.embeddings.create({ model: 'm', input: 'x' });
    expect(result.data[0].embedding).toEqual([0.5, -0.25, 1]);
    expect(base64Vector([1, 0])).toBe('AACAPwAAAAA=');
  });

  it('accepts token arrays as input', async () => {
    const { mock, openai } = setup();
    const result = await openai.embeddings.create({ model: 'm', input: [[1, 2, 3], [4, 5]], encoding_format: 'float' });
    expect(result.data).toHaveLength(2);
    expect(mock.requests[0].request!.input).toEqual(['1 2 3', '4 5']);
  });

  it('lets a scenario inject an error', async () => {
    const { openai, exchanges } = setup([{ name: 'err', steps: [{ match: { provider: 'embeddings' }, respond: { error: { status: 429, message: 'quota' } } }] }]);
    const err = await openai.embeddings.create({ model: 'm', input: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(validateOpenAI('ErrorResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it.each([
    ['missing input', { model: 'm' }, "Missing required parameter: 'input'."],
    ['input of objects', { model: 'm', input: [{ a: 1 }] }, "Invalid type for 'input'"],
    ['empty input', { model: 'm', input: [] }, 'non-empty'],
    ['bad dimensions', { model: 'm', input: 'x', dimensions: 0 }, "Invalid 'dimensions'"],
    ['bad encoding_format', { model: 'm', input: 'x', encoding_format: 'hex' }, "Invalid value: 'hex'"],
  ])('%s → 400 BadRequestError; the mock keeps serving', async (_name, body, message) => {
    const { openai } = setup();
    const err = await openai.embeddings.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain(message);
    const ok = await openai.embeddings.create({ model: 'm', input: 'fine' });
    expect(ok.data).toHaveLength(1);
  });
});

describe('Gemini embeddings', () => {
  it('embedContent (batchEmbedContents on the wire) returns one vector per content, honouring outputDimensionality', async () => {
    const { google, exchanges, mock } = setup();
    const result = await google.models.embedContent({
      model: 'gemini-embedding-001',
      contents: ['list the tables', 'drop the tables', 'bake bread'],
      config: { outputDimensionality: 32 },
    });
    expect(exchanges[0].url).toContain('/models/gemini-embedding-001:batchEmbedContents');
    expect(result.embeddings).toHaveLength(3);
    const [a, b, c] = result.embeddings!.map((e) => e.values!);
    expect(a).toHaveLength(32);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(cosineSimilarity(a, b)).toBeGreaterThan(cosineSimilarity(a, c));
    expect(mock.requests[0].request).toMatchObject({ provider: 'embeddings', model: 'gemini-embedding-001', dimensions: 32 });
  });

  it('serves the single embedContent method as the REST API does', async () => {
    const mock = createMockLLM({ scenarios: [] });
    const res = await mock.handle(
      new Request('https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004:embedContent', {
        method: 'POST',
        headers: { 'x-goog-api-key': 'k' },
        body: JSON.stringify({ content: { parts: [{ text: 'hello' }] }, outputDimensionality: 8 }),
      }),
    );
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json.embedding.values).toHaveLength(8);
    expect(json.usageMetadata.promptTokenCount).toBeGreaterThan(0);
  });

  it('renders Google errors for a mis-shaped batch', async () => {
    const mock = createMockLLM({ scenarios: [] });
    const res = await mock.handle(
      new Request('https://generativelanguage.googleapis.com/v1/models/gemini-embedding-001:batchEmbedContents', {
        method: 'POST',
        headers: { 'x-goog-api-key': 'k' },
        body: JSON.stringify({ requests: [{ content: 'not a content' }] }),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('requests[0].content') } });
  });
});
