import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';
import { validateOpenAI } from '../testing/openapi.ts';

function setup(scenarios: ScenarioInput[], maxRetries = 0) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries });
  return { mock, client, exchanges };
}

const weatherTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/** Every chunk of every SSE body validates against the spec; returns the parsed chunks. */
async function streamedChunks(exchange: { body: Promise<string> }): Promise<any[]> {
  const data = sseData(await exchange.body);
  expect(data.at(-1)).toBe('[DONE]');
  const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
  for (const chunk of chunks) expect(validateOpenAI('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
  return chunks;
}

describe('OpenAI Chat Completions: text', () => {
  it('answers a non-streaming request with a complete chat.completion', async () => {
    const { client, exchanges } = setup([{ name: 'hi', steps: [{ respond: { text: 'Hello from {{model}}', usage: { inputTokens: 5, outputTokens: 3 } } }] }]);
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('gpt-4o');
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: 'Hello from gpt-4o', refusal: null });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
    expect(validateOpenAI('CreateChatCompletionResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('streams text: role first, chunkSize pieces, finish_reason, [DONE]', async () => {
    const text = 'The quick brown fox jumps';
    const { client, exchanges } = setup([{ name: 's', steps: [{ respond: { text, stream: { chunkSize: 5 } } }] }]);
    const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'go' }] });
    let joined = '';
    for await (const chunk of stream) joined += chunk.choices[0]?.delta.content ?? '';
    expect(joined).toBe(text);
    const chunks = await streamedChunks(exchanges[0]);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const pieces = chunks.slice(1, -1).map((c) => c.choices[0].delta.content);
    expect(pieces).toEqual(['The q', 'uick ', 'brown', ' fox ', 'jumps']);
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
  });

  it('adds the usage chunk (empty choices) with stream_options.include_usage, and usage: null before it', async () => {
    const { client, exchanges } = setup([{ name: 'u', steps: [{ respond: { text: 'abc', usage: { inputTokens: 7, outputTokens: 1 } } }] }]);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }],
    });
    const seen: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) seen.push(chunk);
    const last = seen.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 });
    expect(seen.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    await streamedChunks(exchanges[0]);
  });

  it('uses explicit chunks instead of auto-chunking, and finalChatCompletion() assembles them', async () => {
    const { client, exchanges } = setup([{ name: 'c', steps: [{ respond: { text: 'ignored?', stream: { chunks: ['Hel', 'lo ', 'world'] } } }] }]);
    const runner = client.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0].message.content).toBe('Hello world');
    expect(final.choices[0].finish_reason).toBe('stop');
    const chunks = await streamedChunks(exchanges[0]);
    expect(chunks.map((c) => c.choices[0].delta.content).slice(1, -1)).toEqual(['Hel', 'lo ', 'world']);
  });

  it('omits obfuscation when stream_options.include_obfuscation is false, and sends it otherwise', async () => {
    const { client, exchanges } = setup([{ name: 'o', steps: [{ respond: { text: 'a' }, times: 2 }] }]);
    for await (const _ of await client.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }));
    for await (const _ of await client.chat.completions.create({
      model: 'm', stream: true, stream_options: { include_obfuscation: false }, messages: [{ role: 'user', content: 'x' }],
    }));
    expect((await streamedChunks(exchanges[0])).every((c) => typeof c.obfuscation === 'string')).toBe(true);
    expect((await streamedChunks(exchanges[1])).some((c) => 'obfuscation' in c)).toBe(false);
  });

  it('answers a repeated step with identical chunks but each response with its own id', async () => {
    const { client, exchanges } = setup([{ name: 'r', steps: [{ respond: { text: 'same words every time', stream: { chunkSize: 5 } }, times: 3 }] }]);
    for (let i = 0; i < 3; i++) {
      let text = '';
      for await (const c of await client.chat.completions.create({ model: i === 2 ? 'other-model' : 'm', stream: true, messages: [{ role: 'user', content: 'x' }] })) text += c.choices[0]?.delta.content ?? '';
      expect(text).toBe('same words every time');
    }
    const runs = await Promise.all(exchanges.map(streamedChunks));
    const ids = runs.map((chunks) => new Set(chunks.map((c) => c.id)));
    expect(ids.every((s) => s.size === 1)).toBe(true);
    expect(new Set(ids.map((s) => [...s][0])).size).toBe(3);
    expect(runs[2].every((c) => c.model === 'other-model')).toBe(true);
    expect(runs[0].map((c) => c.choices)).toEqual(runs[1].map((c) => c.choices));
  });

  it('renders n choices', async () => {
    const { client } = setup([{ name: 'n', steps: [{ respond: { text: 'same' } }] }]);
    const c = await client.chat.completions.create({ model: 'm', n: 3, messages: [{ role: 'user', content: 'x' }] });
    expect(c.choices.map((x) => [x.index, x.message.content])).toEqual([[0, 'same'], [1, 'same'], [2, 'same']]);
  });
});

