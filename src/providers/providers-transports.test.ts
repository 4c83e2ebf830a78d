import Anthropic from '@anthropic-ai/sdk';
import { ApiError, FinishReason, Type } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../scenario/embed.ts';
import type { ScenarioInput } from '../scenario/schema.ts';
import { createMockLLM, type MockLLM } from '../transports/mock-llm.ts';
import { startRig, TRANSPORTS, type SdkRig } from './testing/sdk-rig.ts';

/** Two turns: ask for get_weather (results required), then answer from the tool result. */
const weatherRoundTrip: ScenarioInput = {
  name: 'weather-round-trip',
  steps: [
    {
      match: { tools: ['get_weather'], lastMessage: { role: 'user', content: { contains: 'weather' } } },
      respond: { toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true },
    },
    {
      match: { toolResults: ['get_weather'], messages: [{ role: 'tool', content: { contains: '21' } }] },
      respond: { text: 'It is 21C in Paris.', usage: { inputTokens: 30, outputTokens: 7 } },
    },
  ],
};

const params = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

describe.each(TRANSPORTS)('providers over %s', (transport) => {
  let rig: SdkRig | undefined;
  let mock: MockLLM;
  const start = async (scenarios: ScenarioInput[], apiVersion?: string) => {
    mock = createMockLLM({ scenarios });
    rig = await startRig(transport, mock, apiVersion);
    return rig;
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('Anthropic: tool use round trip with create, then stream().finalMessage()', async () => {
    const { anthropic } = await start([weatherRoundTrip]);
    const tools: Anthropic.Messages.Tool[] = [{ name: 'get_weather', input_schema: params }];
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 200, tools, messages });
    expect(first.stop_reason).toBe('tool_use');
    const toolUse = first.content.find((b) => b.type === 'tool_use')!;
    expect(toolUse).toMatchObject({ id: 'call_weather_1', name: 'get_weather', input: { city: 'Paris' } });
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '21C and sunny' }] });
    const second = await anthropic.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 200, tools, messages }).finalMessage();
    expect(second.content).toEqual([{ type: 'text', text: 'It is 21C in Paris.', citations: null }]);
    expect(second.usage).toMatchObject({ input_tokens: 30, output_tokens: 7 });
    expect(mock.unconsumed()).toEqual([]);
  });

  it('Anthropic: a mis-shaped request is a BadRequestError and the server keeps serving', async () => {
    const { anthropic } = await start([{ name: 'ok', steps: [{ respond: { text: 'still here' } }] }]);
    const err = await anthropic.messages.create({ model: 'claude-sonnet-5-5', messages: [{ role: 'user', content: 'x' }] } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).apiMessage).toBe('max_tokens: Field required');
    const ok = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(ok.content[0]).toMatchObject({ text: 'still here' });
  });

  it('Gemini: function calling round trip with generateContent, then generateContentStream', async () => {
    const { google } = await start([weatherRoundTrip]);
    const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } } }] }] };
    const contents = [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }];
    const first = await google.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
    expect(first.functionCalls).toEqual([{ id: 'call_weather_1', name: 'get_weather', args: { city: 'Paris' } }]);
    const call = first.functionCalls![0];
    const next = [
      ...contents,
      first.candidates![0].content!,
      { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { temperature: '21C' } } }] },
    ];
    let text = '';
    let finish: unknown;
    for await (const chunk of await google.models.generateContentStream({ model: 'gemini-2.5-flash', contents: next as never, config })) {
      text += chunk.text ?? '';
      finish = chunk.candidates?.[0].finishReason ?? finish;
    }
    expect(text).toBe('It is 21C in Paris.');
    expect(finish).toBe(FinishReason.STOP);
    expect(mock.unconsumed()).toEqual([]);
  });

  it('Gemini: v1beta clients, embedContent with outputDimensionality, and a 400 that keeps the server serving', async () => {
    const { google } = await start([{ name: 'ok', steps: [{ match: { provider: 'gemini' }, respond: { text: 'fine' } }] }], 'v1beta');
    const embedded = await google.models.embedContent({ model: 'gemini-embedding-001', contents: ['red apples', 'green apples', 'tax law'], config: { outputDimensionality: 48 } });
    const [a, b, c] = embedded.embeddings!.map((e) => e.values!);
    expect(a).toHaveLength(48);
    expect(cosineSimilarity(a, b)).toBeGreaterThan(cosineSimilarity(a, c));
    const err = await google.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'robot', parts: [{ text: 'x' }] }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    const ok = await google.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    expect(ok.text).toBe('fine');
  });

  it('OpenAI Responses: function call round trip with create, then stream().finalResponse()', async () => {
    const { openai } = await start([weatherRoundTrip]);
    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'get_weather', parameters: params, strict: false }];
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await openai.responses.create({ model: 'gpt-4.1', tools, input });
    const call = first.output.find((o) => o.type === 'function_call')!;
    expect(call).toMatchObject({ call_id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' });
    input.push(call, { type: 'function_call_output', call_id: call.call_id, output: '21C' });
    const second = await openai.responses.stream({ model: 'gpt-4.1', tools, input }).finalResponse();
    expect(second.output_text).toBe('It is 21C in Paris.');
    expect(second.usage).toMatchObject({ input_tokens: 30, output_tokens: 7, total_tokens: 37 });
    expect(mock.unconsumed()).toEqual([]);
  });

  it('OpenAI embeddings with dimensions, and model listings through all three SDKs', async () => {
    const { openai, anthropic, google } = await start([
      { name: 'names', steps: [{ match: { model: 'gpt-4.1' }, respond: { text: 'x' } }, { match: { model: 'claude-haiku-4-5' }, respond: { text: 'y' } }] },
    ]);
    const embedded = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['open the door', 'close the door', 'quantum physics'], dimensions: 256 });
    const [a, b, c] = embedded.data.map((d) => d.embedding);
    expect(a).toHaveLength(256);
    expect(cosineSimilarity(a, b)).toBeGreaterThan(cosineSimilarity(a, c));
    expect(embedded.usage.prompt_tokens).toBeGreaterThan(0);
    const openaiIds = (await openai.models.list()).data.map((m) => m.id);
    const anthropicIds = (await anthropic.models.list()).data.map((m) => m.id);
    const googleNames: string[] = [];
    for await (const m of await google.models.list()) googleNames.push(m.name!);
    expect(openaiIds).toEqual(['gpt-4.1', 'claude-haiku-4-5']);
    expect(anthropicIds).toEqual(openaiIds);
    expect(googleNames).toEqual(openaiIds.map((id) => `models/${id}`));
  });

  it('invalid JSON → 400 in each provider’s shape, the SDKs raise their bad-request error, and the server keeps serving', async () => {
    const { openai, anthropic, google } = await start([{ name: 'ok', steps: [{ respond: { text: 'fine' } }] }]);
    // The SDKs always send valid JSON, so the broken bodies go out through plain fetch to the same place.
    const post = (url: string, headers: Record<string, string>) => fetch(url, { method: 'POST', body: '{"model":', headers: { 'content-type': 'application/json', ...headers } });
    const o = await post(`${openai.baseURL}/responses`, { authorization: 'Bearer sk-test' });
    expect(o.status).toBe(400);
    expect(await o.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') } });
    const a = await post(`${anthropic.baseURL}/v1/messages`, { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' });
    expect(a.status).toBe(400);
    expect(await a.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const googleBase = transport === 'msw' ? 'https://generativelanguage.googleapis.com' : anthropic.baseURL;
    const g = await post(`${googleBase}/v1/models/gemini-2.5-flash:generateContent`, { 'x-goog-api-key': 'k' });
    expect(g.status).toBe(400);
    expect(await g.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    // Mis-typed fields through the SDKs themselves: each raises its own bad-request error.
    await expect(openai.responses.create({ model: 'gpt-4.1', input: 42 as never })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const gErr = await google.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'robot', parts: [{ text: 'x' }] }] }).catch((e: unknown) => e);
    expect((gErr as ApiError).status).toBe(400);
    expect((await openai.responses.create({ model: 'gpt-4.1', input: 'x' })).output_text).toBe('fine');
  });

  it('cut streams surface as errors in every SDK, and the server keeps serving', async () => {
    const cut = { text: 'a long answer that will be cut', stream: { chunkSize: 4, disconnectAfterChunks: 3 } };
    const { openai, anthropic, google } = await start([
      {
        name: 'cut',
        steps: [
          { match: { provider: 'anthropic' }, respond: cut },
          { match: { provider: 'openai-responses' }, respond: cut },
          { match: { provider: 'gemini' }, respond: cut },
          { respond: { text: 'after' } },
        ],
      },
    ]);
    const anthropicText: string[] = [];
    const aErr = await anthropic.messages
      .stream({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .on('text', (t) => anthropicText.push(t))
      .finalMessage()
      .catch((e: unknown) => e);
    expect(aErr).toBeInstanceOf(Error);
    // message_start, ping, content_block_start made it; no text delta did.
    expect(anthropicText).toEqual([]);
    const rErr = await openai.responses.stream({ model: 'gpt-4.1', input: 'x' }).finalResponse().catch((e: unknown) => e);
    // Paced SSE is sent chunked, so the cut is a network error under MSW as on the real port.
    expect(rErr).toBeInstanceOf(Error);
    const finishes: unknown[] = [];
    const gErr = await (async () => {
      for await (const chunk of await google.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' })) {
        finishes.push(chunk.candidates?.[0].finishReason);
      }
    })().catch((e: unknown) => e);
    expect(gErr).toBeInstanceOf(Error);
    expect(finishes.every((f) => f === undefined)).toBe(true);
    const ok = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(ok.content[0]).toMatchObject({ text: 'after' });
  });

  it('paces streamed frames by chunkDelayMs', async () => {
    const { anthropic } = await start([{ name: 'slow', steps: [{ respond: { text: 'abcdef', stream: { chunkSize: 2, chunkDelayMs: 25 } } }] }]);
    const arrivals: number[] = [];
    const t0 = performance.now();
    await anthropic.messages
      .stream({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .on('text', () => arrivals.push(performance.now() - t0))
      .finalMessage();
    expect(arrivals).toHaveLength(3);
    // The server holds each frame chunkDelayMs after the one before, so the last text cannot arrive
    // sooner than that after the request (timers may fire a little early: allow 5 ms). Measured from
    // the request, not between arrivals: a busy client reading the first frame late bunches the gaps.
    expect(arrivals[2]).toBeGreaterThanOrEqual(2 * 25 - 5);
  });

  it('Anthropic SDK retries a 529 overloaded_error after retry-after seconds', async () => {
    mock = createMockLLM({
      scenarios: [
        {
          name: 'busy',
          steps: [
            { respond: { error: { status: 529, message: 'Overloaded', headers: { 'retry-after': '0.05' } } } },
            { respond: { text: 'recovered' } },
          ],
        },
      ],
    });
    rig = await startRig(transport, mock);
    const client = rig.anthropic.withOptions({ maxRetries: 1 });
    const t0 = performance.now();
    const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(message.content[0]).toMatchObject({ text: 'recovered' });
    expect(mock.requests.map((r) => r.status)).toEqual([529, 200]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
  });
});
