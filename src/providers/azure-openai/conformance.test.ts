import type OpenAI from 'openai';
import { AzureOpenAI } from 'openai';
import { expect } from 'vitest';
import { azureOpenAIAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { openAIChatSdkKit } from '../testing/kits.ts';

const API_VERSION = '2024-10-21';
// Over MSW the SDK calls the resource's own host; on the real port, the server's URL as the endpoint.
const client = (base: string | undefined) => new AzureOpenAI({ endpoint: base ?? 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: API_VERSION, maxRetries: 0 });
const messages = (prompt: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content: prompt }];

describeConformance({
  id: 'azure-openai',
  adapter: azureOpenAIAdapter,
  origin: 'https://contoso.openai.azure.com',
  request: (model, prompt) => ({
    path: `/openai/deployments/${model}/chat/completions?api-version=${API_VERSION}`,
    headers: { 'api-key': 'azure-key' },
    body: { model, messages: messages(prompt) },
  }),
  authHeaders: ['api-key'],
  authStatus: 401,
  badBody: { model: 'm-1', messages: 'hi' },
  readError(status, body) {
    if (status === 400) {
      // The model's own 400: OpenAI's shape, with the status repeated.
      expect(body.error).toMatchObject({ message: expect.any(String), type: 'invalid_request_error', status: 400 });
      expect(body.error).toHaveProperty('param');
      return { message: body.error.message };
    }
    // Azure's front end: `{ error: { code, message } }`, the code a string.
    expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(body.error).not.toHaveProperty('type');
    return { message: body.error.message, nearMisses: body.error.details };
  },
  finish: { stop: 'stop', length: 'length', tool_calls: 'tool_calls' },
  streamParams: { stream_options: { include_usage: true } },
  noMatch404: true,
  // Azure streams OpenAI's error chunk; the SDK's APIError exposes its object.
  streamError: { typeFor503: 'server_error', given: { type: 'invalid_request_error', reported: 'invalid_request_error' }, status: false, message: true },
  toolCallId: /^call_[A-Za-z0-9]{24}$/,
  responseId: /^chatcmpl-[A-Za-z0-9]{29}$/,
  sdk: openAIChatSdkKit(client),
});
