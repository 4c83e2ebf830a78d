/**
 * Test-only: what the conformance kits share. The error-body readers, one per error shape (each asserts
 * the provider's shape and returns the message and near misses), and the SDK answer readers and calls of the SDKs
 * that several adapters' kits drive.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, type Content, type GenerateContentResponse, type GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { expect } from 'vitest';
import type { ConformanceSdk, SdkAnswer, SdkStreamError, SdkToolCall } from './conformance.ts';
import { WEATHER_SCHEMA_NAME, type StructuredConformanceKit } from './conformance-structured.ts';

/**
 * Opens a stream and reads it as users do, collecting its text, until it throws (an SDK that reads
 * ahead may throw from the call that opens it: the AWS SDK reads the first event there); the error
 * goes to `report`, which asserts the SDK's own class and reads its fields. A stream that ends
 * without throwing fails the test.
 * @example
 *   await streamUntilError(() => ai.models.generateContentStream(params), (chunk) => chunk.text ?? '', (err) => ({ message: (err as Error).message }))
 */
export async function streamUntilError<T>(
  open: () => AsyncIterable<T> | Promise<AsyncIterable<T>>,
  textOf: (chunk: T) => string,
  report: (err: unknown) => SdkStreamError,
): Promise<{ text: string; error: SdkStreamError }> {
  let text = '';
  try {
    for await (const chunk of await open()) text += textOf(chunk);
  } catch (err) {
    return { text, error: report(err) };
  }
  throw new Error(`the stream ended without an error (text: ${JSON.stringify(text)})`);
}

/** OpenAI's `{ error: { message, type, param, code } }` (every OpenAI wire API). */
export function openAIErrorReader(_status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
  expect(body.error).toHaveProperty('param');
  expect(body.error).toHaveProperty('code');
  return { message: body.error.message, nearMisses: body.error.details };
}

const ANTHROPIC_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 404: 'not_found_error' };

/** Anthropic's `{ type: 'error', error: { type, message }, request_id }`, with the type the status goes with. */
export function anthropicErrorReader(status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ type: 'error', error: { type: ANTHROPIC_TYPE[status] ?? expect.any(String), message: expect.any(String) }, request_id: expect.stringMatching(/^req_/) });
  return { message: body.error.message, nearMisses: body.error.details };
}

const GOOGLE_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' };

/** Google's `{ error: { code, message, status } }`, with the status name the code goes with. */
export function googleErrorReader(status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ error: { code: status, message: expect.any(String), status: GOOGLE_STATUS[status] ?? expect.stringMatching(/^[A-Z_]+$/) } });
  return { message: body.error.message, nearMisses: body.error.details };
}

/** Bedrock's `{ message }` (the exception named in `x-amzn-ErrorType`), with a near-miss `details` when ghostwire adds one. */
export function bedrockErrorReader(_status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toEqual({ message: expect.any(String), ...(body.details ? { details: body.details } : {}) });
  return { message: body.message, nearMisses: body.details };
}

/**
 * An Anthropic SDK message as the conformance suite reads answers (Anthropic and Claude on Vertex).
 * @example anthropicSdkAnswer(await client.messages.create(params)).toolCalls
 */
export function anthropicSdkAnswer(message: Anthropic.Message): SdkAnswer {
  return {
    id: message.id,
    text: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
    toolCalls: message.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: b.input }] : [])),
    finishReason: message.stop_reason,
    usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
  };
}

/** What the conformance kits need of an Anthropic-SDK client (Anthropic's own, and its Vertex and Bedrock clients). */
interface AnthropicMessagesClient {
  messages: Pick<Anthropic['messages'], 'create' | 'stream'>;
}

/**
 * The conformance suite's SDK calls through any client of the Anthropic SDK family: create, the stream
 * accumulator's `finalMessage()`, tools both ways, and the status of the SDK's APIError.
 * @example sdk: anthropicSdkKit((base) => new Anthropic({ apiKey: 'k', ...(base ? { baseURL: base } : {}) }))
 */