describe('OpenAI Chat Completions: tool calls', () => {
  const parallel: ScenarioInput = {
    name: 'tools',
    steps: [{
      respond: {
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_b', name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
        ],
        stream: { chunkSize: 6 },
      },
    }],
  };

  it('returns a single tool call with content null and finish_reason tool_calls', async () => {
    const { client, exchanges } = setup([{ name: 't', steps: [{ respond: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] } }] }]);
    const c = await client.chat.completions.create({ model: 'gpt-4o', tools: [weatherTool], messages: [{ role: 'user', content: 'weather?' }] });
    const msg = c.choices[0].message;
    expect(msg.content).toBeNull();
    expect(msg.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    expect(c.choices[0].finish_reason).toBe('tool_calls');
    expect(validateOpenAI('CreateChatCompletionResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('returns parallel tool calls non-streaming', async () => {
    const { client } = setup([parallel]);
    const c = await client.chat.completions.create({ model: 'gpt-4o', tools: [weatherTool], messages: [{ role: 'user', content: 'both' }] });
    const calls = c.choices[0].message.tool_calls!.map((t) => (t.type === 'function' ? [t.id, JSON.parse(t.function.arguments)] : null));
    expect(calls).toEqual([['call_a', { city: 'Paris' }], ['call_b', { city: 'Tokyo', unit: 'celsius' }]]);
  });

  it('streams parallel tool calls: head with id/type/name then argument pieces, each with its index', async () => {
    const { client, exchanges } = setup([parallel]);
    const runner = client.chat.completions.stream({ model: 'gpt-4o', tools: [weatherTool], messages: [{ role: 'user', content: 'both' }] });
    const argDeltas: string[] = [];
    runner.on('tool_calls.function.arguments.delta', (e) => argDeltas.push(`${e.index}:${e.arguments_delta}`));
    const final = await runner.finalChatCompletion();
    const calls = (final.choices[0].message.tool_calls ?? []).map((t: any) => [t.id, t.function.name, JSON.parse(t.function.arguments)]);
    expect(calls).toEqual([['call_a', 'get_weather', { city: 'Paris' }], ['call_b', 'get_weather', { city: 'Tokyo', unit: 'celsius' }]]);
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(argDeltas.length).toBeGreaterThan(4);

    const chunks = await streamedChunks(exchanges[0]);
    expect(chunks[0].choices[0].delta).toEqual({
      role: 'assistant', content: null, refusal: null,
      tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }],
    });
    const second = chunks.findIndex((c) => c.choices[0]?.delta.tool_calls?.[0]?.id === 'call_b');
    expect(chunks[second].choices[0].delta.tool_calls[0]).toEqual({ index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '' } });
    const argPieces = chunks.slice(1, second).map((c) => c.choices[0].delta.tool_calls[0]);
    expect(argPieces.every((p) => p.index === 0 && !('id' in p) && p.function.arguments.length <= 6)).toBe(true);
    expect(argPieces.map((p) => p.function.arguments).join('')).toBe('{"city":"Paris"}');
  });

  it('streams text followed by a tool call in one answer', async () => {
    const { client } = setup([{ name: 'tt', steps: [{ respond: { text: 'Let me check.', toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: {} }] } }] }]);
    const final = await client.chat.completions.stream({ model: 'm', tools: [weatherTool], messages: [{ role: 'user', content: 'x' }] }).finalChatCompletion();
    expect(final.choices[0].message.content).toBe('Let me check.');
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({ id: 'call_x', function: { name: 'get_weather', arguments: '{}' } });
  });

  it('progresses through a multi-turn tool loop, matching on the whole request', async () => {
    const { client, mock } = setup([{
      name: 'loop',
      steps: [
        { match: { lastMessage: { role: 'user', content: { contains: 'weather' } }, tools: ['get_weather'] }, respond: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
        { match: { toolResults: ['get_weather'] }, respond: { toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: { city: 'Lyon' } }], expectToolResults: true } },
        { match: { toolResults: ['get_weather'], messages: [{ role: 'tool', content: { contains: 'Lyon' } }] }, respond: { text: 'Paris sunny, Lyon rainy' } },
      ],
    }]);
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'system', content: 'use tools' }, { role: 'user', content: 'weather in Paris and Lyon?' }];
    for (let turn = 0; turn < 5; turn++) {
      const c = await client.chat.completions.create({ model: 'gpt-4o', tools: [weatherTool], messages });
      const msg = c.choices[0].message;
      messages.push(msg);
      if (!msg.tool_calls) break;
      for (const call of msg.tool_calls) {
        if (call.type !== 'function') continue;
        const { city } = JSON.parse(call.function.arguments);
        messages.push({ role: 'tool', tool_call_id: call.id, content: `${city}: ${city === 'Paris' ? 'sunny' : 'rainy'}` });
      }
    }
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Paris sunny, Lyon rainy' });
    expect(mock.requests.map((r) => r.step?.index)).toEqual([0, 1, 2]);
    expect(mock.unconsumed()).toEqual([]);
  });

  it('rejects a request that lacks the results expectToolResults asked for', async () => {
    const { client } = setup([{
      name: 'strict',
      steps: [
        { respond: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: {} }], expectToolResults: true } },
        { respond: { text: 'done' } },
      ],
    }]);
    await client.chat.completions.create({ model: 'm', tools: [weatherTool], messages: [{ role: 'user', content: 'x' }] });
    const err = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'forgot the tool' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toMatch(/expectToolResults.*call_1/);
  });
});

