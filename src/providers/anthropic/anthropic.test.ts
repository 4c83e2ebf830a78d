import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';

function setup(scenarios: ScenarioInput[], maxRetries = 0) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new Anthropic({ apiKey: 'sk-ant-test', fetch, maxRetries });
  return { mock, client, exchanges };
}

const weatherTool: Anthropic.Messages.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The SSE events of a body: [event name, parsed data]. */
function sseEvents(body: string): [string, any][] {
  return body
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? '';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return [event, JSON.parse(data)];
    });
}

describe('Anthropic Messages: non-streaming', () => {
  it('answers messages.create with a message object, usage and request-id', async () => {
    const { client, exchanges } = setup([
      { name: 'hi', steps: [{ respond: { text: 'Hello from {{model}}', usage: { inputTokens: 9, outputTokens: 4 } } }] },
    ]);
    const { data: message, response } = await client.messages
      .create({ model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [{ type: 'text', text: 'Hello from claude-sonnet-5-5' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 4 },
    });
    expect(message.id).toMatch(/^msg_/);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(exchanges[0].url).toBe('https://api.anthropic.com/v1/messages');
  });

  it('normalizes system (string and blocks), tool_use and tool_result for matching', async () => {
    const { mock, client } = setup([
      {
        name: 'tools',
        steps: [
          {
            match: {
              provider: 'anthropic',
              messages: [{ role: 'system', content: { contains: 'weather bot' } }],
              tools: ['get_weather'],
              toolResults: ['get_weather'],
            },
            respond: { text: 'It is 21C' },
          },
        ],
      },
    ]);
    const message = await client.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 50,
      system: [{ type: 'text', text: 'You are a weather bot.' }],
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21C' }] }] },
      ],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'It is 21C', citations: null }]);
    const canonical = mock.requests[0].request!;
    expect(canonical.messages).toEqual([
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Checking', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', content: '21C', toolCallId: 'toolu_1', toolName: 'get_weather' },
    ]);
    expect(canonical.tools).toEqual([{ name: 'get_weather', description: 'Weather for a city', parameters: weatherTool.input_schema }]);
    expect(canonical.params).toMatchObject({ max_tokens: 50 });
  });

  it('renders tool calls as tool_use blocks with stop_reason tool_use', async () => {
    const { client } = setup([
      { name: 't', steps: [{ respond: { toolCalls: [{ id: 'toolu_A', name: 'get_weather', arguments: { city: 'Oslo' } }] } }] },
    ]);
    const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 10, tools: [weatherTool], messages: [{ role: 'user', content: 'x' }] });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { city: 'Oslo' }, caller: { type: 'direct' } }]);
  });

  it.each([
    ['length', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['stop', 'end_turn'],
    ['content_filter', 'refusal'],
  ] as const)('maps finishReason %s to stop_reason %s', async (finishReason, stopReason) => {
    const { client } = setup([{ name: 'f', steps: [{ respond: { text: 'cut', finishReason } }] }]);
    const message = await client.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 10,
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(message.stop_reason).toBe(stopReason);
    expect(message.stop_sequence).toBe(finishReason === 'stop_sequence' ? 'END' : null);
  });
});

