/**
 * The shared conformance cases for Claude on Bedrock as `@anthropic-ai/bedrock-sdk` calls it:
 * InvokeModel and InvokeModelWithResponseStream with Anthropic bodies, SigV4-signed.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import type Anthropic from '@anthropic-ai/sdk';
import { APIError } from '@anthropic-ai/sdk';
import { bedrockAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { anthropicSdkAnswer, bedrockErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) =>
  new AnthropicBedrock({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDTEST', awsSecretKey: 'test-secret', maxRetries: 0, ...(base ? { baseURL: base } : {}) });
const tools: Anthropic.Tool[] = ['get_weather', 'get_time'].map((name) => ({ name, input_schema: { type: 'object' } }));
const params = (model: string, prompt: string) => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: prompt }] });

describeConformance({
  id: 'bedrock',
  adapter: bedrockAdapter,
  origin: 'https://bedrock-runtime.us-east-1.amazonaws.com',
  request: (model, prompt) => ({
    path: `/model/${encodeURIComponent(model)}/invoke`,
    headers: { authorization: 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00' },
    body: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: prompt }] },
  }),
  authHeaders: ['authorization'],
  authStatus: 403,
  badBody: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: 'hi' },
  readError: bedrockErrorReader,
  finish: { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' },
  noMatch404: true,
  sdk: {
    text: async (base, model, prompt) => anthropicSdkAnswer(await client(base).messages.create(params(model, prompt))),
    // The SDK turns the binary event stream back into Anthropic's SSE events and accumulates them.
    stream: async (base, model, prompt) => anthropicSdkAnswer(await client(base).messages.stream(params(model, prompt)).finalMessage()),
    tools: async (base, model, prompt, stream) =>
      stream
        ? anthropicSdkAnswer(await client(base).messages.stream({ ...params(model, prompt), tools }).finalMessage())
        : anthropicSdkAnswer(await client(base).messages.create({ ...params(model, prompt), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).messages.create(params(model, prompt)).catch((e: unknown) => e);
      if (!(err instanceof APIError)) throw new Error(`expected an Anthropic APIError, got ${String(err)}`);
      return err.status ?? 0;
    },
  },
});
