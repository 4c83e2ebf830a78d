import type { ContentChunk } from '@mistralai/mistralai/models/components';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { startRig, TRANSPORTS, type SdkRig } from '../testing/sdk-rig.ts';
import { mistralReader } from './reader.ts';

// Magistral's `thinking` chunks and Mistral's structured outputs (`response_format`, `chat.parse`
// with zod) as @mistralai/mistralai sends and reads them.
const thinkingText = (content: string | ContentChunk[] | null | undefined): string =>
  Array.isArray(content) ? content.flatMap((c) => (c.type === 'thinking' ? c.thinking.map((t) => ('text' in t ? t.text : '')) : [])).join('') : '';
const answerText = (content: string | ContentChunk[] | null | undefined): string =>
  typeof content === 'string' ? content : (content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');

describe.each(TRANSPORTS)('Mistral reasoning and structured outputs over %s', (transport) => {
  let rig: SdkRig | undefined;
  const start = async (scenarios: ScenarioInput[]) => {
    const mock = createMockLLM({ scenarios });
    rig = await startRig(transport, mock);
    return { mock, client: rig.mistral };
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });
  const step = { respond: { reasoning: 'The capital of France is Paris.', text: 'Paris.', stream: { chunkSize: 9 } }, consume: false };
  const messages = [{ role: 'user' as const, content: 'Capital of France?' }];

  it("applies none of OpenAI's protocol rules: Mistral documents none (an unanswered tool call is answered)", async () => {
    const { client, mock } = await start([{ name: 'm', steps: [{ respond: { text: 'ok' } }] }]);
    const res = await client.chat.complete({
      model: 'mistral-large-latest',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'abcdefghi', type: 'function', function: { name: 'w', arguments: '{}' } }] },
        { role: 'user', content: 'never mind' },
      ],
    });
    expect(answerText(res.choices[0].message!.content)).toBe('ok');
    expect(mock.requests[0].violation).toBeUndefined();
  });

  it('Magistral answers with a thinking chunk before the text, streamed as thinking deltas first', async () => {
    const { client } = await start([{ name: 'm', steps: [step] }]);
    const res = await client.chat.complete({ model: 'magistral-medium-latest', messages });
    const content = res.choices[0].message!.content;
    expect(Array.isArray(content) && content[0].type).toBe('thinking');
    expect(thinkingText(content)).toBe('The capital of France is Paris.');
    expect(answerText(content)).toBe('Paris.');
    let thinking = '';
    let text = '';
    for await (const event of await client.chat.stream({ model: 'magistral-small-latest', messages })) {
      const delta = event.data.choices[0].delta.content;
      thinking += thinkingText(delta);
      if (typeof delta === 'string' && delta !== '') {
        expect(thinking).toBe('The capital of France is Paris.');
        text += delta;
      }
    }
    expect({ thinking, text }).toEqual({ thinking: 'The capital of France is Paris.', text: 'Paris.' });
  });

  it('other models think only when reasoning_effort asks (and not for "none")', async () => {
    const { client } = await start([{ name: 'm', steps: [step] }]);
    expect((await client.chat.complete({ model: 'mistral-large-latest', messages })).choices[0].message!.content).toBe('Paris.');
    expect((await client.chat.complete({ model: 'mistral-medium-latest', messages, reasoningEffort: 'none' })).choices[0].message!.content).toBe('Paris.');
    expect(thinkingText((await client.chat.complete({ model: 'mistral-medium-latest', messages, reasoningEffort: 'high' })).choices[0].message!.content)).toBe('The capital of France is Paris.');
  });

  it('chat.parse with a zod schema returns the scripted object; the named json_schema is matched and checked', async () => {
    const Book = z.object({ title: z.string(), year: z.number().int() });
    const { mock, client } = await start([
      { name: 'b', steps: [{ match: { responseFormat: 'placeholderName' }, respond: { json: { title: 'Dune', year: 1965 } } }, { match: { responseFormat: true }, respond: { json: { title: 'Dune' } } }] },
    ]);
    const res = await client.chat.parse({ model: 'mistral-large-latest', messages: [{ role: 'user', content: 'A book' }], responseFormat: Book });
    expect(res.choices![0].message!.parsed).toEqual({ title: 'Dune', year: 1965 });
    // The SDK names every zod schema `placeholderName` (it cannot see the variable's name).
    expect(mock.requests[0].request!.responseFormat).toMatchObject({ name: 'placeholderName', schema: { type: 'object', required: ['title', 'year'] } });
    await expect(client.chat.parse({ model: 'mistral-large-latest', messages: [{ role: 'user', content: 'A book' }], responseFormat: Book })).rejects.toThrow(
      'b#1: respond.json.year: is required by the schema',
    );
  });

  it('json_schema streamed and $generate; json_object takes any value', async () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 3, maximum: 9 } }, required: ['n'], additionalProperties: false };
    const { client } = await start([{ name: 'g', steps: [{ respond: { json: { $generate: true, seed: 5 }, stream: { chunkSize: 3 } } }, { respond: { json: 'just a string' } }] }]);
    let text = '';
    const stream = await client.chat.stream({ model: 'mistral-small-latest', messages, responseFormat: { type: 'json_schema', jsonSchema: { name: 'n', schemaDefinition: schema, strict: true } } });
    for await (const event of stream) text += typeof event.data.choices[0].delta.content === 'string' ? event.data.choices[0].delta.content : '';
    const value = JSON.parse(text);
    expect(value.n).toBeGreaterThanOrEqual(3);
    expect(value.n).toBeLessThanOrEqual(9);
    const res = await client.chat.complete({ model: 'mistral-small-latest', messages, responseFormat: { type: 'json_object' } });
    expect(JSON.parse(res.choices[0].message!.content as string)).toBe('just a string');
  });

  it('a named tool_choice forces the tool: the object becomes its call; strict tools check scripted arguments', async () => {
    const tool = { type: 'function' as const, function: { name: 'save', strict: true, parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } };
    const { mock, client } = await start([{ name: 't', steps: [{ respond: { json: { id: 4 } } }, { respond: { toolCalls: [{ name: 'save', arguments: { id: 'four' } }] } }] }]);
    const res = await client.chat.complete({ model: 'mistral-large-latest', messages, tools: [tool], toolChoice: { type: 'function', function: { name: 'save' } } });
    expect(JSON.parse(res.choices[0].message!.toolCalls![0].function.arguments as string)).toEqual({ id: 4 });
    expect(mock.requests[0].request).toMatchObject({ forcedTool: 'save', tools: [{ name: 'save', strict: true }] });
    await expect(client.chat.complete({ model: 'mistral-large-latest', messages, tools: [tool] })).rejects.toThrow('t#1: respond.toolCalls[0].arguments.id: must be integer');
  });
});

describe('Mistral reader', () => {
  it('reads thinking chunks as reasoning, whole and streamed', () => {
    const body = { object: 'chat.completion', choices: [{ message: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'T' }] }, { type: 'text', text: 'A' }] }, finish_reason: 'stop' }] };
    expect(mistralReader.answer(body)).toMatchObject({ text: 'A', reasoning: 'T' });
    const frames = [{ choices: [{ delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'T1' }] }] } }] }, { choices: [{ delta: { content: 'A' } }] }].map((d) => `data: ${JSON.stringify(d)}\n\n`);
    expect(mistralReader.streamedAnswer(frames)).toMatchObject({ text: 'A', reasoning: 'T1' });
  });
});
