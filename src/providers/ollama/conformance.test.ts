import { Ollama, type ChatResponse, type Message } from 'ollama';
import { expect } from 'vitest';
import { ollamaAdapter } from './index.ts';
import { describeConformance, type SdkAnswer, type SdkToolCall } from '../testing/conformance.ts';
import { streamUntilError } from '../testing/kits.ts';

const client = (base: string | undefined) => new Ollama({ host: base ?? 'http://127.0.0.1:11434' });
const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } }));
const messages = (prompt: string): Message[] => [{ role: 'user', content: prompt }];
/** The tool loop's next turn as the SDK types it: Ollama's calls carry no id, its results the tool's name. */
const loop = (prompt: string, call: SdkToolCall, result: string): Message[] => [
  ...messages(prompt),
  { role: 'assistant', content: '', tool_calls: [{ function: { name: call.name, arguments: call.arguments as Record<string, unknown> } }] },
  { role: 'tool', content: result, tool_name: call.name },
];

function merge(parts: ChatResponse[]): SdkAnswer {
  const last = parts.at(-1);
  return {
    text: parts.map((p) => p.message.content).join(''),
    toolCalls: parts.flatMap((p) => (p.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments }))),
    finishReason: last?.done_reason ?? null,
    usage: last ? { inputTokens: last.prompt_eval_count, outputTokens: last.eval_count } : null,
  };
}

async function streamed(iterable: AsyncIterable<ChatResponse>): Promise<SdkAnswer> {
  const parts: ChatResponse[] = [];
  for await (const part of iterable) parts.push(part);
  return merge(parts);
}

describeConformance({
  id: 'ollama',
  adapter: ollamaAdapter,
  origin: 'http://127.0.0.1:11434',
  // What the SDK sends: its user-agent names the API on a shared host.
  request: (model, prompt) => ({ path: '/api/chat', headers: { 'user-agent': 'ollama-js/0.6.4 (x64 linux Node.js/v24)' }, body: { model, messages: messages(prompt), stream: false } }),
  authHeaders: [],
  // A local Ollama takes no credentials.
  authStatus: null,
  badBody: { model: 'm-1', messages: 'hi' },
  readError(_status, body) {
    expect(body).toMatchObject({ error: expect.any(String) });
    return { message: body.error, nearMisses: body.details };
  },
  finish: { stop: 'stop', length: 'length', tool_calls: 'stop' },
  noMatch404: true,
  // Ollama's tool calls carry no id (the SDK's `ToolCall` is only `function`): results find their call by name.
  toolCallId: null,
  // ChatResponse has no id field.
  responseId: null,
  // A `{"error": …}` line, thrown by the client as a plain Error with that message: no type or status.
  streamError: { typeFor503: null, status: false, message: true },
  sdk: {
    text: async (base, model, prompt) => merge([await client(base).chat({ model, messages: messages(prompt) })]),
    stream: async (base, model, prompt) => streamed(await client(base).chat({ model, messages: messages(prompt), stream: true })),
    tools: async (base, model, prompt, stream) =>
      stream ? streamed(await client(base).chat({ model, messages: messages(prompt), tools, stream: true })) : merge([await client(base).chat({ model, messages: messages(prompt), tools })]),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? streamed(await client(base).chat({ model, messages: loop(prompt, call, result), tools, stream: true }))
        : merge([await client(base).chat({ model, messages: loop(prompt, call, result), tools })]),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).chat({ model, messages: messages(prompt) }).catch((e: unknown) => e);
      const status = (err as { status_code?: number }).status_code;
      if (typeof status !== 'number') throw new Error(`expected a ResponseError, got ${String(err)}`);
      return status;
    },
    streamError: async (base, model, prompt) =>
      streamUntilError(
        () => client(base).chat({ model, messages: messages(prompt), stream: true }),
        (part) => part.message.content,
        (err) => {
          // The client's own throw for an error line: a plain Error (its ResponseError is for HTTP statuses).
          if (!(err instanceof Error) || Object.getPrototypeOf(err) !== Error.prototype) throw new Error(`expected a plain Error, got ${String(err)}`);
          return { message: err.message, type: null, status: null };
        },
      ),
  },
});
