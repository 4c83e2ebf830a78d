import OpenAI from 'openai';
import { openAIResponsesAdapter } from './index.ts';
import { describeConformance, type SdkAnswer } from '../testing/conformance.ts';
import { openAIErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });
const tools: OpenAI.Responses.FunctionTool[] = ['get_weather', 'get_time'].map((name) => ({ type: 'function', name, parameters: { type: 'object' }, strict: false }));

function answer(response: OpenAI.Responses.Response): SdkAnswer {
  return {
    text: response.output_text,
    toolCalls: response.output.flatMap((o) => (o.type === 'function_call' ? [{ name: o.name, arguments: JSON.parse(o.arguments) }] : [])),
    // Responses has no finish reason: the status says it (a length stop is `incomplete`, checked with its reason elsewhere).
    finishReason: response.status ?? null,
    usage: response.usage ? { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens } : null,
  };
}

async function streamed(base: string | undefined, body: { model: string; input: string; tools?: OpenAI.Responses.FunctionTool[] }): Promise<SdkAnswer> {
  // The SDK's own stream helper assembles the final response from the events.
  return answer(await client(base).responses.stream(body).finalResponse());
}

describeConformance({
  id: 'openai-responses',
  adapter: () => openAIResponsesAdapter(),
  origin: 'https://api.openai.com',
  request: (model, prompt) => ({ path: '/v1/responses', headers: { authorization: 'Bearer sk-test' }, body: { model, input: prompt } }),
  authHeaders: ['authorization'],
  authMessage: /You didn't provide an API key/,
  authStatus: 401,
  badBody: { model: 'm-1', input: 42 },
  readError: openAIErrorReader,
  finish: { stop: 'completed', tool_calls: 'completed', length: 'incomplete' },
  noMatch404: true,
  sdk: {
    text: async (base, model, prompt) => answer(await client(base).responses.create({ model, input: prompt })),
    stream: async (base, model, prompt) => streamed(base, { model, input: prompt }),
    tools: async (base, model, prompt, stream) => (stream ? streamed(base, { model, input: prompt, tools }) : answer(await client(base).responses.create({ model, input: prompt, tools }))),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).responses.create({ model, input: prompt }).catch((e: unknown) => e);
      if (!(err instanceof OpenAI.APIError)) throw new Error('expected an OpenAI.APIError');
      return err.status ?? 0;
    },
  },
});
