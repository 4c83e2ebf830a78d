import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { capturingFetch } from './testing/capture.ts';
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
  });
});
