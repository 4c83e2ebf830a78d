import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import { startMockLLMServer } from '../transports/server.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { capturingFetch } from './testing/capture.ts';
import { validateOpenAI } from './testing/openapi.ts';

const catchAll: ScenarioInput = { name: 'any', steps: [{ respond: { text: 'hi' }, consume: false }] };

function clients(scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  return {
    mock,
    exchanges,
    openai: new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: 'sk-ant', fetch, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: 'g', httpOptions: { fetch } }),
  };
}

describe('model listing answers what a catch-all scenario answers', () => {
  it('retrieves any model on a catch-all server, in each provider’s shape', async () => {
    const { openai, anthropic, google, exchanges } = clients([catchAll]);
    expect(await openai.models.retrieve('gpt-4o-mini')).toMatchObject({ id: 'gpt-4o-mini', object: 'model' });
    expect(validateOpenAI('Model', JSON.parse(await exchanges[0].body))).toEqual([]);
    expect(await anthropic.models.retrieve('claude-haiku-4-5')).toMatchObject({ type: 'model', id: 'claude-haiku-4-5' });
    expect(await google.models.get({ model: 'gemini-2.5-flash' })).toMatchObject({ name: 'models/gemini-2.5-flash' });
  });

  it('still 404s a model no step answers (a step for another provider does not count)', async () => {
    const { openai, anthropic } = clients([{ name: 'a', steps: [{ match: { provider: 'anthropic' }, respond: { text: 'x' } }, { match: { model: { regex: '^gpt-4' } }, respond: { text: 'y' } }] }]);
    expect(await openai.models.retrieve('gpt-4.1')).toMatchObject({ id: 'gpt-4.1' });
    expect(await openai.models.retrieve('o3').catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await anthropic.models.retrieve('claude-x')).toMatchObject({ id: 'claude-x' });
  });

  it('answers GET /models without /v1 (a base URL that carries the version) on the real port', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'm', steps: [{ match: { model: 'gpt-4o' }, respond: { text: 'x' } }] }] });
    try {
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
      const ids: string[] = [];
      for await (const m of client.models.list()) ids.push(m.id);
      expect(ids).toEqual(['gpt-4o']);
      expect(await client.models.retrieve('gpt-4o')).toMatchObject({ id: 'gpt-4o' });
    } finally {
      await server.close();
    }
  });

  it('answers a malformed percent-escape in a model id with the provider’s 404, never a 500', async () => {
    const mock = createMockLLM({ scenarios: [catchAll] });
    const res = await mock.handle(new Request('https://api.openai.com/v1/models/%E0%A4%A', { headers: { authorization: 'Bearer k' } }));
    expect(res.status).toBe(404);
    expect(validateOpenAI('ErrorResponse', await res.json())).toEqual([]);
    const gemini = await mock.handle(new Request('https://generativelanguage.googleapis.com/v1beta/models/%E0%A4%A:generateContent', { method: 'POST', headers: { 'x-goog-api-key': 'k' }, body: '{"contents":[]}' }));
    expect(gemini.status).toBe(400);
    expect(await gemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });
});

describe('Responses: a stored prompt and missing parameters', () => {
  it('accepts a request that names only a stored prompt; its id stands for the model', async () => {
    const { openai, mock } = clients([{ name: 'p', steps: [{ match: { model: { contains: 'pmpt_' } }, respond: { text: 'from the prompt' } }] }]);
    const response = await openai.responses.create({ prompt: { id: 'pmpt_abc123', variables: { city: 'Paris' } } });
    expect(response.output_text).toBe('from the prompt');
    expect(mock.requests[0].request?.model).toBe('pmpt_abc123');
  });

  it('answers a missing parameter with code missing_required_parameter, as the live API does', async () => {
    const { openai, exchanges } = clients([catchAll]);
    const err = await openai.responses.create({ input: 'x' } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('missing_required_parameter');
    const body = JSON.parse(await exchanges[0].body);
    expect(body.error).toEqual({ message: "Missing required parameter: 'model'.", type: 'invalid_request_error', param: 'model', code: 'missing_required_parameter' });
    const chat = await openai.chat.completions.create({ model: 'gpt-4o' } as never).catch((e: unknown) => e);
    expect((chat as InstanceType<typeof OpenAI.APIError>).code).toBe('missing_required_parameter');
  });
});

describe('response headers as each provider sends them', () => {
  it('Gemini JSON: application/json; charset=UTF-8 with nosniff and x-xss-protection; streams: text/event-stream', async () => {
    const { google, exchanges } = clients([catchAll]);
    await google.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    for await (const chunk of await google.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) expect(chunk).toBeDefined();
    const [json, stream] = exchanges;
    expect(json.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(json.headers.get('x-content-type-options')).toBe('nosniff');
    expect(json.headers.get('x-xss-protection')).toBe('0');
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    const mock = createMockLLM({ scenarios: [catchAll] });
    const error = await mock.handle(new Request('https://generativelanguage.googleapis.com/v1beta/models/g:generateContent', { method: 'POST', headers: { 'x-goog-api-key': 'k' }, body: '{"contents":"x"}' }));
    expect(error.status).toBe(400);
    expect(error.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(error.headers.get('x-xss-protection')).toBe('0');
  });

  it("keeps a scenario's own content-type, for JSON and streamed answers", async () => {
    const headers = { 'content-type': 'application/json; charset=utf-8; x-custom=1' };
    const { openai, exchanges } = clients([{ name: 'h', steps: [{ respond: { text: 'x', headers }, consume: false }] }]);
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    expect(exchanges[0].headers.get('content-type')).toBe(headers['content-type']);
    const sse = { 'content-type': 'text/event-stream; charset=utf-8; x-custom=2' };
    const streamed = clients([{ name: 'h', steps: [{ respond: { text: 'x', headers: sse } }] }]);
    for await (const chunk of await streamed.openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true })) expect(chunk).toBeDefined();
    expect(streamed.exchanges[0].headers.get('content-type')).toBe(sse['content-type']);
  });
});
