import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startRig, TRANSPORTS, type SdkRig } from '../testing/sdk-rig.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';
import { OPENAI_SPEC_PATH, validateOpenAI } from '../testing/openapi.ts';
import { openAIResponsesReader } from './reader.ts';

// Structured outputs on the Responses API (issue 26) through the SDK's helpers: `responses.parse`
// with zodTextFormat, the `stream` helper, refusals, generated answers, authoring errors and a
// forced function; over MSW and the real port. Then the wire: every event validates against the spec.

const Weather = z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) });
const format = zodTextFormat(Weather, 'weather_report');

describe.each(TRANSPORTS)('OpenAI Responses structured outputs over %s', (transport) => {
  const mock = createMockLLM();
  const heard: string[] = [];
  mock.onAuthoringError((m) => heard.push(m));
  let rig: SdkRig;
  beforeAll(async () => {
    rig = await startRig(transport, mock);
  });
  afterAll(() => rig.close());
  beforeEach(() => {
    mock.reset();
    heard.length = 0;
  });

  it('answers responses.parse with the scripted object, parsed by zodTextFormat', async () => {
    mock.use(scenario('weather').respondWithJson({ city: 'Paris', temperature: 21, conditions: 'sunny' }));
    const response = await rig.openai.responses.parse({ model: 'gpt-4.1', input: 'Weather in Paris?', text: { format } });
    expect(response.output_parsed).toEqual({ city: 'Paris', temperature: 21, conditions: 'sunny' });
    expect(mock.requests[0].request?.responseFormat).toMatchObject({ name: 'weather_report', schema: { type: 'object', additionalProperties: false } });
  });

  it('streams the object through responses.stream and parses the final response', async () => {
    mock.use(scenario('weather').respondWithJson({ city: 'Oslo', temperature: -3, conditions: 'cloudy' }).asStream({ chunkSize: 9 }));
    const stream = rig.openai.responses.stream({ model: 'gpt-5-mini', input: 'Oslo?', text: { format } });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas.length).toBeGreaterThan(3);
    expect(final.output_parsed).toEqual({ city: 'Oslo', temperature: -3, conditions: 'cloudy' });
  });

  it('renders a refusal as a refusal content part: parse gives no object, the stream sends the refusal events', async () => {
    mock.use(scenario('no').respondWithRefusal("I can't help with that.").asStream({ chunkSize: 4 }).times(2));
    const response = await rig.openai.responses.parse({ model: 'gpt-4o', input: 'bad', text: { format } });
    expect(response.output_parsed).toBeNull();
    const message = response.output[0] as OpenAI.Responses.ResponseOutputMessage;
    expect(message.content).toEqual([{ type: 'refusal', refusal: "I can't help with that." }]);
    const stream = rig.openai.responses.stream({ model: 'gpt-4o', input: 'bad', text: { format } });
    const deltas: string[] = [];
    let done = '';
    stream.on('response.refusal.delta', (e) => deltas.push(e.delta));
    stream.on('response.refusal.done', (e) => (done = e.refusal));
    const final = await stream.finalResponse();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe("I can't help with that.");
    expect(done).toBe("I can't help with that.");
    expect((final.output[0] as OpenAI.Responses.ResponseOutputMessage).content).toEqual([{ type: 'refusal', refusal: "I can't help with that." }]);
  });

  it('generates an instance of the text.format schema for $generate, the same for the same seed', async () => {
    mock.use(scenario('gen').respondWithGeneratedJson({ seed: 11 }).times(2));
    const a = await rig.openai.responses.parse({ model: 'gpt-4.1', input: 'x', text: { format } });
    const b = await rig.openai.responses.parse({ model: 'gpt-4.1', input: 'x', text: { format } });
    expect(Weather.safeParse(a.output_parsed).success).toBe(true);
    expect(b.output_parsed).toEqual(a.output_parsed);
  });

  it('answers an object that does not fit text.format with a scenario authoring error', async () => {
    mock.use(scenario('weather').respondWithJson({ city: 'Paris', temperature: 21, conditions: 'snow' }));
    const err = await rig.openai.responses.parse({ model: 'gpt-4.1', input: 'x', text: { format } }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toContain('weather#0: respond.json.conditions: must be one of "sunny", "cloudy", "rain"');
    expect(heard).toHaveLength(1);
  });

  it('answers a forced function (tool_choice naming it) with the object as its call, and JSON mode as text', async () => {
    const tool: OpenAI.Responses.FunctionTool = {
      type: 'function',
      name: 'extract_weather',
      strict: true,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    };
    mock.use(scenario('forced').respondWithJson({ city: 'Rome' }).expect().then().respondWithJson({ any: ['thing'] }));
    const forced = await rig.openai.responses.create({ model: 'gpt-4.1', input: 'Rome', tools: [tool], tool_choice: { type: 'function', name: 'extract_weather' } });
    expect(forced.output[0]).toMatchObject({ type: 'function_call', name: 'extract_weather', arguments: '{"city":"Rome"}' });
    expect(mock.requests[0].request).toMatchObject({ forcedTool: 'extract_weather', tools: [{ name: 'extract_weather', strict: true }] });
    const json = await rig.openai.responses.create({ model: 'gpt-4.1', input: 'json', text: { format: { type: 'json_object' } } });
    expect(JSON.parse(json.output_text)).toEqual({ any: ['thing'] });
  });
});

