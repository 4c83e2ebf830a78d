import Anthropic from '@anthropic-ai/sdk';
import { anthropicAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { anthropicErrorReader, anthropicSdkKit } from '../testing/kits.ts';

const client = (base: string | undefined) => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0, ...(base ? { baseURL: base } : {}) });

const params = (model: string, prompt: string) => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: prompt }] });

describeConformance({
  id: 'anthropic',
  adapter: anthropicAdapter,
  origin: 'https://api.anthropic.com',
  request: (model, prompt) => ({ path: '/v1/messages', headers: { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' }, body: params(model, prompt) }),
  authHeaders: ['x-api-key'],
  authMessage: /x-api-key header is required/,
  authStatus: 401,
  badBody: { model: 'm-1', max_tokens: 64, messages: 'hi' },
  readError: anthropicErrorReader,
  finish: { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' },
  noMatch404: true,
  // The `error` event's `error.type` and message (`apiMessage`); a stream error has no HTTP status.
  streamError: { typeFor503: 'api_error', given: { type: 'overloaded_error', reported: 'overloaded_error' }, status: false, message: true },
  sdk: anthropicSdkKit(client),
  // The SDK's own examples: `toolu_01D7FLrfh4GYq7yT1ULFeyMV`.
  toolCallId: /^toolu_01[A-Za-z0-9]{22}$/,
  // `msg_01` + 22 of [A-Za-z0-9] (the API reference's `msg_013Zva2CMHLNnXjNJJKqJ2EF`).
  responseId: /^msg_01[A-Za-z0-9]{22}$/,
});
