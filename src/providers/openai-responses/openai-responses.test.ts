import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { RandomBytes } from '../common/ids.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { renderResponsesObject } from './render.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch, sseData, type Exchange } from '../testing/capture.ts';
import { readFileSync } from 'node:fs';
import { OPENAI_SPEC_PATH, validateOpenAI } from '../testing/openapi.ts';

/** Event type → its schema name, read from the spec's ResponseStreamEvent union (precise errors, not anyOf noise). */
const EVENT_SCHEMAS: Map<string, string> = (() => {
  const schemas = JSON.parse(readFileSync(OPENAI_SPEC_PATH, 'utf8')).components.schemas;
  const union = schemas.ResponseStreamEvent.anyOf ?? schemas.ResponseStreamEvent.oneOf;
  const map = new Map<string, string>();
  for (const ref of union) {
    const name = String(ref.$ref).split('/').at(-1)!;
    for (const type of schemas[name]?.properties?.type?.enum ?? []) map.set(type, name);
  }
  return map;
})();

function setup(scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
  return { mock, client, exchanges };
}

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

/** Every event of a streamed body validates as a ResponseStreamEvent; returns them parsed. */
async function streamedEvents(exchange: Exchange): Promise<any[]> {
  const body = await exchange.body;
  const events = sseData(body).map((d) => JSON.parse(d));
  const names = body.split('\n\n').filter((f) => f.trim()).map((f) => /^event: (.+)$/m.exec(f)?.[1]);
  expect(names).toEqual(events.map((e) => e.type));
  for (const event of events) {
    expect(EVENT_SCHEMAS.get(event.type), event.type).toBeDefined();
    expect(validateOpenAI(EVENT_SCHEMAS.get(event.type)!, event)).toEqual([]);
  }
  expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  return events;
}