describe('OpenAI Chat Completions: the same tools every turn', () => {
  it('answers an agent loop sending its tools each turn; the journal keeps one copy of them, and a changed list is read as sent', async () => {
    const calls = { respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } };
    const { client, mock } = setup([{ name: 'loop', steps: [calls, calls, { respond: { text: 'Sunny' } }, { respond: { text: 'Done' } }] }]);
    const tools = [weatherTool, { type: 'function' as const, function: { name: 'get_time', description: 'The time in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    for (let turn = 0; turn < 3; turn++) {
      const completion = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
      const message = completion.choices[0].message;
      messages.push(message);
      for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}' });
    }
    const changed = [{ ...weatherTool, function: { ...weatherTool.function, description: 'Now described' } }];
    await client.chat.completions.create({ model: 'gpt-4o', messages, tools: changed });
    const entries = mock.requests;
    expect(entries.map((e) => e.status)).toEqual([200, 200, 200, 200]);
    expect(entries.map((e) => e.request!.tools.map((t) => t.name))).toEqual([['get_weather', 'get_time'], ['get_weather', 'get_time'], ['get_weather', 'get_time'], ['get_weather']]);
    // Turns two and three carried the first turn's text: one parsed list, one canonical list, for all three.
    expect(entries[1].request!.tools).toBe(entries[2].request!.tools);
    expect((entries[1].request!.raw as { tools: unknown }).tools).toBe((entries[2].request!.raw as { tools: unknown }).tools);
    expect(entries[3].request!.tools[0].description).toBe('Now described');
    expect((entries[2].request!.raw as { tools: unknown }).tools).toEqual(tools);
  });
});

describe('OpenAI Chat Completions: what the journal keeps', () => {
  it('keeps a plain user turn once (the parsed body and the canonical messages share it); any other turn is read into its own canonical form', async () => {
    const { client, mock } = setup([{ name: 'chat', steps: [{ respond: { text: 'ok' }, consume: false }] }]);
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi', name: 'ada' }, { role: 'developer', content: 'Be brief' }] });
    const [plain, other] = mock.requests.map((e) => e.request!);
    const raw = (r: typeof plain) => (r.raw as { messages: unknown[] }).messages;
    expect(plain.messages).toEqual([{ role: 'user', content: 'Hello' }]);
    expect(plain.messages).toBe(raw(plain));
    // A name is not canonical, and a developer turn reads as system: each its own object, the body as sent.
    expect(other.messages).toEqual([{ role: 'user', content: 'Hi' }, { role: 'system', content: 'Be brief' }]);
    expect(other.messages).not.toBe(raw(other));
    expect(raw(other)).toEqual([{ role: 'user', content: 'Hi', name: 'ada' }, { role: 'developer', content: 'Be brief' }]);
  });
});
