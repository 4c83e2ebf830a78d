import OpenAI, { AzureOpenAI } from 'openai';
import { expect } from 'vitest';
import { azureOpenAIAdapter } from './index.ts';
import { describeConformance, type SdkAnswer } from '../testing/conformance.ts';

const API_VERSION = '2024-10-21';
// Over MSW the SDK calls the resource's own host; on the real port, the server's URL as the endpoint.
const client = (base: string | undefined) => new AzureOpenAI({ endpoint: base ?? 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: API_VERSION, maxRetries: 0 });
const tools: OpenAI.ChatCompletionTool[] = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
const messages = (prompt: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content: prompt }];

function answer(completion: OpenAI.ChatCompletion): SdkAnswer {
  const choice = completion.choices[0];
  return {
    text: choice.message.content ?? '',
    finishReason: choice.finish_reason,
    usage: completion.usage ? { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens } : null,
    toolCalls: (choice.message.tool_calls ?? []).map((c) => (c.type === 'function' ? { name: c.function.name, arguments: JSON.parse(c.function.arguments) } : { name: '', arguments: null })),
  };
}

async function streamed(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<SdkAnswer> {
  const out: SdkAnswer = { text: '', toolCalls: [], finishReason: null, usage: null };
  const calls: Array<{ name: string; args: string }> = [];
  for await (const chunk of stream) {
    if (chunk.usage) out.usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    const choice = chunk.choices[0];
    if (!choice) continue;
    out.text += choice.delta.content ?? '';
    for (const tc of choice.delta.tool_calls ?? []) {
      calls[tc.index] ??= { name: '', args: '' };
      calls[tc.index].name += tc.function?.name ?? '';
      calls[tc.index].args += tc.function?.arguments ?? '';
    }
    out.finishReason = choice.finish_reason ?? out.finishReason;
  }
  out.toolCalls = calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.args) }));
  return out;
}

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
  sdk: {
    text: async (base, model, prompt) => answer(await client(base).chat.completions.create({ model, messages: messages(prompt) })),
    stream: async (base, model, prompt) =>
      streamed(await client(base).chat.completions.create({ model, messages: messages(prompt), stream: true, stream_options: { include_usage: true } })),
    tools: async (base, model, prompt, stream) =>
      stream
        ? streamed(await client(base).chat.completions.create({ model, messages: messages(prompt), tools, stream: true }))
        : answer(await client(base).chat.completions.create({ model, messages: messages(prompt), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).chat.completions.create({ model, messages: messages(prompt) }).catch((e: unknown) => e);
      if (!(err instanceof OpenAI.APIError)) throw new Error('expected an OpenAI.APIError');
      return err.status ?? 0;
    },
  },
});