describe('OpenAI Responses: non-streaming', () => {
  it('answers responses.create with a response object that validates against the spec', async () => {
    const { client, exchanges } = setup([
      { name: 'hi', steps: [{ respond: { text: 'Hello from {{model}}', usage: { inputTokens: 6, outputTokens: 4 } } }] },
    ]);
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'hi', instructions: 'Be brief.' });
    expect(response.output_text).toBe('Hello from gpt-4.1');
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      usage: { input_tokens: 6, output_tokens: 4, total_tokens: 10 },
    });
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response.output).toEqual([
      {
        // The API's item ids: `msg_` + 48 hex digits, as `msg_67ccd2bf17f0819081ff3bb2cf6508e6…`.
        id: expect.stringMatching(/^msg_[0-9a-f]{48}$/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello from gpt-4.1', annotations: [], logprobs: [] }],
      },
    ]);
    expect(validateOpenAI('Response', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('renders function calls with call_id, arguments as a JSON string, and echoes the tools', async () => {
    const { client, exchanges } = setup([
      { name: 't', steps: [{ respond: { text: 'Checking.', toolCalls: [{ id: 'call_W', name: 'get_weather', arguments: { city: 'Paris' } }] } }] },
    ]);
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'Weather?', tools: [weatherTool] });
    expect(response.output.map((o) => o.type)).toEqual(['message', 'function_call']);
    expect(response.output[1]).toMatchObject({ type: 'function_call', call_id: 'call_W', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    expect(response.output[1].id).toMatch(/^fc_[0-9a-f]{48}$/);
    expect(response.tools).toEqual([weatherTool]);
    expect(validateOpenAI('Response', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('maps input items (instructions, messages, function_call, function_call_output) to the canonical request', async () => {
    const { mock, client } = setup([
      {
        name: 'round',
        steps: [
          {
            match: { provider: 'openai-responses', toolResults: ['get_weather'], messages: [{ role: 'system', content: { contains: 'weather' } }] },
            respond: { text: 'It is sunny' },
          },
        ],
      },
    ]);
    const response = await client.responses.create({
      model: 'gpt-4.1',
      instructions: 'You are a weather bot.',
      tools: [weatherTool],
      input: [
        { role: 'developer', content: 'Answer in English.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"sunny"}' },
      ],
    });
    expect(response.output_text).toBe('It is sunny');
    expect(mock.requests[0].request!.messages).toEqual([
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', content: '{"sky":"sunny"}', toolCallId: 'call_1', toolName: 'get_weather' },
    ]);
  });

  it('reports finishReason length as status incomplete with reason max_output_tokens', async () => {
    const { client, exchanges } = setup([{ name: 'l', steps: [{ respond: { text: 'cut sh', finishReason: 'length' } }] }]);
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'x', max_output_tokens: 16 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.max_output_tokens).toBe(16);
    expect(validateOpenAI('Response', JSON.parse(await exchanges[0].body))).toEqual([]);
  });
});

describe('OpenAI Responses: streaming', () => {
  const scenario: ScenarioInput = {
    name: 's',
    steps: [
      {
        respond: {
          text: 'Let me look that up.',
          toolCalls: [
            { id: 'call_A', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'call_B', name: 'get_weather', arguments: { city: 'Rome' } },
          ],
          usage: { inputTokens: 12, outputTokens: 9 },
          stream: { chunkSize: 7 },
        },
      },
    ],
  };

  it('emits the full event sequence, each event valid against the spec', async () => {
    const { client, exchanges } = setup([scenario]);
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'x', tools: [weatherTool], stream: true });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    const events = await streamedEvents(exchanges[0]);
    expect(seen).toEqual(events.map((e) => e.type));
    // '{"city":"Paris"}' is 16 characters: three deltas of at most 7.
    const call = [
      'response.output_item.added',
      ...Array(3).fill('response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
    ];
    expect(seen).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(3).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      ...call,
      ...call,
      'response.completed',
    ]);
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta)).toEqual(['Let me ', 'look th', 'at up.']);
    expect(events[0].response).toMatchObject({ status: 'in_progress', output: [] });
    expect(events[0].response).not.toHaveProperty('usage');
    expect(events.at(-1).response.usage).toMatchObject({ input_tokens: 12, output_tokens: 9, total_tokens: 21 });
    // Every item-scoped event names its item by the id the final response carries.
    const ids = events.at(-1).response.output.map((o: { id: string }) => o.id);
    expect(ids).toEqual([expect.stringMatching(/^msg_[0-9a-f]{48}$/), expect.stringMatching(/^fc_[0-9a-f]{48}$/), expect.stringMatching(/^fc_[0-9a-f]{48}$/)]);
    expect(new Set(ids).size).toBe(3);
    const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => e.item.id);
    expect(added).toEqual(ids);
  });

  it('draws the item ids from the mock\'s id pool, as its response and tool call ids', async () => {
    const { client } = setup([scenario]);
    const drawn = vi.spyOn(RandomBytes.prototype, 'next');
    try {
      const response = await client.responses.create({ model: 'gpt-4.1', input: 'x', tools: [weatherTool] });
      expect(response.output.map((o) => o.id)).toHaveLength(3);
      // 48 hex digits are 48 bytes each (none dropped for hex): the response id and three items.
      expect(drawn).toHaveBeenCalledTimes(4 * 48);
    } finally {
      drawn.mockRestore();
    }
    // Without a pool (rendering outside a mock) the same shapes come from randomUUIDs.
    const ordered = new (class extends RandomBytes {
      #n = 0;
      override next(): number {
        return this.#n++ % 16;
      }
    })();
    const request = { provider: 'openai-responses', model: 'm', messages: [], tools: [], stream: false, raw: {} } as unknown as CanonicalRequest;
    const rendered = { id: 'resp_x', model: 'm', created: 1, text: 'hi', toolCalls: [{ id: 'call_1', name: 'f', arguments: {} }], finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1 } } as unknown as CanonicalResponse;
    const output = renderResponsesObject(rendered, request, ordered).output as Array<{ id: string }>;
    expect(output.map((o) => o.id)).toEqual([`msg_${'0123456789abcdef'.repeat(3)}`, `fc_${'0123456789abcdef'.repeat(3)}`]);
    expect((renderResponsesObject(rendered, request).output as Array<{ id: string }>)[0].id).toMatch(/^msg_[0-9a-f]{48}$/);
  });

  it('responses.stream().finalResponse() equals the non-streaming response (ids aside)', async () => {
    const { client } = setup([scenario, { ...scenario, name: 's2' }]);
    const params = { model: 'gpt-4.1', input: 'x', tools: [weatherTool] };
    const deltas: string[] = [];
    const streamed = await client.responses
      .stream(params)
      .on('response.function_call_arguments.delta', (e) => deltas.push(e.delta))
      .finalResponse();
    const plain = await client.responses.create(params);
    // The stream helper adds parsed fields (parsed, parsed_arguments, output_parsed); they are not wire data.
    // The two answers are made apart in time, so their seconds may differ by one.
    expect(Math.abs(streamed.created_at - plain.created_at)).toBeLessThanOrEqual(1);
    const strip = (r: any) => ({
      ...r,
      id: 'x',
      created_at: 0,
      completed_at: r.completed_at === null ? null : 0,
      parsed_output: undefined,
      output_parsed: undefined,
      output: r.output.map(({ parsed_arguments: _a, ...o }: any) => ({
        ...o,
        id: 'x',
        ...(o.content ? { content: o.content.map(({ parsed: _p, ...c }: any) => c) } : {}),
      })),
    });
    expect(strip(streamed)).toEqual(strip(plain));
    expect(streamed.output_text).toBe('Let me look that up.');
    expect(deltas.join('')).toBe('{"city":"Paris"}{"city":"Rome"}');
    expect(streamed.output.filter((o) => o.type === 'function_call').map((o) => (o as OpenAI.Responses.ResponseFunctionToolCall).call_id)).toEqual([
      'call_A',
      'call_B',
    ]);
  });

  it('ends a length-limited stream with response.incomplete', async () => {
    const { client, exchanges } = setup([{ name: 'l', steps: [{ respond: { text: 'partial', finishReason: 'length' } }] }]);
    const final = await client.responses.stream({ model: 'gpt-4.1', input: 'x' }).finalResponse();
    expect(final.status).toBe('incomplete');
    const events = await streamedEvents(exchanges[0]);
    expect(events.at(-1)!.type).toBe('response.incomplete');
  });
});