export function anthropicSdkKit(client: (base: string | undefined) => AnthropicMessagesClient): ConformanceSdk {
  const tools: Anthropic.Tool[] = ['get_weather', 'get_time'].map((name) => ({ name, input_schema: { type: 'object' } }));
  const params = (model: string, prompt: string) => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: prompt }] });
  const loop = (model: string, prompt: string, call: SdkToolCall, result: string): Anthropic.MessageCreateParamsNonStreaming => ({
    model,
    max_tokens: 64,
    tools,
    messages: [
      { role: 'user', content: prompt },
      { role: 'assistant', content: [{ type: 'tool_use', id: call.id ?? '', name: call.name, input: call.arguments }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id ?? '', content: result }] },
    ],
  });
  return {
    text: async (base, model, prompt) => anthropicSdkAnswer(await client(base).messages.create(params(model, prompt))),
    // The SDK's own stream accumulator assembles the message from the events.
    stream: async (base, model, prompt) => anthropicSdkAnswer(await client(base).messages.stream(params(model, prompt)).finalMessage()),
    tools: async (base, model, prompt, stream) =>
      stream
        ? anthropicSdkAnswer(await client(base).messages.stream({ ...params(model, prompt), tools }).finalMessage())
        : anthropicSdkAnswer(await client(base).messages.create({ ...params(model, prompt), tools })),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? anthropicSdkAnswer(await client(base).messages.stream(loop(model, prompt, call, result)).finalMessage())
        : anthropicSdkAnswer(await client(base).messages.create(loop(model, prompt, call, result))),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).messages.create(params(model, prompt)).catch((e: unknown) => e);
      if (!(err instanceof Anthropic.APIError)) throw new Error(`expected an Anthropic APIError, got ${String(err)}`);
      return err.status ?? 0;
    },
    // The raw event stream, as `for await (const event of await client.messages.create({ stream: true }))` reads it.
    streamError: async (base, model, prompt) =>
      streamUntilError(
        () => client(base).messages.create({ ...params(model, prompt), stream: true }),
        (event) => (event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : ''),
        (err) => {
          if (!(err instanceof Anthropic.APIError)) throw new Error(`expected an Anthropic APIError, got ${String(err)}`);
          return { message: err.apiMessage ?? undefined, type: err.type, status: err.status ?? null };
        },
      ),
  };
}

/**
 * `@google/genai` responses (one, or a stream's chunks) as the conformance suite reads answers (Gemini and Gemini on Vertex).
 * @example geminiSdkAnswer([await ai.models.generateContent(params)]).text
 */
export function geminiSdkAnswer(chunks: GenerateContentResponse[]): SdkAnswer {
  const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
  const last = chunks.at(-1);
  const meta = last?.usageMetadata;
  // Every chunk of one answer carries the same responseId: a differing one is not one answer.
  const ids = new Set(chunks.map((c) => c.responseId));
  expect(ids.size).toBe(1);
  return {
    id: last?.responseId,
    text: parts.map((p) => p.text ?? '').join(''),
    toolCalls: parts.flatMap((p) => (p.functionCall ? [{ id: p.functionCall.id, name: p.functionCall.name ?? '', arguments: p.functionCall.args }] : [])),
    finishReason: last?.candidates?.[0]?.finishReason ?? null,
    usage: meta ? { inputTokens: meta.promptTokenCount ?? 0, outputTokens: meta.candidatesTokenCount ?? 0 } : null,
  };
}

/** A `@google/genai` stream read to its end, as `geminiSdkAnswer` reads it. */
export async function collectGeminiStream(stream: AsyncIterable<GenerateContentResponse>): Promise<SdkAnswer> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return geminiSdkAnswer(chunks);
}

/**
 * The conformance suite's SDK calls through a `@google/genai` client (Gemini's API key or Vertex AI):
 * generateContent, generateContentStream collected, tools both ways, and the status of the SDK's ApiError.
 * @example sdk: geminiSdkKit((base) => new GoogleGenAI({ apiKey: 'k', httpOptions: base ? { baseUrl: base } : {} }))
 */
export function geminiSdkKit(client: (base: string | undefined) => GoogleGenAI): ConformanceSdk {
  const tools = [{ functionDeclarations: ['get_weather', 'get_time'].map((name) => ({ name })) }];
  const loop = (prompt: string, call: SdkToolCall, result: string): Content[] => [
    { role: 'user', parts: [{ text: prompt }] },
    { role: 'model', parts: [{ functionCall: { id: call.id, name: call.name, args: call.arguments as Record<string, unknown> } }] },
    { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: JSON.parse(result) as Record<string, unknown> } }] },
  ];
  return {
    text: async (base, model, prompt) => geminiSdkAnswer([await client(base).models.generateContent({ model, contents: prompt })]),
    stream: async (base, model, prompt) => collectGeminiStream(await client(base).models.generateContentStream({ model, contents: prompt })),
    tools: async (base, model, prompt, stream) =>
      stream
        ? collectGeminiStream(await client(base).models.generateContentStream({ model, contents: prompt, config: { tools } }))
        : geminiSdkAnswer([await client(base).models.generateContent({ model, contents: prompt, config: { tools } })]),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? collectGeminiStream(await client(base).models.generateContentStream({ model, contents: loop(prompt, call, result), config: { tools } }))
        : geminiSdkAnswer([await client(base).models.generateContent({ model, contents: loop(prompt, call, result), config: { tools } })]),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).models.generateContent({ model, contents: prompt }).catch((e: unknown) => e);
      if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
      return err.status;
    },
    // The SDK's ApiError names the status in its message (`got status: UNAVAILABLE. {…}`) and carries the code.
    streamError: async (base, model, prompt) =>
      streamUntilError(
        () => client(base).models.generateContentStream({ model, contents: prompt }),
        (chunk) => chunk.text ?? '',
        (err) => {
          if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
          const type = /^got status: (\S+)\. /.exec(err.message)?.[1] ?? null;
          return { message: err.message, type, status: err.status };
        },
      ),
  };
}

