import Anthropic from '@anthropic-ai/sdk';
import { anthropicAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { anthropicErrorReader, anthropicSdkAnswer } from '../testing/kits.ts';

const client = (base: string | undefined) => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0, ...(base ? { baseURL: base } : {}) });
const tools: Anthropic.Tool[] = ['get_weather', 'get_time'].map((name) => ({ name, input_schema: { type: 'object' } }));


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
  sdk: {
    text: async (base, model, prompt) => anthropicSdkAnswer(await client(base).messages.create(params(model, prompt))),
    // The SDK's own stream accumulator assembles the message from the events.
    stream: async (base, model, prompt) => anthropicSdkAnswer(await client(base).messages.stream(params(model, prompt)).finalMessage()),
    tools: async (base, model, prompt, stream) =>
      stream
        ? anthropicSdkAnswer(await client(base).messages.stream({ ...params(model, prompt), tools }).finalMessage())
        : anthropicSdkAnswer(await client(base).messages.create({ ...params(model, prompt), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).messages.create(params(model, prompt)).catch((e: unknown) => e);
      if (!(err instanceof Anthropic.APIError)) throw new Error('expected an Anthropic.APIError');
      return err.status ?? 0;
    },
  },
});
