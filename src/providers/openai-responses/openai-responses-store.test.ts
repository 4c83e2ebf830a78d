import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { useMockLLM } from '../../vitest/use-mock-llm.ts';
import { openAIResponsesAdapter } from './index.ts';
import { capturingFetch } from '../testing/capture.ts';
import { validateOpenAI } from '../testing/openapi.ts';

const tools: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    strict: true,
  },
];

/** A tool loop whose second step needs both the first turn's user text and the tool's result. */
const weatherLoop: ScenarioInput = {
  name: 'weather-loop',
  steps: [
    {
      match: { provider: 'openai-responses', lastMessage: { role: 'user', content: { contains: 'weather in Paris' } } },
      respond: { toolCalls: [{ id: 'call_paris', name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true },
    },
    {
      match: {
        provider: 'openai-responses',
        messages: [{ role: 'user', content: { contains: 'weather in Paris' } }],
        lastMessage: { role: 'tool', content: { contains: '21' } },
        toolResults: ['get_weather'],
      },
      respond: { text: 'It is 21°C in Paris.' },
    },
  ],
};

function setup(scenarios: ScenarioInput[], mock = createMockLLM({ scenarios })) {
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
  return { mock, client, exchanges };
}

function callOf(response: OpenAI.Responses.Response): OpenAI.Responses.ResponseFunctionToolCall {
  const call = response.output.find((item) => item.type === 'function_call');
  if (!call) throw new Error('expected a function_call item');
  return call;
}

describe('Responses previous_response_id over MSW (useMockLLM)', () => {
  it('continues a tool loop from function_call_output alone; matching sees the whole conversation', async () => {
    const mock = useMockLLM(weatherLoop);
    const client = new OpenAI({ apiKey: 'k', maxRetries: 0 });
    const first = await client.responses.create({ model: 'gpt-4.1', instructions: 'Use tools.', input: 'What is the weather in Paris?', tools });
    const call = callOf(first);
    expect(call).toMatchObject({ call_id: 'call_paris', name: 'get_weather' });
    const second = await client.responses.create({
      model: 'gpt-4.1',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '21°C, sunny' }],
      tools,
    });
    expect(second.output_text).toBe('It is 21°C in Paris.');
    expect(second.previous_response_id).toBe(first.id);
    mock.assertAllConsumed();
    // Instructions do not carry over; the earlier input and output do, with the result's tool name resolved.
    expect(mock.requests[1].request?.messages).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_paris', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', content: '21°C, sunny', toolCallId: 'call_paris', toolName: 'get_weather' },
    ]);
    // Retrieval and deletion go through the same MSW handlers, with no step consumed.
    expect((await client.responses.retrieve(first.id)).output).toEqual(first.output);
    await client.responses.delete(second.id);
    expect(await client.responses.retrieve(second.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(mock.requests.slice(2).map((r) => `${r.method} ${r.status} ${r.step === null}`)).toEqual(['GET 200 true', 'DELETE 200 true', 'GET 404 true']);
  });

  it('without previous_response_id the same second request misses (the history is what matches)', async () => {
    const mock = useMockLLM(weatherLoop);
    const client = new OpenAI({ apiKey: 'k', maxRetries: 0 });
    await client.responses.create({ model: 'gpt-4.1', input: 'What is the weather in Paris?', tools });
    const err = await client.responses
      .create({ model: 'gpt-4.1', input: [{ type: 'function_call_output', call_id: 'call_paris', output: '21°C' }], tools })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(mock.unconsumed()).toHaveLength(1);
  });
});

