import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { ProviderError, Retrier, isRetryableStatus, retryAfterMs } from './retry.ts';

const ok = () => new Response(JSON.stringify({ object: 'list', data: [] }), { headers: { 'content-type': 'application/json' } });
const fail = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { message: `status ${status}`, type: 'x' } }), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after seconds and retry-after dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 7_000)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('classifies 408, 409, 429, 5xx and 529 as transient, other 4xx not', () => {
    expect([408, 409, 429, 500, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('Retrier with a real SDK', () => {
  it('waits what retry-after asks (not the backoff) and then succeeds', async () => {
    const answers = [fail(429, { 'retry-after': '0.15' }), ok()];
    const seen: number[] = [];
    const retrier = new Retrier('openai', { maxRetries: 2, baseDelayMs: 5_000, maxDelayMs: 10_000 }, async () => {
      seen.push(Date.now());
      return answers.shift()!;
    });
    const client = new OpenAI({ apiKey: 'k', fetch: retrier.fetch, maxRetries: 0 });
    const { retries } = await retrier.run(() => client.models.list());
    expect(retries).toBe(1);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(140);
    expect(seen[1] - seen[0]).toBeLessThan(5_000);
  });

  it('honours retry-after on AWS SDK errors, read from their $response (HTTP/1.1 handler)', async () => {
    const server = await startMockLLMServer({
      scenarios: [{ name: 'b', steps: [{ respond: { error: { status: 429, message: 'slow down', headers: { 'retry-after': '0.15' } } } }, { respond: { text: 'ok' } }] }],
    });
    const client = new BedrockRuntimeClient({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, endpoint: server.url, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
    try {
      const retrier = new Retrier('bedrock', { maxRetries: 2, baseDelayMs: 5_000, maxDelayMs: 10_000 });
      const { retries } = await retrier.run(() => client.send(new ConverseCommand({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'hi' }] }] })));
      expect(retries).toBe(1);
      const [first, second] = server.mock.requests;
      expect(second.startedAt - first.startedAt).toBeGreaterThanOrEqual(140);
      expect(second.startedAt - first.startedAt).toBeLessThan(5_000);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  it('gives up after maxRetries with a ProviderError naming status and attempts', async () => {
    let calls = 0;
    const retrier = new Retrier('anthropic', { maxRetries: 2, baseDelayMs: 1 }, async () => {
      calls++;
      return fail(529);
    });
    const client = new OpenAI({ apiKey: 'k', fetch: retrier.fetch, maxRetries: 0 });
    const error = await retrier.run(() => client.models.list()).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 529, retryable: true, attempts: 3 });
    expect((error as Error).message).toMatch(/^anthropic HTTP 529 after 3 attempts/);
  });

  it('does not retry a 400', async () => {
    let calls = 0;
    const retrier = new Retrier('openai', { maxRetries: 3, baseDelayMs: 1 }, async () => {
      calls++;
      return fail(400);
    });
    const client = new OpenAI({ apiKey: 'k', fetch: retrier.fetch, maxRetries: 0 });
    await expect(retrier.run(() => client.models.list())).rejects.toMatchObject({ status: 400, retryable: false, attempts: 1 });
    expect(calls).toBe(1);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const retrier = new Retrier('openai', { maxRetries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 }, async () => fail(503));
    const client = new OpenAI({ apiKey: 'k', fetch: retrier.fetch, maxRetries: 0 });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(retrier.run(() => client.models.list(), controller.signal)).rejects.toThrow('stop');
  });
});
