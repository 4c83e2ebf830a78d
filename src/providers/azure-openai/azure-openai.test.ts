import OpenAI, { APIError, AzureOpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';

const API_VERSION = '2024-10-21';
const ENDPOINT = 'https://contoso.openai.azure.com';

function setup(scenarios: ScenarioInput[], options: { deployment?: string; entra?: boolean } = {}) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const auth = options.entra ? { azureADTokenProvider: async () => 'entra-token' } : { apiKey: 'azure-key' };
  const client = new AzureOpenAI({ endpoint: ENDPOINT, apiVersion: API_VERSION, deployment: options.deployment, maxRetries: 0, fetch, ...auth });
  return { mock, client, exchanges };
}

describe('Azure OpenAI through AzureOpenAI', () => {
  it('answers on the deployment path with Azure’s content-filter annotations', async () => {
    const { client, exchanges, mock } = setup([{ name: 't', steps: [{ match: { provider: 'azure-openai', model: 'gpt-4o' }, respond: { text: 'Hello from Azure.' } }] }]);
    const res = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.choices[0].message.content).toBe('Hello from Azure.');
    const url = new URL(exchanges[0].url);
    expect(url.pathname).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(url.searchParams.get('api-version')).toBe(API_VERSION);
    const wire = JSON.parse(await exchanges[0].body);
    expect(wire.prompt_filter_results[0]).toMatchObject({ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } });
    expect(wire.choices[0].content_filter_results.violence).toEqual({ filtered: false, severity: 'safe' });
    expect(mock.requests[0].provider).toBe('azure-openai');
  });

  it('streams with a first choiceless chunk of prompt filter results, as Azure does', async () => {
    const { client, exchanges } = setup([{ name: 't', steps: [{ respond: { text: 'Streamed answer.', stream: { chunkSize: 4 } } }] }]);
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Streamed answer.');
    const payloads = sseData(await exchanges[0].body);
    expect(JSON.parse(payloads[0])).toMatchObject({ choices: [], id: '', prompt_filter_results: [{ prompt_index: 0 }] });
    expect(JSON.parse(payloads[2]).choices[0].content_filter_results.hate).toEqual({ filtered: false, severity: 'safe' });
    expect(payloads.at(-1)).toBe('[DONE]');
  });

  it('sends an Entra token as a bearer, and matches the deployment as the model when the body names none', async () => {
    const { client, exchanges } = setup([{ name: 't', steps: [{ match: { model: 'my-deployment' }, respond: { text: 'by deployment' } }] }], { deployment: 'my-deployment', entra: true });
    const res = await client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.choices[0].message.content).toBe('by deployment');
    expect(new URL(exchanges[0].url).pathname).toBe('/openai/deployments/my-deployment/chat/completions');
  });

  it('answers Responses at /openai/responses and embeddings with the model’s real size', async () => {
    const { client, exchanges } = setup([{ name: 't', steps: [{ match: { provider: 'azure-openai', model: 'gpt-4o' }, respond: { text: 'A response.' } }] }]);
    const response = await client.responses.create({ model: 'gpt-4o', input: 'hi' });
    expect(response.output_text).toBe('A response.');
    expect(new URL(exchanges[0].url).pathname).toBe('/openai/responses');
    const embedded = await client.embeddings.create({ model: 'text-embedding-3-large', input: ['one', 'two'] });
    expect(embedded.data.map((d) => d.embedding.length)).toEqual([3072, 3072]);
    expect(new URL(exchanges[1].url).pathname).toBe('/openai/deployments/text-embedding-3-large/embeddings');
    const stored = await client.responses.retrieve(response.id);
    expect(stored.output_text).toBe('A response.');
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['gpt-4o']);
    expect(new URL(exchanges.at(-1)!.url).pathname).toBe('/openai/models');
  });

  it('answers errors in Azure’s shape: the front end’s 401 and 429, a content-filter 400 with innererror', async () => {
    const { client } = setup([
      {
        name: 'e',
        steps: [
          { respond: { error: { status: 429, message: 'Rate limit is exceeded. Try again in 1 seconds.' } } },
          { respond: { error: { status: 400, message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", code: 'content_filter' } } },
        ],
      },
    ]);
    const err = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as APIError).error).toEqual({ code: '429', message: 'Rate limit is exceeded. Try again in 1 seconds.' });
    const filtered = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(filtered).toBeInstanceOf(OpenAI.BadRequestError);
    expect((filtered as APIError).code).toBe('content_filter');
    expect((filtered as APIError).error).toMatchObject({ param: 'prompt', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation' } });
    const mock = createMockLLM({ scenarios: [] });
    const raw = await mock.handle(new Request(`${ENDPOINT}/openai/deployments/gpt-4o/chat/completions?api-version=${API_VERSION}`, { method: 'POST', body: '{}' }));
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ error: { code: '401', message: expect.stringMatching(/^Access denied due to invalid subscription key/) } });
  });

  it('answers the v1 form through the plain OpenAI client, on Azure’s host with a bearer key', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'v1 answer' } }] }] });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    const v1 = new OpenAI({ baseURL: `${ENDPOINT}/openai/v1`, apiKey: 'azure-key', maxRetries: 0, fetch });
    expect((await v1.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('v1 answer');
    expect(JSON.parse(await exchanges[0].body)).toHaveProperty('prompt_filter_results');
  });

  it('answers the v1 form on the real port when the client sends Azure’s api-key, beside OpenAI’s own paths', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'v1 answer' }, consume: false }] }] });
    try {
      // Off Azure's hosts `/openai/v1/…` is also a gateway's OpenAI layout: Azure's header decides.
      const v1 = new OpenAI({ baseURL: `${server.url}/openai/v1`, apiKey: 'azure-key', defaultHeaders: { 'api-key': 'azure-key' }, maxRetries: 0 });
      expect((await v1.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('v1 answer');
      const azure = new AzureOpenAI({ endpoint: server.url, apiKey: 'azure-key', apiVersion: API_VERSION, maxRetries: 0 });
      const res = await azure.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(res).toHaveProperty('prompt_filter_results');
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0 });
      expect(await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).not.toHaveProperty('prompt_filter_results');
      expect(server.mock.requests.map((r) => r.provider)).toEqual(['azure-openai', 'azure-openai', 'openai']);
    } finally {
      await server.close();
    }
  });

  it('fails a Responses stream midway with the Responses error event (the route picks the API, not Chat’s chunk)', async () => {
    const { client, exchanges } = setup([{ name: 'f', steps: [{ respond: { text: 'Partly there, then not.', stream: { chunkSize: 4, errorAfterChunks: 6, error: { message: 'Azure is busy.', status: 429 } } } }] }]);
    let text = '';
    const err = await (async () => {
      for await (const event of await client.responses.create({ model: 'gpt-4o', input: 'hi', stream: true })) if (event.type === 'response.output_text.delta') text += event.delta;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toMatchObject({ error: { message: 'Azure is busy.', type: 'requests', code: 'rate_limit_exceeded' } });
    expect(text.length).toBeGreaterThan(0);
    expect('Partly there, then not.'.startsWith(text)).toBe(true);
    expect((await exchanges[0].body).split('\n\n').filter(Boolean).at(-1)).toMatch(/^event: error\ndata: \{"type":"error"/);
  });
});
