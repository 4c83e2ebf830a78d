/**
 * Mid-stream errors through the SDKs' stream helpers, as users reach them (`chat.completions.stream()`,
 * `responses.create({ stream: true })`, `messages.stream()`), paced over the real port: the helper's
 * final result rejects with the SDK's own error after the text that arrived.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scenario } from '../scenario/builder.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { ssePayloads } from './common/views.ts';
import { validateOpenAI } from './testing/openapi.ts';

const TEXT = 'Half of this answer arrives before the failure.';

describe('mid-stream errors through the SDK stream helpers (real port, paced)', () => {
  let server: MockLLMServer;
  beforeAll(async () => {
    server = await startMockLLMServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.mock.reset();
    server.mock.use(scenario('flaky').respondWithText(TEXT).asStream({ chunkSize: 4, chunkDelayMs: 3 }).failStreamAfter(6, 'Overloaded, try again later.', { status: 529 }).build());
  });

  it("OpenAI's error frames validate against OpenAI's OpenAPI description (ErrorResponse, ResponseErrorEvent)", async () => {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return ssePayloads([...(await res.text()).split(/(?<=\n\n)/)]);
    };
    const chat = await post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(chat).toHaveLength(7);
    expect(validateOpenAI('ErrorResponse', chat.at(-1)!.data)).toEqual([]);
    server.mock.use(scenario('flaky').respondWithText(TEXT).asStream({ chunkSize: 4 }).failStreamAfter(6, 'Overloaded, try again later.', { status: 529 }).build());
    const events = await post('/v1/responses', { model: 'gpt-4o', input: 'hi', stream: true });
    expect(events).toHaveLength(7);
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { type: 'error', sequence_number: 6, message: 'Overloaded, try again later.' } });
    expect(validateOpenAI('ResponseErrorEvent', events.at(-1)!.data)).toEqual([]);
  });

  it('openai chat.completions.stream(): deltas arrive, then finalChatCompletion() rejects with APIError', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('content', (delta) => (text += delta));
    const err = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ error: { message: 'Overloaded, try again later.', type: 'server_error' } });
    expect(text.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(text) && text !== TEXT).toBe(true);
  });

  it('openai responses.create({ stream: true }): events arrive, then the iteration throws APIError from the error event', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.responses.create({ model: 'gpt-4o', input: 'hi', stream: true });
    const types: string[] = [];
    let id = '';
    const err = await (async () => {
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.created') id = event.response.id;
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ error: { message: 'Overloaded, try again later.', type: 'server_error' } });
    expect(types[0]).toBe('response.created');
    expect(types).toHaveLength(6);
    expect(types).not.toContain('response.completed');
    // Retrieved afterwards, the response is a failed one, in the API's own shape.
    const stored = await client.responses.retrieve(id);
    expect(stored).toMatchObject({ id, status: 'failed', error: { code: 'server_error', message: 'Overloaded, try again later.' } });
    expect(validateOpenAI('Response', JSON.parse(JSON.stringify(stored)))).toEqual([]);
  });

  it('anthropic messages.stream(): text arrives, then finalMessage() rejects with the overloaded_error APIError', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'claude-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err).toMatchObject({ type: 'overloaded_error', apiMessage: 'Overloaded, try again later.' });
    expect(text.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(text) && text !== TEXT).toBe(true);
    // The journal keeps the answer as sent: a 200 whose stream failed.
    expect(server.mock.requests.at(-1)).toMatchObject({ provider: 'anthropic', status: 200 });
  });
});
