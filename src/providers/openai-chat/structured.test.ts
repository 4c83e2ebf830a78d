import OpenAI from 'openai';
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startRig, TRANSPORTS, type SdkRig } from '../testing/sdk-rig.ts';
import { validateOpenAI } from '../testing/openapi.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';

// Structured outputs on Chat Completions (issue 26) through the SDK's own helpers, as users call
// them: `parse` with zodResponseFormat / zodFunction, the `stream` helper, refusals, JSON mode,
// generated answers and scenario authoring errors; over MSW and the real port.

const Weather = z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) });
const weatherFormat = zodResponseFormat(Weather, 'weather_report');
const ask = (content: string): OpenAI.Chat.ChatCompletionMessageParam[] => [{ role: 'user', content }];

describe.each(TRANSPORTS)('OpenAI Chat structured outputs over %s', (transport) => {
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

  it('answers chat.completions.parse with the scripted object, parsed by zodResponseFormat', async () => {
    mock.use(scenario('weather').respondWithJson({ city: 'Paris', temperature: 21, conditions: 'sunny' }));
    const completion = await rig.openai.chat.completions.parse({ model: 'gpt-4o-2024-08-06', messages: ask('Weather in Paris?'), response_format: weatherFormat });
    const message = completion.choices[0].message;
    expect(message.parsed).toEqual({ city: 'Paris', temperature: 21, conditions: 'sunny' });
    expect(message.content).toBe('{"city":"Paris","temperature":21,"conditions":"sunny"}');
    expect(message.refusal).toBeNull();
    // The canonical request carries the schema's name and the JSON Schema the helper sent.
    expect(mock.requests[0].request?.responseFormat).toMatchObject({ name: 'weather_report', schema: { type: 'object', required: ['city', 'temperature', 'conditions'] } });
  });

  it('streams the object through the stream helper: content deltas, then the parsed message', async () => {
    mock.use(scenario('weather').respondWithJson({ city: 'Oslo', temperature: -3, conditions: 'cloudy' }).asStream({ chunkSize: 7 }));
    const stream = rig.openai.chat.completions.stream({ model: 'gpt-4o', messages: ask('Oslo?'), response_format: weatherFormat });
    const deltas: string[] = [];
    stream.on('content.delta', ({ delta }) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('{"city":"Oslo","temperature":-3,"conditions":"cloudy"}');
    expect(final.choices[0].message.parsed).toEqual({ city: 'Oslo', temperature: -3, conditions: 'cloudy' });
  });

  it('renders a refusal as the message refusal, which parse returns instead of an object (streaming too)', async () => {
    mock.use(scenario('no').respondWithRefusal("I'm sorry, I can't help with that.").asStream({ chunkSize: 5 }));
    const completion = await rig.openai.chat.completions.parse({ model: 'gpt-4o', messages: ask('Something bad'), response_format: weatherFormat });
    expect(completion.choices[0].message).toMatchObject({ content: null, refusal: "I'm sorry, I can't help with that.", parsed: null });
    expect(completion.choices[0].finish_reason).toBe('stop');

    mock.reset();
    mock.use(scenario('no').respondWithRefusal("I'm sorry, I can't help with that.").asStream({ chunkSize: 5 }));
    const stream = rig.openai.chat.completions.stream({ model: 'gpt-4o', messages: ask('Something bad'), response_format: weatherFormat });
    const refusalDeltas: string[] = [];
    let done = '';
    stream.on('refusal.delta', ({ delta }) => refusalDeltas.push(delta));
    stream.on('refusal.done', ({ refusal }) => (done = refusal));
    const final = await stream.finalChatCompletion();
    expect(refusalDeltas.join('')).toBe("I'm sorry, I can't help with that.");
    expect(refusalDeltas.length).toBeGreaterThan(1);
    expect(done).toBe("I'm sorry, I can't help with that.");
    expect(final.choices[0].message.parsed).toBeNull();
  });

  it('generates an instance of the request schema for $generate: the same seed gives the same object', async () => {
    mock.use(scenario('gen').respondWithGeneratedJson({ seed: 7 }).times(2));
    const first = await rig.openai.chat.completions.parse({ model: 'gpt-4o', messages: ask('any'), response_format: weatherFormat });
    const second = await rig.openai.chat.completions.parse({ model: 'gpt-4o', messages: ask('any'), response_format: weatherFormat });
    const parsed = first.choices[0].message.parsed;
    expect(Weather.safeParse(parsed).success).toBe(true);
    expect(second.choices[0].message.parsed).toEqual(parsed);
  });

  it('answers a scripted object that does not fit the schema with a scenario authoring error naming the step and path', async () => {
    mock.use(scenario('weather').respondWithJson({ city: 'Paris', temperature: 'warm', conditions: 'sunny' }));
    const err = await rig.openai.chat.completions.parse({ model: 'gpt-4o', messages: ask('x'), response_format: weatherFormat }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toContain('weather#0: respond.json.temperature: must be number');
    expect(err.code).toBe('scenario_authoring_error');
    expect(heard).toEqual([expect.stringContaining('weather#0: respond.json.temperature')]);
  });

  it('answers JSON mode (json_object) with the object as text', async () => {
    mock.use(scenario('json').respondWithJson({ ok: true, items: [1, 2] }));
    const completion = await rig.openai.chat.completions.create({ model: 'gpt-4o', messages: ask('json please'), response_format: { type: 'json_object' } });
    expect(JSON.parse(completion.choices[0].message.content!)).toEqual({ ok: true, items: [1, 2] });
    expect(mock.requests[0].request?.responseFormat).toEqual({ name: null, schema: null });
  });

  it('answers a forced strict function with the object as its call, parsed by zodFunction', async () => {
    const extract = zodFunction({ name: 'extract_weather', parameters: Weather });
    mock.use(scenario('forced').respondWithJson({ city: 'Rome', temperature: 30, conditions: 'sunny' }));
    const completion = await rig.openai.chat.completions.parse({
      model: 'gpt-4o',
      messages: ask('Rome'),
      tools: [extract],
      tool_choice: { type: 'function', function: { name: 'extract_weather' } },
    });
    const call = completion.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && call.function.parsed_arguments).toEqual({ city: 'Rome', temperature: 30, conditions: 'sunny' });
    // A call of the function tool_choice names ends with 'stop' (the API's answer, vllm-project/vllm#25054).
    expect(completion.choices[0].finish_reason).toBe('stop');
    const canonical = mock.requests[0].request!;
    expect(canonical.forcedTool).toBe('extract_weather');
    expect(canonical.tools[0].strict).toBe(true);
  });

  it("ends a named tool_choice's call with 'stop' streamed too, and a required or automatic one with 'tool_calls'", async () => {
    const extract = zodFunction({ name: 'extract_weather', parameters: Weather });
    mock.use(scenario('call').respondWithToolCalls([{ name: 'extract_weather', arguments: { city: 'Rome', temperature: 30, conditions: 'sunny' } }]).persistent());
    const finishes: Array<string | null> = [];
    for (let i = 0; i < 2; i++) {
      // Twice: the second answer comes from a template, keyed apart from the unnamed choice's.
      const stream = rig.openai.chat.completions.stream({ model: 'gpt-4o', messages: ask('Rome'), tools: [extract], tool_choice: { type: 'function', function: { name: 'extract_weather' } } });
      finishes.push((await stream.finalChatCompletion()).choices[0].finish_reason);
      for (const tool_choice of ['required', 'auto'] as const) {
        const other = rig.openai.chat.completions.stream({ model: 'gpt-4o', messages: ask('Rome'), tools: [extract], tool_choice });
        finishes.push((await other.finalChatCompletion()).choices[0].finish_reason);
      }
    }
    expect(finishes).toEqual(['stop', 'tool_calls', 'tool_calls', 'stop', 'tool_calls', 'tool_calls']);
  });

  it("checks a scripted call of a strict tool against the tool's parameters", async () => {
    const extract = zodFunction({ name: 'extract_weather', parameters: Weather });
    mock.use(scenario('calls').respondWithToolCalls([{ name: 'extract_weather', arguments: { city: 'Rome' } }]));
    const err = await rig.openai.chat.completions.create({ model: 'gpt-4o', messages: ask('Rome'), tools: [extract] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toContain('calls#0: respond.toolCalls[0].arguments.temperature: is required by the schema');
  });

  it('matches on the response format: the extraction call and the chat call of one flow get different answers', async () => {
    mock.use(
      scenario('flow')
        .expect()
        .withResponseFormat('weather_report')
        .then()
        .respondWithJson({ city: 'Nice', temperature: 25, conditions: 'sunny' })
        .expect()
        .then()
        .respondWithText('It is sunny in Nice.'),
    );
    const text = await rig.openai.chat.completions.create({ model: 'gpt-4o', messages: ask('Tell me') });
    const parsed = await rig.openai.chat.completions.parse({ model: 'gpt-4o', messages: ask('Extract'), response_format: weatherFormat });
    expect(text.choices[0].message.content).toBe('It is sunny in Nice.');
    expect(parsed.choices[0].message.parsed).toEqual({ city: 'Nice', temperature: 25, conditions: 'sunny' });
  });
});

describe('OpenAI Chat structured outputs on the wire', () => {
  it('sends the spec-valid refusal body and stream chunks', async () => {
    const mock = createMockLLM({ scenarios: [scenario('no').respondWithRefusal('No.').times(2)] });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o', messages: ask('x') });
    const body = JSON.parse(await exchanges[0].body);
    expect(validateOpenAI('CreateChatCompletionResponse', body)).toEqual([]);
    expect(body.choices[0].message).toEqual({ role: 'assistant', content: null, refusal: 'No.', annotations: [] });
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: ask('x'), stream: true });
    for await (const _ of stream);
    const chunks = sseData(await exchanges[1].body).slice(0, -1).map((d) => JSON.parse(d));
    for (const chunk of chunks) expect(validateOpenAI('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    expect(chunks.map((c) => c.choices[0].delta)).toEqual([{ role: 'assistant', content: null, refusal: '' }, { refusal: 'No.' }, {}]);
  });
});