/** Event type → its schema name, from the spec's ResponseStreamEvent union. */
const EVENT_SCHEMAS: Map<string, string> = (() => {
  const schemas = JSON.parse(readFileSync(OPENAI_SPEC_PATH, 'utf8')).components.schemas;
  const map = new Map<string, string>();
  for (const ref of schemas.ResponseStreamEvent.anyOf ?? schemas.ResponseStreamEvent.oneOf) {
    const name = String(ref.$ref).split('/').at(-1)!;
    for (const type of schemas[name]?.properties?.type?.enum ?? []) map.set(type, name);
  }
  return map;
})();

describe('OpenAI Responses reasoning and refusals on the wire', () => {
  it('sends spec-valid objects and events for reasoning and a refusal, and the reader sees them', async () => {
    const mock = createMockLLM({
      scenarios: [scenario('r').respondWithReasoning('Step one.\n\nStep two.').respondWithText('Sure.').respondWithRefusal('Not that part.').withUsage({ inputTokens: 4, outputTokens: 20, reasoningTokens: 12 }).times(2)],
    });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
    const body = { model: 'o4-mini', input: 'x', reasoning: { summary: 'concise' as const } };
    await client.responses.create(body);
    const object = JSON.parse(await exchanges[0].body);
    expect(validateOpenAI('Response', object)).toEqual([]);
    expect(object.output[1].content).toEqual([{ type: 'output_text', text: 'Sure.', annotations: [], logprobs: [] }, { type: 'refusal', refusal: 'Not that part.' }]);
    const view = { text: 'Sure.', reasoning: 'Step one.\n\nStep two.', refusal: 'Not that part.', usage: { inputTokens: 4, outputTokens: 20, reasoningTokens: 12 } };
    expect(openAIResponsesReader.answer(object)).toMatchObject(view);

    await client.responses.stream(body).finalResponse();
    const text = await exchanges[1].body;
    const events = sseData(text).map((d) => JSON.parse(d));
    for (const event of events) {
      expect(EVENT_SCHEMAS.get(event.type), event.type).toBeDefined();
      expect(validateOpenAI(EVENT_SCHEMAS.get(event.type)!, event), event.type).toEqual([]);
    }
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types).toContain('response.reasoning_summary_part.added');
    expect(types).toContain('response.refusal.done');
    expect(openAIResponsesReader.streamedAnswer(text.split(/(?<=\n\n)/))).toMatchObject(view);
  });
});
