import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { CohereClientV2, CohereError } from 'cohere-ai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { capturingFetch } from './testing/capture.ts';
import { staticTokenClient } from './vertex-shared/test-auth.ts';
import { validateOpenAI } from './testing/openapi.ts';
import { defaultAdapters } from './registry.ts';
import { ProviderRouter } from './router.ts';

const scenarios: ScenarioInput[] = [
  {
    name: 'models',
    steps: [
      { match: { model: 'gpt-4o' }, respond: { text: 'a' } },
      { match: { model: 'claude-sonnet-5-5' }, respond: { text: 'b' } },
      { match: { model: { equals: 'gemini-2.5-flash' } }, respond: { text: 'c' } },
      { match: { model: { regex: '^never-listed' } }, respond: { text: 'd' } },
    ],
  },
];

function setup() {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  return {
    exchanges,
    openai: new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: 'sk-ant', fetch, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: 'g', httpOptions: { fetch } }),
    googleBeta: new GoogleGenAI({ apiKey: 'g', httpOptions: { fetch, apiVersion: 'v1beta' } }),
    cohere: new CohereClientV2({ token: 'co-test', fetch, maxRetries: 0 }),
    vertex: new GoogleGenAI({ vertexai: true, project: 'ghost-project', location: 'us-central1', googleAuthOptions: { authClient: staticTokenClient() }, httpOptions: { fetch } }),
  };
}

const NAMES = ['gpt-4o', 'claude-sonnet-5-5', 'gemini-2.5-flash'];