describe('Anthropic Messages: streaming', () => {
  const scenario: ScenarioInput = {
    name: 'stream',
    steps: [
      {
        respond: {
          text: 'Let me check the weather.',
          toolCalls: [{ id: 'toolu_S', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }],
          usage: { inputTokens: 20, outputTokens: 11 },
          stream: { chunkSize: 6 },
        },
      },
    ],
  };

  it('sends the full event sequence with event: lines, ping, and partial_json pieces', async () => {
    const { client, exchanges } = setup([scenario]);
    const stream = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, stream: true, tools: [weatherTool], messages: [{ role: 'user', content: 'x' }] });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const events = sseEvents(await exchanges[0].body);
    for (const [name, data] of events) expect(name).toBe(data.type);
    expect(events.map(([n]) => n)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      ...Array(5).fill('content_block_delta'),
      'content_block_stop',
      'content_block_start',
      ...Array(6).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    // The SDK drops ping; everything else reaches the caller.
    expect(types).toEqual(events.map(([n]) => n).filter((n) => n !== 'ping'));
    const partial = events.filter(([, d]) => d.delta?.type === 'input_json_delta').map(([, d]) => d.delta.partial_json);
    expect(partial.join('')).toBe(JSON.stringify({ city: 'Paris', unit: 'celsius' }));
    const delta = events.find(([n]) => n === 'message_delta')![1];
    expect(delta).toMatchObject({ delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 11 } });
  });

  it('finalMessage() from messages.stream equals the non-streaming message (ids aside)', async () => {
    const { client } = setup([scenario, { ...scenario, name: 'again' }]);
    const params = { model: 'claude-sonnet-5-5', max_tokens: 100, tools: [weatherTool], messages: [{ role: 'user' as const, content: 'x' }] };
    const streamed = await client.messages.stream(params).finalMessage();
    const plain = await client.messages.create(params);
    // parsed_output is the stream helper's own addition (structured outputs), not wire data.
    const { parsed_output: parsed, ...rebuilt } = streamed;
    expect(parsed).toBeNull();
    expect({ ...rebuilt, id: 'x' }).toEqual({ ...plain, id: 'x' });
    expect(streamed.content[1]).toMatchObject({ type: 'tool_use', input: { city: 'Paris', unit: 'celsius' } });
  });

  it('emits text through the stream helper and honours explicit chunks', async () => {
    const { client } = setup([{ name: 'c', steps: [{ respond: { text: 'ignored', stream: { chunks: ['Hel', 'lo', '!'] } } }] }]);
    const pieces: string[] = [];
    const final = await client.messages
      .stream({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .on('text', (t) => pieces.push(t))
      .finalMessage();
    expect(pieces).toEqual(['Hel', 'lo', '!']);
    expect(final.content).toEqual([{ type: 'text', text: 'Hello!', citations: null }]);
  });

  it('streams a tool call with empty input as one empty input_json_delta, giving input {}', async () => {
    const { client, exchanges } = setup([{ name: 'e', steps: [{ respond: { toolCalls: [{ id: 'toolu_E', name: 'now' }] } }] }]);
    const final = await client.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).finalMessage();
    expect(final.content).toEqual([{ type: 'tool_use', id: 'toolu_E', name: 'now', input: {}, caller: { type: 'direct' } }]);
    const partial = sseEvents(await exchanges[0].body).filter(([, d]) => d.delta?.type === 'input_json_delta');
    expect(partial.map(([, d]) => d.delta.partial_json)).toEqual(['']);
  });
});

describe('Anthropic Messages: stream/non-stream equivalence', () => {
  const text = 'Héllo 👋🏽 wörld\nline two: "quoted" \\ back\tslash — done';
  const args = { query: 'naïve café ☕', nested: { list: [1, 'two', null], flag: true }, emoji: '🚀' };

  it.each([1, 2, 3, 5, 64])('finalMessage equals create for chunkSize %i with multibyte text and nested arguments', async (chunkSize) => {
    const respond = { text, toolCalls: [{ id: 'toolu_U', name: 'search', arguments: args }], stream: { chunkSize } };
    const { client } = setup([{ name: 'u', steps: [{ respond }, { respond }] }]);
    const params = { model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user' as const, content: 'x' }] };
    const { parsed_output: _parsed, ...streamed } = await client.messages.stream(params).finalMessage();
    const plain = await client.messages.create(params);
    expect({ ...streamed, id: 'x' }).toEqual({ ...plain, id: 'x' });
    expect(plain.content).toEqual([
      { type: 'text', text, citations: null },
      { type: 'tool_use', id: 'toolu_U', name: 'search', input: args, caller: { type: 'direct' } },
    ]);
  });
});
