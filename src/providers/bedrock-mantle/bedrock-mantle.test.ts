/**
 * Claude in Amazon Bedrock's Mantle endpoint through `@anthropic-ai/bedrock-sdk`'s
 * `AnthropicBedrockMantle`, as its users call it: Anthropic's Messages API under `/anthropic` on
 * `bedrock-mantle.{region}.api.aws`, SigV4-signed for `bedrock-mantle` or with a Bedrock API key.
 */
import { AnthropicBedrockMantle } from '@anthropic-ai/bedrock-sdk';
import Anthropic from '@anthropic-ai/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer } from '../../transports/server.ts';

const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const ask = (content: string) => ({ model: MODEL, max_tokens: 64, messages: [{ role: 'user' as const, content }] });

function mantle(options: { baseURL?: string; apiKey?: string } = {}) {
  const sent: Array<{ url: string; headers: Headers; body: any }> = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    return globalThis.fetch(url, init);
  };
  const common = { awsRegion: 'us-east-1', maxRetries: 0, fetch, baseURL: options.baseURL };
  const client = options.apiKey
    ? new AnthropicBedrockMantle({ ...common, apiKey: options.apiKey })
    : new AnthropicBedrockMantle({ ...common, awsAccessKey: 'AKIDMANTLETEST', awsSecretAccessKey: 'mantle-secret', awsSessionToken: 'mantle-session-token' });
  return { client, sent };
}

describe('Claude in Bedrock (Mantle) through AnthropicBedrockMantle over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());

  it('answers create(), stream() and countTokens() at /anthropic/v1/messages, SigV4-signed for bedrock-mantle', async () => {
    mock.use({ name: 't', steps: [{ match: { provider: 'bedrock', model: MODEL }, respond: { text: 'Hello from Mantle.', usage: { inputTokens: 6, outputTokens: 4 }, stream: { chunkSize: 5 } }, consume: false }] });
    const { client, sent } = mantle();
    const created = await client.messages.create(ask('hi'));
    const events: string[] = [];
    const stream = client.messages.stream(ask('hi'));
    stream.on('streamEvent', (e) => events.push(e.type));
    const final = await stream.finalMessage();
    expect(created).toMatchObject({ type: 'message', model: MODEL, content: [{ type: 'text', text: 'Hello from Mantle.' }], stop_reason: 'end_turn', usage: { input_tokens: 6, output_tokens: 4 } });
    expect(final.content).toEqual(created.content);
    expect(final.usage).toMatchObject({ input_tokens: 6, output_tokens: 4 });
    expect(new Set(events)).toEqual(new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']));
    const counted = await client.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'count these words please' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(sent.map((r) => r.url)).toEqual([
      'https://bedrock-mantle.us-east-1.api.aws/anthropic/v1/messages',
      'https://bedrock-mantle.us-east-1.api.aws/anthropic/v1/messages',
      'https://bedrock-mantle.us-east-1.api.aws/anthropic/v1/messages/count_tokens',
    ]);
    // Anthropic's wire as is: version header kept, model in the body; signed for the Mantle service.
    expect(sent[0].headers.get('anthropic-version')).toBeTruthy();
    expect(sent[0].body.model).toBe(MODEL);
    expect(sent[0].headers.get('authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDMANTLETEST\/\d{8}\/us-east-1\/bedrock-mantle\/aws4_request, /);
    expect(mock.requests.map((r) => [r.provider, r.status, r.path])).toEqual([
      ['bedrock', 200, '/anthropic/v1/messages'],
      ['bedrock', 200, '/anthropic/v1/messages'],
      ['bedrock', 200, '/anthropic/v1/messages/count_tokens'],
    ]);
    expect(JSON.stringify(mock.requests)).not.toMatch(/AKIDMANTLETEST|mantle-session-token/);
  });

  it('takes a Bedrock API key as a bearer, and raises the SDK’s error classes', async () => {
    const { client, sent } = mantle({ apiKey: 'bedrock-api-key-test' });
    mock.use({ name: 'e', steps: [{ respond: { error: { status: 429, message: 'Too many requests' } } }] });
    const throttled = await client.messages.create(ask('hi')).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(Anthropic.RateLimitError);
    expect((throttled as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests' } });
    expect(sent[0].headers.get('authorization')).toBe('Bearer bedrock-api-key-test');
    mock.use({ name: 'only', steps: [{ match: { model: 'other-model' }, respond: { text: 'x' } }] });
    expect(await client.messages.create(ask('hi')).catch((e: unknown) => e)).toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe('Claude in Bedrock (Mantle) on the real port', () => {
  it('serves the Mantle client under /anthropic, while a plain Anthropic client there keeps the Anthropic prefix', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'over the port', stream: { chunkSize: 4 } }, consume: false }] }] });
    try {
      for (const options of [{}, { apiKey: 'k' }]) {
        const { client } = mantle({ baseURL: `${server.url}/anthropic`, ...options });
        expect((await client.messages.create(ask('hi'))).content[0]).toMatchObject({ text: 'over the port' });
        expect((await client.messages.stream(ask('hi')).finalMessage()).content[0]).toMatchObject({ text: 'over the port' });
      }
      const anthropic = new Anthropic({ apiKey: 'sk-ant', baseURL: `${server.url}/anthropic`, maxRetries: 0 });
      expect((await anthropic.messages.create(ask('hi'))).content[0]).toMatchObject({ text: 'over the port' });
      expect(server.mock.requests.map((r) => r.provider)).toEqual(['bedrock', 'bedrock', 'bedrock', 'bedrock', 'anthropic']);
    } finally {
      await server.close();
    }
  });
});
