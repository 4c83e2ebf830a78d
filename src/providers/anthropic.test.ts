import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../transports/mock-llm.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { capturingFetch } from './testing/capture.ts';

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

describe('Anthropic Messages: errors', () => {
  const cases = [
    [400, Anthropic.BadRequestError, 'invalid_request_error'],
    [401, Anthropic.AuthenticationError, 'authentication_error'],
    [403, Anthropic.PermissionDeniedError, 'permission_error'],
    [404, Anthropic.NotFoundError, 'not_found_error'],
    [413, Anthropic.ContentTooLargeError, 'request_too_large'],
    [429, Anthropic.RateLimitError, 'rate_limit_error'],
    [500, Anthropic.InternalServerError, 'api_error'],
    [529, Anthropic.OverloadedError, 'overloaded_error'],
  ] as const;

  it.each(cases)('status %i → %o with error.type %s and request-id', async (status, ErrorClass, type) => {
    const { client } = setup([{ name: 'err', steps: [{ respond: { error: { status, message: `boom ${status}` } } }] }]);
    const err = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.type).toBe(type);
    expect(apiError.apiMessage).toBe(`boom ${status}`);
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type, message: `boom ${status}` } });
  });

  it('retries a 529 after retry-after-ms and then succeeds', async () => {
    const { client, exchanges } = setup(
      [
        {
          name: 'busy',
          steps: [
            { respond: { error: { status: 529, message: 'Overloaded', headers: { 'retry-after-ms': '20' } } } },
            { respond: { text: 'finally' } },
          ],
        },
      ],
      2,
    );
    const started = performance.now();
    const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(message.content[0]).toMatchObject({ text: 'finally' });
    expect(exchanges.map((e) => e.status)).toEqual([529, 200]);
    expect(exchanges[0].headers.get('retry-after-ms')).toBe('20');
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('rejects a missing x-api-key (401) and a missing anthropic-version (400)', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'x' } }] }] });
    const body = JSON.stringify({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] });
    const noKey = await mock.handle(new Request('https://api.anthropic.com/v1/messages', { method: 'POST', body, headers: { 'anthropic-version': '2023-06-01' } }));
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const noVersion = await mock.handle(new Request('https://api.anthropic.com/v1/messages', { method: 'POST', body, headers: { 'x-api-key': 'k' } }));
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
  });

  it.each([
    ['missing max_tokens', { model: 'm', messages: [] }, 'max_tokens: Field required'],
    ['missing messages', { model: 'm', max_tokens: 5 }, 'messages: Field required'],
    ['no messages', { model: 'm', max_tokens: 5, messages: [] }, 'messages: at least one message is required'],
    ['system not text blocks', { model: 'm', max_tokens: 5, system: [{ type: 'image' }], messages: [{ role: 'user', content: 'x' }] }, 'system.0: Input should be a text block'],
    ['wrong max_tokens type', { model: 'm', max_tokens: 'ten', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Input should be a valid integer'],
    ['bad role', { model: 'm', max_tokens: 5, messages: [{ role: 'bot', content: 'x' }] }, "messages.0.role: Input should be"],
    ['tool_result without id', { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }, 'messages.0.content.0.tool_use_id: Field required'],
  ])('%s → 400 BadRequestError naming the field, and the mock keeps serving', async (_name, body, message) => {
    const { client } = setup([{ name: 'ok', steps: [{ respond: { text: 'still here' } }] }]);
    const err = await client.messages.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).apiMessage).toContain(message);
    const ok = await client.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(ok.content[0]).toMatchObject({ text: 'still here' });
  });

  it('answers invalid JSON with a 400 in Anthropic shape', async () => {
    const mock = createMockLLM({ scenarios: [] });
    const res = await mock.handle(
      new Request('https://api.anthropic.com/v1/messages', { method: 'POST', body: '{not json', headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') } });
  });

  it('answers an unmatched request with a 404 not_found_error carrying near misses in error.details', async () => {
    const { client } = setup([{ name: 'only-gpt', steps: [{ match: { model: 'gpt-4o' }, respond: { text: 'x' } }] }]);
    const err = await client.messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.apiMessage).toContain('only-gpt#0');
    expect(apiError.details).toMatchObject({ nearMisses: [{ step: { scenario: 'only-gpt', index: 0 } }] });
  });
});
