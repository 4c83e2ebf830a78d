/**
 * Structured outputs through @anthropic-ai/sdk as users call it: `messages.parse()` with
 * `zodOutputFormat()`, `messages.stream()` with `output_config.format`, the forced-tool trick, strict
 * tools, scripted values that do not fit the request's schema, `$generate`, and refusals.
 */
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { anthropicReader } from './reader.ts';

const MODEL = 'claude-sonnet-4-6';
const Weather = z.object({ city: z.string(), temperature: z.number(), unit: z.enum(['C', 'F']) });
const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris as JSON' };

function setup(scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const heard: string[] = [];
  mock.onAuthoringError((m) => heard.push(m));
  return { mock, client: new Anthropic({ apiKey: 'sk-ant-test', fetch, maxRetries: 0 }), exchanges, heard };
}

describe('Anthropic structured outputs', () => {
  it('answers messages.parse() with zodOutputFormat: parsed_output is the scripted object, matched by match.responseFormat', async () => {
    const { mock, client } = setup([
      {
        name: 'weather',
        steps: [
          { match: { responseFormat: true }, respond: { json: { city: 'Paris', temperature: 21, unit: 'C' } } },
          { respond: { text: 'plain chat' } },
        ],
      },
    ]);
    const parsed = await client.messages.parse({ model: MODEL, max_tokens: 512, messages: [ask], output_config: { format: zodOutputFormat(Weather) } });
    expect(parsed.parsed_output).toEqual({ city: 'Paris', temperature: 21, unit: 'C' });
    expect(parsed.content[0]).toMatchObject({ type: 'text', text: '{"city":"Paris","temperature":21,"unit":"C"}' });
    expect(mock.requests[0].request?.responseFormat?.schema).toMatchObject({ type: 'object', required: ['city', 'temperature', 'unit'] });
    const chat = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.content[0]).toMatchObject({ text: 'plain chat' });
  });

  it('streams a structured answer: MessageStream.finalMessage() carries parsed_output', async () => {
    const { client } = setup([{ name: 's', steps: [{ respond: { json: { city: 'Oslo', temperature: -3, unit: 'C' }, stream: { chunkSize: 7 } } }] }]);
    const stream = client.messages.stream({ model: MODEL, max_tokens: 512, messages: [ask], output_config: { format: zodOutputFormat(Weather) } });
    const final = await stream.finalMessage();
    expect(final.parsed_output).toEqual({ city: 'Oslo', temperature: -3, unit: 'C' });
  });

  it('reports a scripted object that does not fit the request schema as a scenario error naming the step and path', async () => {
    const { client, heard } = setup([{ name: 'weather', steps: [{ respond: { json: { city: 'Paris', temperature: 'warm', unit: 'C' } } }] }]);
    const err = await client.messages.parse({ model: MODEL, max_tokens: 512, messages: [ask], output_config: { format: zodOutputFormat(Weather) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.BadRequestError>).message).toContain('weather#0: respond.json.temperature: must be number');
    expect(heard).toEqual([expect.stringContaining('weather#0: respond.json.temperature: must be number')]);
  });

  it('generates a deterministic instance of the request schema for { $generate: true }, on the real port', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'g', steps: [{ respond: { json: { $generate: true, seed: 7 } }, consume: false }] }] });
    try {
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
      const params = { model: MODEL, max_tokens: 512, messages: [ask], output_config: { format: zodOutputFormat(Weather) } };
      const a = await client.messages.parse(params);
      const b = await client.messages.parse(params);
      expect(Weather.parse(a.parsed_output)).toEqual(a.parsed_output);
      expect(b.parsed_output).toEqual(a.parsed_output);
    } finally {
      await server.close();
    }
  });

  it('takes the beta top-level output_format (raw JSON Schema) as the same response format', async () => {
    const { mock, client } = setup([{ name: 'b', steps: [{ respond: { json: { $generate: true } } }] }]);
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 3, maximum: 3 } }, required: ['n'], additionalProperties: false };
    const res = await client.beta.messages.create({ model: MODEL, max_tokens: 64, messages: [ask], output_format: { type: 'json_schema', schema } } as never);
    expect(JSON.parse((res as any).content[0].text)).toEqual({ n: 3 });
    expect(mock.requests[0].request?.responseFormat).toEqual({ name: null, schema });
  });

  it('answers a forced tool (tool_choice type tool) with the object as that tool call, checked against its input_schema', async () => {
    const tool: Anthropic.Tool = { name: 'record_weather', input_schema: z.toJSONSchema(Weather) as Anthropic.Tool.InputSchema };
    const { client } = setup([{ name: 'forced', steps: [{ respond: { json: { city: 'Rome', temperature: 30, unit: 'C' } } }, { respond: { json: { city: 'Rome' } } }] }]);
    const params = { model: MODEL, max_tokens: 256, messages: [ask], tools: [tool], tool_choice: { type: 'tool' as const, name: 'record_weather' } };
    const res = await client.messages.create(params);
    expect(res.stop_reason).toBe('tool_use');
    expect(res.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'record_weather', input: { city: 'Rome', temperature: 30, unit: 'C' } })]);
    const bad = await client.messages.create(params).catch((e: unknown) => e);
    expect((bad as Error).message).toContain("forced#1: respond.json.temperature: is required by the schema");
  });

  it("checks scripted calls of strict tools against their input_schema, and leaves other tools' calls alone", async () => {
    const strict: Anthropic.Tool = { name: 'get_weather', strict: true, input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } };
    const { client } = setup([{ name: 'strict', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { town: 'Paris' } }] }, consume: false }] }]);
    const err = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [ask], tools: [strict] }).catch((e: unknown) => e);
    expect((err as Error).message).toContain('strict#0: respond.toolCalls[0].arguments.city: is required by the schema');
    const loose = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [ask], tools: [{ ...strict, strict: false }] });
    expect(loose.content[0]).toMatchObject({ type: 'tool_use', input: { town: 'Paris' } });
  });

  it("refuses with stop_reason 'refusal' and the explanation in stop_details, streamed too; the reader shows it", async () => {
    const { client, exchanges } = setup([{ name: 'no', steps: [{ respond: { refusal: 'I can not help with that.' }, consume: false }] }]);
    const res = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [ask] });
    expect(res.stop_reason).toBe('refusal');
    expect(res.content).toEqual([]);
    expect(res.stop_details).toEqual({ type: 'refusal', category: null, explanation: 'I can not help with that.' });
    const final = await client.messages.stream({ model: MODEL, max_tokens: 64, messages: [ask] }).finalMessage();
    expect(final.stop_reason).toBe('refusal');
    expect(final.stop_details).toEqual(res.stop_details);
    expect(anthropicReader.answer(JSON.parse(await exchanges[0].body))).toMatchObject({ refusal: 'I can not help with that.', finishReason: 'refusal' });
    expect(anthropicReader.streamedAnswer((await exchanges[1].body).split(/(?<=\n\n)/))).toMatchObject({ refusal: 'I can not help with that.' });
  });
});
