import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../scenario/tokens.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { useMockLLM } from '../vitest/use-mock-llm.ts';

/** Token counting answers from the engine's own estimate and consumes no scenario step. */
const steps = {
  name: 'count-then-answer',
  steps: [
    { match: { provider: 'anthropic' as const }, respond: { text: 'from claude' } },
    { match: { provider: 'gemini' as const }, respond: { text: 'from gemini' } },
  ],
};

describe('token counting over MSW (useMockLLM)', () => {
  it('Anthropic messages.countTokens → { input_tokens }, equal to the usage a step without usage reports', async () => {
    const mock = useMockLLM(steps);
    const client = new Anthropic({ apiKey: 'k', maxRetries: 0 });
    const body = { model: 'claude-sonnet-5-5', system: 'Be brief.', messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }] };
    const count = await client.messages.countTokens(body);
    expect(count).toEqual({ input_tokens: estimateTokens('Be brief. What is the weather in Paris?') });
    expect(mock.unconsumed()).toHaveLength(2);
    const message = await client.messages.create({ ...body, max_tokens: 10 });
    expect(message.usage.input_tokens).toBe(count.input_tokens);
    // Journaled like a model listing: no step, but the counted request in canonical form.
    expect(mock.requests[0]).toMatchObject({ path: '/v1/messages/count_tokens', provider: 'anthropic', status: 200, step: null });
    expect(mock.requests[0].request?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('Anthropic count_tokens keeps the messages rules: no key → 401, no anthropic-version or no model → 400', async () => {
    useMockLLM(steps);
    // The SDK refuses to send without credentials; a fetch that drops them shows what the API answers.
    const dropKey: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      request.headers.delete('x-api-key');
      request.headers.delete('authorization');
      return fetch(request);
    };
    const noKey = new Anthropic({ apiKey: 'k', maxRetries: 0, fetch: dropKey });
    const denied = await noKey.messages.countTokens({ model: 'claude-sonnet-5-5', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(denied.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const noVersion = await new Anthropic({ apiKey: 'k', maxRetries: 0, defaultHeaders: { 'anthropic-version': null } })
      .messages.countTokens({ model: 'claude-sonnet-5-5', messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(noVersion).toBeInstanceOf(Anthropic.BadRequestError);
    expect(noVersion.error.error.message).toBe('anthropic-version: header is required');
    const client = new Anthropic({ apiKey: 'k', maxRetries: 0 });
    const bad = await client.messages.countTokens({ messages: [{ role: 'user', content: 'x' }] } as never).catch((e) => e);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect(bad.error.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('model') });
  });

  it('Gemini models.countTokens → { totalTokens } on v1 and v1beta, equal to generateContent usage', async () => {
    const mock = useMockLLM(steps);
    for (const apiVersion of ['v1', 'v1beta']) {
      const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { apiVersion } });
      const count = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'Count these words, please.' });
      expect(count.totalTokens).toBe(estimateTokens('Count these words, please.'));
    }
    expect(mock.requests.map((r) => r.path)).toEqual([
      '/v1/models/gemini-2.5-flash:countTokens',
      '/v1beta/models/gemini-2.5-flash:countTokens',
    ]);
    const generated = await new GoogleGenAI({ apiKey: 'k' }).models.generateContent({ model: 'gemini-2.5-flash', contents: 'Count these words, please.' });
    expect(generated.usageMetadata?.promptTokenCount).toBe(estimateTokens('Count these words, please.'));
    expect(mock.unconsumed()).toHaveLength(1);
  });
});

describe('token counting on the real port (startMockLLMServer)', () => {
  let server: MockLLMServer;
  beforeAll(async () => {
    server = await startMockLLMServer({ scenarios: [steps] });
  });
  afterAll(() => server.close());

  it('answers both SDKs pointed at the server; Gemini without a key gets 403', async () => {
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const counted = await anthropic.messages.countTokens({ model: 'claude-sonnet-5-5', messages: [{ role: 'user', content: 'abcdefgh' }] });
    expect(counted.input_tokens).toBe(2);
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
    const count = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'abcdefghijkl' }] }] });
    expect(count.totalTokens).toBe(3);
    const res = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:countTokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    const withRequest = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:countTokens?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ generateContentRequest: { model: 'models/gemini-2.5-flash', systemInstruction: { parts: [{ text: 'abcd' }] }, contents: [{ parts: [{ text: 'abcd' }] }] } }),
    });
    expect(await withRequest.json()).toEqual({ totalTokens: 3, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 3 }] });
    expect(server.mock.unconsumed()).toHaveLength(2);
  });

  it('a malformed Gemini count (contents not a list) gets Google\'s 400 naming the field', async () => {
    const res = await fetch(`${server.url}/v1/models/gemini-2.5-flash:countTokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: JSON.stringify({ contents: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('contents') } });
  });
});