describe('model listing', () => {
  it('lists the scenario model names through the openai SDK, valid against the spec', async () => {
    const { openai, exchanges } = setup();
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(NAMES);
    expect(validateOpenAI('ListModelsResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
    const one = await openai.models.retrieve('gpt-4o');
    expect(one).toMatchObject({ id: 'gpt-4o', object: 'model', owned_by: 'openai' });
    expect(validateOpenAI('Model', JSON.parse(await exchanges[1].body))).toEqual([]);
    const missing = await openai.models.retrieve('gpt-unknown').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(validateOpenAI('ErrorResponse', JSON.parse(await exchanges[2].body))).toEqual([]);
  });

  it('lists them in Anthropic shape through @anthropic-ai/sdk', async () => {
    const { anthropic } = setup();
    const ids: string[] = [];
    for await (const model of anthropic.models.list()) ids.push(model.id);
    expect(ids).toEqual(NAMES);
    const page = await anthropic.models.list();
    expect(page.has_more).toBe(false);
    expect(page.first_id).toBe('gpt-4o');
    const one = await anthropic.models.retrieve('claude-sonnet-5-5');
    expect(one).toMatchObject({ type: 'model', id: 'claude-sonnet-5-5', display_name: 'Claude Sonnet 5 5' });
    expect(Number.isNaN(Date.parse(one.created_at))).toBe(false);
    const missing = await anthropic.models.retrieve('claude-nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('lists them as models/{id} through @google/genai on v1 and v1beta', async () => {
    const { google, googleBeta, exchanges } = setup();
    for (const client of [google, googleBeta]) {
      const names: string[] = [];
      for await (const model of await client.models.list()) names.push(model.name ?? '');
      expect(names).toEqual(NAMES.map((n) => `models/${n}`));
    }
    expect(exchanges.map((e) => new URL(e.url).pathname)).toEqual(['/v1/models', '/v1beta/models']);
    const one = await google.models.get({ model: 'gemini-2.5-flash' });
    expect(one).toMatchObject({ name: 'models/gemini-2.5-flash', supportedActions: ['generateContent', 'countTokens'] });
    const missing = await google.models.get({ model: 'gemini-0' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
  });

  it('lists them in Cohere’s shape through cohere-ai, filtered by endpoint and paged', async () => {
    const { cohere, exchanges } = setup();
    const all = await cohere.models.list();
    expect(all.models.map((m) => m.name)).toEqual(NAMES);
    expect(all.models[0]).toMatchObject({ name: 'gpt-4o', endpoints: ['generate', 'chat', 'summarize'], finetuned: false, contextLength: expect.any(Number) });
    expect(all.nextPageToken).toBeUndefined();
    expect(new URL(exchanges[0].url).pathname).toBe('/v1/models');
    // Paged: the SDK hands the token back as page_token.
    const first = await cohere.models.list({ pageSize: 2 });
    expect(first.models.map((m) => m.name)).toEqual(NAMES.slice(0, 2));
    const rest = await cohere.models.list({ pageSize: 2, pageToken: first.nextPageToken });
    expect(rest.models.map((m) => m.name)).toEqual(NAMES.slice(2));
    expect(rest.nextPageToken).toBeUndefined();
    expect((await cohere.models.list({ endpoint: 'embed' })).models).toEqual([]);
    expect((await cohere.models.list({ endpoint: 'chat', defaultOnly: true })).models.map((m) => m.name)).toEqual(['gpt-4o']);
    const one = await cohere.models.get('claude-sonnet-5-5');
    expect(one).toMatchObject({ name: 'claude-sonnet-5-5', endpoints: ['generate', 'chat', 'summarize'] });
    const missing = await cohere.models.get('command-nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CohereError);
    expect((missing as CohereError).statusCode).toBe(404);
    expect((missing as CohereError).body).toMatchObject({ message: expect.stringContaining("model 'command-nope' not found") });
    const bad = await cohere.models.list({ defaultOnly: true }).catch((e: unknown) => e);
    expect((bad as CohereError).statusCode).toBe(400);
  });

  it('lists them as Vertex publisher models through @google/genai with vertexai: true', async () => {
    const { vertex, exchanges } = setup();
    const names: string[] = [];
    for await (const model of await vertex.models.list()) names.push(model.name ?? '');
    expect(names).toEqual(NAMES.map((n) => `publishers/google/models/${n}`));
    expect(exchanges[0].url).toBe('https://us-central1-aiplatform.googleapis.com/v1beta1/publishers/google/models');
    // Paged: the SDK's pager follows nextPageToken.
    const paged: string[] = [];
    for await (const model of await vertex.models.list({ config: { pageSize: 2 } })) paged.push(model.name ?? '');
    expect(paged).toEqual(names);
    expect(exchanges.slice(1).map((e) => new URL(e.url).searchParams.get('pageToken'))).toEqual([null, '2']);
    const one = await vertex.models.get({ model: 'gemini-2.5-flash' });
    expect(one).toMatchObject({ name: 'publishers/google/models/gemini-2.5-flash', version: '001' });
    expect(new URL(exchanges.at(-1)!.url).pathname).toBe('/v1beta1/publishers/google/models/gemini-2.5-flash');
    const missing = await vertex.models.get({ model: 'gemini-0' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
    // Tuned models: none, at the project's own path.
    const tuned: unknown[] = [];
    for await (const model of await vertex.models.list({ config: { queryBase: false } })) tuned.push(model);
    expect(tuned).toEqual([]);
    expect(new URL(exchanges.at(-1)!.url).pathname).toBe('/v1beta1/projects/ghost-project/locations/us-central1/models');
  });

  it('answers Cohere’s and Vertex’s listings on the real port, Cohere’s told apart by its SDK header', async () => {
    const server = await startMockLLMServer({ scenarios });
    try {
      const cohere = new CohereClientV2({ token: 'co-test', environment: server.url, maxRetries: 0 });
      expect((await cohere.models.list()).models.map((m) => m.name)).toEqual(NAMES);
      const vertex = new GoogleGenAI({ vertexai: true, project: 'p', location: 'us-central1', googleAuthOptions: { authClient: staticTokenClient() }, httpOptions: { baseUrl: server.url } });
      expect((await vertex.models.get({ model: 'gpt-4o' })).name).toBe('publishers/google/models/gpt-4o');
      expect(server.mock.requests.map((r) => `${r.provider} ${r.status}`)).toEqual(['cohere 200', 'vertex-gemini 200']);
    } finally {
      await server.close();
    }
  });

  it('tells the providers apart by headers on the shared /v1/models path', () => {
    const router = new ProviderRouter(defaultAdapters());
    const served = (headers: Record<string, string>, path = '/v1/models', query = '', method = 'GET') => {
      const result = router.route({ method, url: new URL(`http://127.0.0.1:9${path}${query}`), path, headers: new Headers(headers) });
      return result.served ? result.adapter.id : null;
    };
    expect(served({ authorization: 'Bearer k' })).toBe('openai');
    expect(served({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01' })).toBe('anthropic');
    expect(served({ 'x-goog-api-key': 'k' }, '/v1/models/gemini-x')).toBe('gemini');
    expect(served({}, '/v1beta/models')).toBe('gemini');
    expect(served({}, '/v1/models', '?key=abc')).toBe('gemini');
    expect(served({}, '/models')).toBe('openai');
    expect(served({}, '/v1/models/gemini-x:generateContent')).toBe('openai');
    expect(served({}, '/v1/models', '', 'POST')).toBeNull();
    expect(served({ authorization: 'Bearer k', 'x-fern-sdk-name': 'cohere-ai' })).toBe('cohere');
  });

  it('answers a listing without credentials with each provider’s auth error', async () => {
    const mock = createMockLLM({ scenarios });
    const openai = await mock.handle(new Request('https://api.openai.com/v1/models'));
    expect(openai.status).toBe(401);
    const anthropic = await mock.handle(new Request('https://api.anthropic.com/v1/models', { headers: { 'anthropic-version': '2023-06-01' } }));
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const gemini = await mock.handle(new Request('https://generativelanguage.googleapis.com/v1beta/models'));
    expect(gemini.status).toBe(403);
    const cohere = await mock.handle(new Request('https://api.cohere.com/v1/models'));
    expect(cohere.status).toBe(401);
    const vertex = await mock.handle(new Request('https://us-central1-aiplatform.googleapis.com/v1beta1/publishers/google/models'));
    expect(vertex.status).toBe(401);
    expect(await vertex.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });
});
