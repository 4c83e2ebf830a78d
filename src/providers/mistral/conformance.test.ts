import { Mistral } from '@mistralai/mistralai';
import { MistralError } from '@mistralai/mistralai/models/errors';
import type { ChatCompletionRequest, ChatCompletionResponse, CompletionEvent } from '@mistralai/mistralai/models/components';
import { expect } from 'vitest';
import { mistralAdapter } from './index.ts';
import { describeConformance, type SdkAnswer, type SdkToolCall } from '../testing/conformance.ts';

const client = (base: string | undefined) => new Mistral({ apiKey: 'mistral-test', retryConfig: { strategy: 'none' }, ...(base ? { serverURL: base } : {}) });
const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }));
const args = (a: unknown) => (typeof a === 'string' ? JSON.parse(a) : a);

function answer(res: ChatCompletionResponse): SdkAnswer {
  const choice = res.choices[0];
  const content = choice.message?.content;
  return {
    id: res.id,
    text: typeof content === 'string' ? content : '',
    toolCalls: (choice.message?.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: args(c.function.arguments) })),
    finishReason: choice.finishReason,
    usage: { inputTokens: res.usage.promptTokens ?? 0, outputTokens: res.usage.completionTokens ?? 0 },
  };
}

async function streamed(events: AsyncIterable<CompletionEvent>): Promise<SdkAnswer> {
  const out: SdkAnswer = { text: '', toolCalls: [], finishReason: null, usage: null };
  for await (const { data } of events) {
    // Every chunk of one completion carries its id.
    if (out.id !== undefined) expect(data.id).toBe(out.id);
    out.id = data.id;
    if (data.usage) out.usage = { inputTokens: data.usage.promptTokens ?? 0, outputTokens: data.usage.completionTokens ?? 0 };
    const choice = data.choices[0];
    if (!choice) continue;
    if (typeof choice.delta.content === 'string') out.text += choice.delta.content;
    for (const c of choice.delta.toolCalls ?? []) out.toolCalls.push({ id: c.id, name: c.function.name, arguments: args(c.function.arguments) });
    out.finishReason = choice.finishReason ?? out.finishReason;
  }
  return out;
}

const messages = (prompt: string) => [{ role: 'user' as const, content: prompt }];
/** The tool loop's next turn as the SDK types it: the assistant's `toolCalls`, then a `tool` message naming its `toolCallId`. */
const loop = (prompt: string, call: SdkToolCall, result: string): ChatCompletionRequest['messages'] => [
  ...messages(prompt),
  { role: 'assistant', content: '', toolCalls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] },
  { role: 'tool', toolCallId: call.id, name: call.name, content: result },
];

describeConformance({
  id: 'mistral',
  adapter: mistralAdapter,
  origin: 'https://api.mistral.ai',
  // What the SDK sends: its user-agent is how the shared real port tells Mistral from OpenAI.
  request: (model, prompt) => ({
    path: '/v1/chat/completions',
    headers: { authorization: 'Bearer mistral-test', 'user-agent': 'mistral-client-typescript/2.7.0' },
    body: { model, messages: messages(prompt) },
  }),
  authHeaders: ['authorization'],
  authMessage: /^Unauthorized$/,
  authStatus: 401,
  badBody: { model: 'm-1', messages: 'hi' },
  badStatus: 422,
  readError(status, body) {
    if (status === 401) {
      expect(body).toEqual({ message: 'Unauthorized', request_id: expect.any(String) });
      return { message: body.message };
    }
    expect(body).toMatchObject({ object: 'error', type: expect.any(String), param: null });
    expect(body).toHaveProperty('code');
    if (status === 422) {
      expect(body.message.detail[0]).toMatchObject({ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: expect.any(String) });
      return { message: body.message.detail[0].msg };
    }
    return { message: body.message, nearMisses: body.details };
  },
  finish: { stop: 'stop', length: 'length', tool_calls: 'tool_calls' },
  noMatch404: true,
  // 9 of [A-Za-z0-9]: the API refuses any other id in a request, so a scenario's own is sent in this shape too.
  toolCallId: /^[A-Za-z0-9]{9}$/,
  // 32 hex digits, no prefix (the SDK's own fixtures: `df9c5af85d0a4474b2e8392ee52dd883`).
  responseId: /^[0-9a-f]{32}$/,
  keepsGivenToolCallIds: false,
  // A last chunk with finish_reason "error": the SDK yields it, and the chunk has no place for a message, type or status.
  streamError: { typeFor503: null, status: false, message: false, finishReason: 'error' },
  sdk: {
    text: async (base, model, prompt) => answer(await client(base).chat.complete({ model, messages: messages(prompt) })),
    stream: async (base, model, prompt) => streamed(await client(base).chat.stream({ model, messages: messages(prompt) })),
    tools: async (base, model, prompt, stream) =>
      stream ? streamed(await client(base).chat.stream({ model, messages: messages(prompt), tools })) : answer(await client(base).chat.complete({ model, messages: messages(prompt), tools })),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? streamed(await client(base).chat.stream({ model, messages: loop(prompt, call, result), tools }))
        : answer(await client(base).chat.complete({ model, messages: loop(prompt, call, result), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).chat.complete({ model, messages: messages(prompt) }).catch((e: unknown) => e);
      if (!(err instanceof MistralError)) throw new Error(`expected a MistralError, got ${String(err)}`);
      return err.statusCode;
    },
    // The SDK throws on no chunk: the failure is the chunk whose finish reason is `error`.
    streamError: async (base, model, prompt) => {
      let text = '';
      for await (const { data } of await client(base).chat.stream({ model, messages: messages(prompt) })) {
        const choice = data.choices[0];
        const content = choice?.delta.content;
        text += typeof content === 'string' ? content : '';
        if (choice?.finishReason === 'error') return { text, error: { type: null, status: null } };
        if (choice?.finishReason) throw new Error(`the stream finished with ${choice.finishReason}, not error`);
      }
      throw new Error(`the stream ended without a finish reason (text: ${JSON.stringify(text)})`);
    },
  },
});
