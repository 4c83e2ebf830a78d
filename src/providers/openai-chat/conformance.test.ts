import OpenAI from 'openai';
import { openAIChatAdapter } from './index.ts';
import { describeConformance, type SdkAnswer, type SdkToolCall } from '../testing/conformance.ts';
import { openAIErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });
const tools: OpenAI.ChatCompletionTool[] = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));

/** The tool loop's next turn as the SDK types it: the assistant's call, then a `tool` message naming its id. */
const loop = (prompt: string, call: SdkToolCall, result: string): OpenAI.ChatCompletionMessageParam[] => [
  { role: 'user', content: prompt },
  { role: 'assistant', content: null, tool_calls: [{ id: call.id ?? '', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] },
  { role: 'tool', tool_call_id: call.id ?? '', content: result },
];

async function streamed(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<SdkAnswer> {
  let text = '';
  let finishReason: string | null = null;
  let usage: SdkAnswer['usage'] = null;
  const calls: Array<{ id?: string; name: string; args: string }> = [];
  for await (const chunk of stream) {
    if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    const choice = chunk.choices[0];
    if (!choice) continue;
    text += choice.delta.content ?? '';
    for (const tc of choice.delta.tool_calls ?? []) {
      calls[tc.index] ??= { name: '', args: '' };
      calls[tc.index].id ??= tc.id;
      calls[tc.index].name += tc.function?.name ?? '';
      calls[tc.index].args += tc.function?.arguments ?? '';
    }
    finishReason = choice.finish_reason ?? finishReason;
  }
  return { text, finishReason, usage, toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.args) })) };
}

function answer(completion: OpenAI.ChatCompletion): SdkAnswer {
  const choice = completion.choices[0];
  return {
    text: choice.message.content ?? '',
    finishReason: choice.finish_reason,
    usage: completion.usage ? { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens } : null,
    toolCalls: (choice.message.tool_calls ?? []).map((c) => (c.type === 'function' ? { id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) } : { name: '', arguments: null })),
  };
}

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
  toolCallId: /^call_[A-Za-z0-9]{24}$/,
  sdk: {
    text: async (base, model, prompt) => answer(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] })),
    stream: async (base, model, prompt) =>
      streamed(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], stream: true, stream_options: { include_usage: true } })),
    tools: async (base, model, prompt, stream) =>
      stream
        ? streamed(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], tools, stream: true }))
        : answer(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], tools })),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? streamed(await client(base).chat.completions.create({ model, messages: loop(prompt, call, result), tools, stream: true }))
        : answer(await client(base).chat.completions.create({ model, messages: loop(prompt, call, result), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] }).catch((e: unknown) => e);
      if (!(err instanceof OpenAI.APIError)) throw new Error('expected an OpenAI.APIError');
      return err.status ?? 0;
    },
  },
});
