import { AnthropicBedrockMantle } from '@anthropic-ai/bedrock-sdk';
import { bedrockMantleAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { anthropicErrorReader, anthropicSdkKit } from '../testing/kits.ts';

// On the real port the base URL keeps Mantle's `/anthropic` prefix, as the SDK's default one has it.
const client = (base: string | undefined) =>
  new AnthropicBedrockMantle({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDTEST', awsSecretAccessKey: 'test-secret', maxRetries: 0, ...(base ? { baseURL: `${base}/anthropic` } : {}) });
const params = (model: string, prompt: string) => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: prompt }] });

describeConformance({
  id: 'bedrock',
  adapter: bedrockMantleAdapter,
  origin: 'https://bedrock-mantle.us-east-1.api.aws',
  request: (model, prompt) => ({
    path: '/anthropic/v1/messages',
    // The SDK's user agent goes with every request: on a shared host it tells Mantle's `/anthropic/…` from Anthropic's prefix.
    headers: {
      authorization: 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/bedrock-mantle/aws4_request, SignedHeaders=host, Signature=00',
      'anthropic-version': '2023-06-01',
      'user-agent': 'AnthropicBedrockMantle/JS 1.12.0',
    },
    body: params(model, prompt),
  }),
  authHeaders: ['authorization'],
  authStatus: 401,
  badBody: { model: 'm-1', max_tokens: 64, messages: 'hi' },
  readError: anthropicErrorReader,
  finish: { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' },
  noMatch404: true,
  streamError: { typeFor503: 'api_error', given: { type: 'overloaded_error', reported: 'overloaded_error' }, status: false, message: true },
  sdk: anthropicSdkKit(client),
  toolCallId: /^toolu_bdrk_01[A-Za-z0-9]{22}$/,
  responseId: /^msg_bdrk_01[A-Za-z0-9]{22}$/,
});
