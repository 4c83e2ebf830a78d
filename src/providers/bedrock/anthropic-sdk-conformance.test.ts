/**
 * The shared conformance cases for Claude on Bedrock as `@anthropic-ai/bedrock-sdk` calls it:
 * InvokeModel and InvokeModelWithResponseStream with Anthropic bodies, SigV4-signed.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { bedrockAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { anthropicSdkKit, bedrockErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) =>
  new AnthropicBedrock({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDTEST', awsSecretKey: 'test-secret', maxRetries: 0, ...(base ? { baseURL: base } : {}) });

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
  // InvokeModelWithResponseStream's exception message, which the SDK turns into an `error` event typed by
  // the exception's member name (`serviceUnavailableException`) before its Stream throws it as an APIError.
  streamError: { typeFor503: 'serviceUnavailableException', given: { type: 'ThrottlingException', reported: 'throttlingException' }, status: false, message: true },
  sdk: anthropicSdkKit(client),
  // Claude on Bedrock: `toolu_bdrk_01NR9pamiL6h5WqSnVZF1unz`.
  toolCallId: /^toolu_bdrk_01[A-Za-z0-9]{22}$/,
  responseId: /^msg_bdrk_01[A-Za-z0-9]{22}$/,
});
