import OpenAI from 'openai';
import { openAIResponsesAdapter } from './index.ts';
import { describeConformance, type SdkAnswer, type SdkToolCall } from '../testing/conformance.ts';
import { openAIErrorReader, openAIStreamError, streamUntilError } from '../testing/kits.ts';

const client = (base: string | undefined) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });
const tools: OpenAI.Responses.FunctionTool[] = ['get_weather', 'get_time'].map((name) => ({ type: 'function', name, parameters: { type: 'object' }, strict: false }));

/** The tool loop's next turn as the SDK types it: the `function_call` item, then its `function_call_output` naming the `call_id`. */
const loop = (prompt: string, call: SdkToolCall, result: string): OpenAI.Responses.ResponseInput => [
  { role: 'user', content: prompt },
  { type: 'function_call', call_id: call.id ?? '', name: call.name, arguments: JSON.stringify(call.arguments) },
  { type: 'function_call_output', call_id: call.id ?? '', output: result },
];

function answer(response: OpenAI.Responses.Response): SdkAnswer {
  return {
    id: response.id,
    text: response.output_text,
    toolCalls: response.output.flatMap((o) => (o.type === 'function_call' ? [{ id: o.call_id, name: o.name, arguments: JSON.parse(o.arguments) }] : [])),
    // Responses has no finish reason: the status says it (a length stop is `incomplete`, checked with its reason elsewhere).
    finishReason: response.status ?? null,
    usage: response.usage ? { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens } : null,
  };
}

async function streamed(base: string | undefined, body: { model: string; input: string | OpenAI.Responses.ResponseInput; tools?: OpenAI.Responses.FunctionTool[] }): Promise<SdkAnswer> {
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
  // `call_id`s as Chat's tool call ids.
  toolCallId: /^call_[A-Za-z0-9]{24}$/,
  // `resp_` + 48 hex digits (the API reference's `resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b`).
  responseId: /^resp_[0-9a-f]{48}$/,
  // The `error` event's object, as the SDK's APIError exposes it (a stream error has no HTTP status).
  streamError: { typeFor503: 'server_error', given: { type: 'invalid_request_error', reported: 'invalid_request_error' }, status: false, message: true },
  sdk: {
    text: async (base, model, prompt) => answer(await client(base).responses.create({ model, input: prompt })),
    stream: async (base, model, prompt) => streamed(base, { model, input: prompt }),
    tools: async (base, model, prompt, stream) => (stream ? streamed(base, { model, input: prompt, tools }) : answer(await client(base).responses.create({ model, input: prompt, tools }))),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream ? streamed(base, { model, input: loop(prompt, call, result), tools }) : answer(await client(base).responses.create({ model, input: loop(prompt, call, result), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).responses.create({ model, input: prompt }).catch((e: unknown) => e);
      if (!(err instanceof OpenAI.APIError)) throw new Error('expected an OpenAI.APIError');
      return err.status ?? 0;
    },
    // The SDK's stream helper, its events read one by one as users do.
    streamError: async (base, model, prompt) =>
      streamUntilError(() => client(base).responses.stream({ model, input: prompt }), (event) => (event.type === 'response.output_text.delta' ? event.delta : ''), openAIStreamError),
  },
});