/** The tool loop's next turn as the SDK types it: the assistant's call, then a `tool` message naming its id. */
const openAIChatLoop = (prompt: string, call: SdkToolCall, result: string): OpenAI.ChatCompletionMessageParam[] => [
  { role: 'user', content: prompt },
  { role: 'assistant', content: null, tool_calls: [{ id: call.id ?? '', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] },
  { role: 'tool', tool_call_id: call.id ?? '', content: result },
];

async function openAIChatStreamed(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<SdkAnswer> {
  let text = '';
  let finishReason: string | null = null;
  let usage: SdkAnswer['usage'] = null;
  const calls: Array<{ id?: string; name: string; args: string }> = [];
  const ids = new Set<string>();
  for await (const chunk of stream) {
    // Azure's first chunk (prompt_filter_results, no choices) carries an empty id, as Azure's does.
    if (chunk.id !== '' || chunk.choices.length > 0) ids.add(chunk.id);
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
  // Every chunk of one completion carries its id.
  expect(ids.size).toBe(1);
  return { id: [...ids][0], text, finishReason, usage, toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.args) })) };
}

function openAIChatAnswer(completion: OpenAI.ChatCompletion): SdkAnswer {
  const choice = completion.choices[0];
  return {
    id: completion.id,
    text: choice.message.content ?? '',
    finishReason: choice.finish_reason,
    usage: completion.usage ? { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens } : null,
    toolCalls: (choice.message.tool_calls ?? []).map((c) => (c.type === 'function' ? { id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) } : { name: '', arguments: null })),
  };
}

/**
 * The conformance suite's SDK calls through an `openai` client's Chat Completions (OpenAI's own, and Azure's).
 * @example sdk: openAIChatSdkKit((base) => new OpenAI({ apiKey: 'sk-test', ...(base ? { baseURL: `${base}/v1` } : {}) }))
 */
export function openAIChatSdkKit(client: (base: string | undefined) => Pick<OpenAI, 'chat'>): ConformanceSdk {
  const tools: OpenAI.ChatCompletionTool[] = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
  return {
    text: async (base, model, prompt) => openAIChatAnswer(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] })),
    stream: async (base, model, prompt) =>
      openAIChatStreamed(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], stream: true, stream_options: { include_usage: true } })),
    tools: async (base, model, prompt, stream) =>
      stream
        ? openAIChatStreamed(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], tools, stream: true }))
        : openAIChatAnswer(await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], tools })),
    toolResult: async (base, model, prompt, call, result, stream) =>
      stream
        ? openAIChatStreamed(await client(base).chat.completions.create({ model, messages: openAIChatLoop(prompt, call, result), tools, stream: true }))
        : openAIChatAnswer(await client(base).chat.completions.create({ model, messages: openAIChatLoop(prompt, call, result), tools })),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] }).catch((e: unknown) => e);
      if (!(err instanceof OpenAI.APIError)) throw new Error('expected an OpenAI.APIError');
      return err.status ?? 0;
    },
    streamError: async (base, model, prompt) =>
      streamUntilError(
        () => client(base).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], stream: true }),
        (chunk) => chunk.choices[0]?.delta.content ?? '',
        (err) => openAIStreamError(err),
      ),
  };
}

/**
 * The fields of the openai SDK's APIError for an error that came in a stream (no HTTP status: the
 * stream itself was a 200), asserting the class.
 * @example
 *   openAIStreamError(err) // { message: 'overloaded', type: 'server_error', status: null }
 */
export function openAIStreamError(err: unknown): SdkStreamError {
  if (!(err instanceof OpenAI.APIError)) throw new Error(`expected an OpenAI.APIError, got ${String(err)}`);
  const body = err.error as { message?: string } | undefined;
  return { message: body?.message, type: err.type ?? null, status: err.status ?? null };
}

/**
 * A Chat Completions client's structured answer as users get it: `chat.completions.parse` with the weather
 * schema written in zod, or the stream helper's final completion (OpenAI and Azure alike).
 * @example
 *   describeStructuredConformance({ ..., structured: openAIChatStructured(client) });
 */
export function openAIChatStructured(client: (base: string | undefined) => Pick<OpenAI, 'chat'>): StructuredConformanceKit['structured'] {
  const format = zodResponseFormat(z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) }), WEATHER_SCHEMA_NAME);
  return async (base, prompt, stream) => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: prompt }], response_format: format };
    const completion = stream ? await client(base).chat.completions.stream(body).finalChatCompletion() : await client(base).chat.completions.parse(body);
    const message = completion.choices[0].message;
    return { value: message.parsed, refusal: message.refusal };
  };
}
