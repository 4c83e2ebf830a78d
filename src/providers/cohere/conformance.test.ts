import { CohereClientV2, CohereError, type Cohere } from 'cohere-ai';
import { expect } from 'vitest';
import { cohereAdapter } from './index.ts';
import { describeConformance, type SdkAnswer, type SdkToolCall } from '../testing/conformance.ts';

const client = (base: string | undefined) => new CohereClientV2({ token: 'co-test', maxRetries: 0, ...(base ? { baseUrl: base } : {}) });
const tools: Cohere.ToolV2[] = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
const messages = (prompt: string): Cohere.ChatMessages => [{ role: 'user', content: prompt }];
/** The tool loop's next turn as the SDK types it: the assistant's `toolCalls`, then a `tool` message naming its `toolCallId`. */
const loop = (prompt: string, call: SdkToolCall, result: string): Cohere.ChatMessages => [
  ...messages(prompt),
  { role: 'assistant', toolCalls: [{ id: call.id ?? '', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] },
  { role: 'tool', toolCallId: call.id ?? '', content: result },
];
const usage = (u: Cohere.Usage | undefined) => (u?.tokens ? { inputTokens: u.tokens.inputTokens ?? 0, outputTokens: u.tokens.outputTokens ?? 0 } : null);

function answer(res: Cohere.V2ChatResponse): SdkAnswer {
  const text = (res.message.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
  return {
    id: res.id,
    text,
    toolCalls: (res.message.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function?.name ?? '', arguments: JSON.parse(c.function?.arguments ?? '{}') })),
    finishReason: res.finishReason,
    usage: usage(res.usage),
  };
}

async function streamed(events: AsyncIterable<Cohere.V2ChatStreamResponse>): Promise<SdkAnswer> {
  const out: SdkAnswer = { text: '', toolCalls: [], finishReason: null, usage: null };
  const args: string[] = [];
  for await (const event of events) {
    if (event.type === 'message-start') out.id = event.id;
    if (event.type === 'content-delta') out.text += event.delta?.message?.content?.text ?? '';
    if (event.type === 'tool-call-start') {
      out.toolCalls.push({ id: event.delta?.message?.toolCalls?.id, name: event.delta?.message?.toolCalls?.function?.name ?? '', arguments: null });
      args.push(event.delta?.message?.toolCalls?.function?.arguments ?? '');
    }
    if (event.type === 'tool-call-delta') args[event.index ?? 0] += event.delta?.message?.toolCalls?.function?.arguments ?? '';
    if (event.type === 'message-end') {
      out.finishReason = event.delta?.finishReason ?? null;
      out.usage = usage(event.delta?.usage);
    }
  }
  out.toolCalls.forEach((c, i) => (c.arguments = JSON.parse(args[i])));
  return out;
}

describeConformance({
  id: 'cohere',
  adapter: cohereAdapter,
  origin: 'https://api.cohere.com',
  request: (model, prompt) => ({
    path: '/v2/chat',
    headers: { authorization: 'Bearer co-test', 'x-fern-sdk-name': 'cohere-ai' },
    body: { model, messages: messages(prompt) },
  }),
  authHeaders: ['authorization'],
  authStatus: 401,
  badBody: { model: 'm-1', messages: 'hi' },
  readError(_status, body) {
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: expect.any(String), ...(body.details ? { details: body.details } : {}) });
    return { message: body.message, nearMisses: body.details };
  },
  finish: { stop: 'COMPLETE', length: 'MAX_TOKENS', tool_calls: 'TOOL_CALL' },
  noMatch404: true,
  // The tool's name and 12 of [a-z0-9], as the SDK's wire tests: `query_daily_sales_report_hgxxmkby3wta`.
  toolCallId: /^get_weather_[a-z0-9]{12}$|^get_time_[a-z0-9]{12}$/,
  // A v4 UUID (the SDK's own wire tests: `29f14a5a-11de-4cae-9800-25e4747408ea`).
  responseId: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  // A `message-end` with finish reason ERROR and the message as `delta.error`: no type or status on that wire.
  streamError: { typeFor503: null, status: false, message: true },
  sdk: {
    text: async (base, model, prompt) => answer(await client(base).chat({ model, messages: messages(prompt) })),
    stream: async (base, model, prompt) => streamed(await client(base).chatStream({ model, messages: messages(prompt) })),
    tools: async (base, model, prompt, stream) =>
      stream ? streamed(await client(base).chatStream({ model, messages: messages(prompt), tools })) : answer(await client(base).chat({ model, messages: messages(prompt), tools })),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? streamed(await client(base).chatStream({ model, messages: loop(prompt, call, result), tools }))
        : answer(await client(base).chat({ model, messages: loop(prompt, call, result), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).chat({ model, messages: messages(prompt) }).catch((e: unknown) => e);
      if (!(err instanceof CohereError)) throw new Error(`expected a CohereError, got ${String(err)}`);
      return err.statusCode ?? 0;
    },
    // The SDK throws on none of a stream's events: the failure is the `message-end` that says ERROR.
    streamError: async (base, model, prompt) => {
      let text = '';
      for await (const event of await client(base).chatStream({ model, messages: messages(prompt) })) {
        if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
        if (event.type === 'message-end') {
          expect(event.delta?.finishReason).toBe('ERROR');
          return { text, error: { message: event.delta?.error, type: null, status: null } };
        }
      }
      throw new Error(`the stream ended without a message-end (text: ${JSON.stringify(text)})`);
    },
  },
});
