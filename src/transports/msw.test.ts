import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateOpenAI } from '../providers/testing/openapi.ts';
import { createMockLLM } from './mock-llm.ts';
import { mockLLMHandlers } from './msw.ts';

const mock = createMockLLM({
  scenarios: [{ name: 'msw', steps: [
    { match: { stream: false }, respond: { text: 'json via msw' }, consume: false },
    { match: { stream: true }, respond: { text: 'sse via msw', stream: { chunkSize: 4 } }, consume: false },
  ] }],
});
const server = setupServer(
  ...mockLLMHandlers(mock, { baseUrls: ['http://llm-gateway.internal/openai'] }),
  http.get('https://api.example.com/user', () => HttpResponse.json({ name: 'own handler' })),
);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => mock.reset());
afterAll(() => server.close());

describe('mockLLMHandlers', () => {
  it('answers the openai SDK on its default host, JSON and SSE, spec-valid', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
    const c = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    expect(c.choices[0].message.content).toBe('json via msw');
    expect(validateOpenAI('CreateChatCompletionResponse', c)).toEqual([]);
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'x' }] })) {
      expect(validateOpenAI('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('sse via msw');
    expect(mock.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });

  it('answers a given base URL with the path after it', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://llm-gateway.internal/openai/v1', maxRetries: 0 });
    const c = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    expect(c.choices[0].message.content).toBe('json via msw');
    expect(mock.requests[0].path).toBe('/v1/chat/completions');
  });

  it('composes with the user\'s own handlers', async () => {
    expect(await (await fetch('https://api.example.com/user')).json()).toEqual({ name: 'own handler' });
    expect(mock.requests).toHaveLength(0);
  });

  it('covers the Anthropic and Gemini hosts too', async () => {
    const anthropic = await fetch('https://api.anthropic.com/v1/nothing', { method: 'POST', body: '{}' });
    const gemini = await fetch('https://generativelanguage.googleapis.com/v9/nothing', { method: 'POST', body: '{}' });
    expect([anthropic.status, gemini.status]).toEqual([404, 404]);
    expect(mock.requests.map((r) => r.path)).toEqual(['/v1/nothing', '/v9/nothing']);
  });

  it('cuts a stream mid-way and applies latency under MSW too (the SDK throws after the frames it got)', async () => {
    mock.use({ name: 'cut', priority: 5, steps: [{ match: { model: 'cut' }, respond: { text: 'abcdefgh', latencyMs: 60, stream: { chunkSize: 2, chunkDelayMs: 2, disconnectAfterChunks: 3 } } }] });
    const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
    const t0 = performance.now();
    const stream = await client.chat.completions.create({ model: 'cut', stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(50);
    let text = '';
    const err = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(text).toBe('abcd');
  });
});