describe('Responses stored responses through the SDK', () => {
  it('retrieve returns the stored object (spec-valid); delete forgets it; both need a key', async () => {
    const { client, exchanges, mock } = setup([{ name: 'hi', steps: [{ respond: { text: 'Hello' } }] }]);
    const created = await client.responses.create({ model: 'gpt-4.1', input: 'hi' });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toEqual(created);
    expect(exchanges[1]).toMatchObject({ method: 'GET', url: `https://api.openai.com/v1/responses/${created.id}`, status: 200 });
    expect(validateOpenAI('Response', JSON.parse(await exchanges[1].body))).toEqual([]);
    await client.responses.delete(created.id);
    expect(JSON.parse(await exchanges[2].body)).toEqual({ id: created.id, object: 'response', deleted: true });
    const gone = await client.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
    expect(validateOpenAI('ErrorResponse', JSON.parse(await exchanges[3].body))).toEqual([]);
    const denied = await mock.handle(new Request(`https://api.openai.com/v1/responses/${created.id}`, { method: 'GET' }));
    expect(denied.status).toBe(401);
  });

  it('an unknown previous_response_id → 400 previous_response_not_found, as OpenAI sends it', async () => {
    const { client, exchanges, mock } = setup([{ name: 'hi', steps: [{ respond: { text: 'Hello' } }] }]);
    const err = await client.responses.create({ model: 'gpt-4.1', input: 'hi', previous_response_id: 'resp_nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400, code: 'previous_response_not_found', param: 'previous_response_id' });
    const body = JSON.parse(await exchanges[0].body);
    expect(body).toEqual({
      error: { message: "Previous response with id 'resp_nope' not found.", type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' },
    });
    expect(validateOpenAI('ErrorResponse', body)).toEqual([]);
    expect(mock.unconsumed()).toHaveLength(1);
  });

  it('two MockLLM instances keep their stored responses apart; reset() and store: false forget', async () => {
    const a = setup([{ name: 'a', steps: [{ respond: { text: 'A' }, consume: false }] }]);
    const b = setup([{ name: 'b', steps: [{ respond: { text: 'B' }, consume: false }] }]);
    const fromA = await a.client.responses.create({ model: 'gpt-4.1', input: 'hi' });
    expect(await a.client.responses.retrieve(fromA.id)).toMatchObject({ id: fromA.id });
    const inB = await b.client.responses.create({ model: 'gpt-4.1', input: 'more', previous_response_id: fromA.id }).catch((e: unknown) => e);
    expect(inB).toMatchObject({ status: 400, code: 'previous_response_not_found' });
    expect(await b.client.responses.retrieve(fromA.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    const unstored = await a.client.responses.create({ model: 'gpt-4.1', input: 'hi', store: false });
    expect(unstored).toMatchObject({ store: false });
    expect(await a.client.responses.retrieve(unstored.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    a.mock.reset();
    expect(await a.client.responses.retrieve(fromA.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('chains: a third turn sees both earlier turns, and a developer message in the input carries over', async () => {
    const { client, mock } = setup([{ name: 'echo', steps: [{ respond: { text: 'said: {{lastUserMessage}}' }, consume: false }] }]);
    const one = await client.responses.create({ model: 'gpt-4.1', input: [{ role: 'developer', content: 'dev note' }, { role: 'user', content: 'one' }] });
    const two = await client.responses.create({ model: 'gpt-4.1', input: 'two', previous_response_id: one.id, instructions: 'dropped next turn' });
    await client.responses.create({ model: 'gpt-4.1', input: 'three', previous_response_id: two.id });
    expect(mock.requests[1].request?.messages[0]).toEqual({ role: 'system', content: 'dropped next turn' });
    expect(mock.requests[2].request?.messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      'system:dev note',
      'user:one',
      'assistant:said: one',
      'user:two',
      'assistant:said: two',
      'user:three',
    ]);
  });

  it('keeps only the latest storeLimit responses', async () => {
    const mock = createMockLLM({
      scenarios: [{ name: 'n', steps: [{ respond: { text: 'x' }, consume: false }] }],
      adapters: [openAIResponsesAdapter({ storeLimit: 2 })],
    });
    const { client } = setup([], mock);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await client.responses.create({ model: 'gpt-4.1', input: `turn ${i}` })).id);
    expect(await client.responses.retrieve(ids[0]).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await client.responses.retrieve(ids[2])).output_text).toBe('x');
  });

  it('bounds the store in bytes too: long chained conversations push out the oldest, the newest continues', async () => {
    const mock = createMockLLM({
      scenarios: [{ name: 'n', steps: [{ respond: { text: 'x' }, consume: false }] }],
      adapters: [openAIResponsesAdapter({ storeLimitBytes: 64 * 1024 })],
    });
    const { client } = setup([], mock);
    const big = 'w'.repeat(10_000);
    const ids: string[] = [];
    let previous: string | undefined;
    // Each turn's stored conversation repeats the earlier ones: about 20, 40, 60, 80 KB of text.
    for (let i = 0; i < 4; i += 1) {
      const res = await client.responses.create({ model: 'gpt-4.1', input: `${big} ${i}`, ...(previous ? { previous_response_id: previous } : {}) });
      ids.push((previous = res.id));
    }
    expect(await client.responses.retrieve(ids[0]).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await client.responses.retrieve(ids[2]).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    // Over the budget on its own, the newest stays: the conversation goes on from it.
    const next = await client.responses.create({ model: 'gpt-4.1', input: 'more', previous_response_id: ids[3] });
    expect(next.output_text).toBe('x');
  });
});

describe('Responses previous_response_id on the real port (startMockLLMServer), streaming', () => {
  let server: MockLLMServer;
  beforeAll(async () => {
    server = await startMockLLMServer({ scenarios: [weatherLoop] });
  });
  afterAll(() => server.close());

  it('streams both turns; the second continues from the streamed first; retrieve returns the final object', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const first = await client.responses.stream({ model: 'gpt-4.1', input: 'And the weather in Paris?', tools }).finalResponse();
    const call = callOf(first);
    const stream = client.responses.stream({
      model: 'gpt-4.1',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '21' }],
    });
    const second = await stream.finalResponse();
    expect(second.output_text).toBe('It is 21°C in Paris.');
    server.mock.assertAllConsumed();
    const retrieved = await client.responses.retrieve(first.id);
    expect(retrieved).toMatchObject({ id: first.id, status: 'completed', output: [{ type: 'function_call', call_id: 'call_paris' }] });
    const raw = await fetch(`${server.url}/v1/responses/${second.id}`, { headers: { authorization: 'Bearer k' } });
    const body = await raw.json();
    expect(body).toMatchObject({ id: second.id, previous_response_id: first.id, output: [{ type: 'message' }] });
    expect(validateOpenAI('Response', body)).toEqual([]);
  });
});