describe('OpenAI Responses: stream/non-stream equivalence', () => {
  const text = 'Héllo 👋🏽 wörld\nline two: "quoted" \\ back\tslash — done';
  const args = { query: 'naïve café ☕', nested: { list: [1, 'two', null], flag: true } };

  it.each([1, 3, 64])('finalResponse equals create for chunkSize %i with multibyte text and nested arguments', async (chunkSize) => {
    const respond = { text, toolCalls: [{ id: 'call_U', name: 'search', arguments: args }], stream: { chunkSize } };
    const { client, exchanges } = setup([{ name: 'u', steps: [{ respond }, { respond }] }]);
    const streamed = await client.responses.stream({ model: 'gpt-4.1', input: 'x' }).finalResponse();
    const plain = await client.responses.create({ model: 'gpt-4.1', input: 'x' });
    expect(streamed.output_text).toBe(text);
    expect(plain.output_text).toBe(text);
    const call = (r: OpenAI.Responses.Response) => r.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(JSON.parse(call(streamed).arguments)).toEqual(args);
    expect(call(streamed).arguments).toBe(call(plain).arguments);
    await streamedEvents(exchanges[0]);
  });
});

describe('OpenAI Responses: errors', () => {
  it.each([
    ['missing model', { input: 'x' }, "Missing required parameter: 'model'."],
    ['wrong input type', { model: 'gpt-4.1', input: 42 }, "Invalid type for 'input'"],
    ['function_call_output without call_id', { model: 'gpt-4.1', input: [{ type: 'function_call_output', output: 'x' }] }, "'input[0].call_id'"],
    ['bad role', { model: 'gpt-4.1', input: [{ role: 'robot', content: 'x' }] }, "Invalid value: 'robot'"],
  ])('%s → 400 BadRequestError valid against ErrorResponse; the mock keeps serving', async (_name, body, message) => {
    const { client, exchanges } = setup([{ name: 'ok', steps: [{ respond: { text: 'fine' } }] }]);
    const err = await client.responses.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toContain(message);
    expect(validateOpenAI('ErrorResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
    const ok = await client.responses.create({ model: 'gpt-4.1', input: 'x' });
    expect(ok.output_text).toBe('fine');
  });

  it('renders step errors with the SDK error class and retry-after header', async () => {
    const { client, exchanges } = setup([{ name: 'e', steps: [{ respond: { error: { status: 429, message: 'slow down', headers: { 'retry-after': '3' } } } }] }]);
    const err = await client.responses.create({ model: 'gpt-4.1', input: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(exchanges[0].headers.get('retry-after')).toBe('3');
    expect(validateOpenAI('ErrorResponse', JSON.parse(await exchanges[0].body))).toEqual([]);
  });

  it('rejects a request without a bearer token with a 401', async () => {
    const mock = createMockLLM({ scenarios: [] });
    const res = await mock.handle(new Request('https://api.openai.com/v1/responses', { method: 'POST', body: '{"model":"m","input":"x"}' }));
    expect(res.status).toBe(401);
    expect(validateOpenAI('ErrorResponse', await res.json())).toEqual([]);
  });
});
