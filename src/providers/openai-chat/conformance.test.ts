import OpenAI from 'openai';
import { openAIChatAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { openAIChatSdkKit, openAIErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });

describeConformance({
  id: 'openai',
  adapter: openAIChatAdapter,
  origin: 'https://api.openai.com',
  request: (model, prompt) => ({ path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-test' }, body: { model, messages: [{ role: 'user', content: prompt }] } }),
  authHeaders: ['authorization'],
  authMessage: /You didn't provide an API key/,
  authStatus: 401,
  badBody: { model: 'm-1', messages: 'hi' },
  readError: openAIErrorReader,
  finish: { stop: 'stop', length: 'length', tool_calls: 'tool_calls' },
  streamParams: { stream_options: { include_usage: true } },
  noMatch404: true,
  // The error chunk's object, as the SDK's APIError exposes it (a stream error has no HTTP status).
  streamError: { typeFor503: 'server_error', given: { type: 'invalid_request_error', reported: 'invalid_request_error' }, status: false, message: true },
  toolCallId: /^call_[A-Za-z0-9]{24}$/,
  // `chatcmpl-` + 29 of [A-Za-z0-9] (recorded API streams: `chatcmpl-991aYb1iD8OSD54gcxZxv8uazlTZy`).
  responseId: /^chatcmpl-[A-Za-z0-9]{29}$/,
  sdk: openAIChatSdkKit(client),
});
