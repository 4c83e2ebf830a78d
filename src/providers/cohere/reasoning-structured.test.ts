import { CohereClientV2 } from 'cohere-ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { cohereReader } from './reader.ts';

// Cohere v2's thinking content and `response_format` as cohere-ai sends and reads them: through the
// SDK's own fetch answered in-process, and over the real port.
type Transport = 'in-process' | 'port';
let server: MockLLMServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(transport: Transport, scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  if (transport === 'port') {
    server = await startMockLLMServer({ mock });
    return { mock, client: new CohereClientV2({ token: 'co-test', maxRetries: 0, environment: server.url }) };
  }
  const { fetch } = capturingFetch(mock.handle);
  return { mock, client: new CohereClientV2({ token: 'co-test', maxRetries: 0, fetch }) };
}

const step = { respond: { reasoning: 'Recall the facts first.', text: 'Paris.', stream: { chunkSize: 7 } }, consume: false };
const messages = [{ role: 'user' as const, content: 'Capital of France?' }];

describe.each(['in-process', 'port'] as const)('Cohere thinking and structured outputs (%s)', (transport) => {
  it('sends a thinking content item before the text when thinking is enabled, streamed as thinking deltas at index 0', async () => {
    const { client } = await setup(transport, [{ name: 't', steps: [step] }]);
    const res = await client.chat({ model: 'command-a-03-2025', messages, thinking: { type: 'enabled' } });
    expect(res.message.content).toEqual([{ type: 'thinking', thinking: 'Recall the facts first.' }, { type: 'text', text: 'Paris.' }]);
    let thinking = '';
    let text = '';
    const starts: unknown[] = [];
    for await (const event of await client.chatStream({ model: 'command-a-03-2025', messages, thinking: { type: 'enabled', tokenBudget: 500 } })) {
      if (event.type === 'content-start') starts.push([event.index, event.delta?.message?.content?.type]);
      if (event.type === 'content-delta') {
        thinking += event.delta?.message?.content?.thinking ?? '';
        text += event.delta?.message?.content?.text ?? '';
      }
    }
    expect({ thinking, text }).toEqual({ thinking: 'Recall the facts first.', text: 'Paris.' });
    expect(starts).toEqual([[0, 'thinking'], [1, 'text']]);
  });

  it('reasoning models think by default; thinking disabled, or another model without it, shows none', async () => {
    const { client } = await setup(transport, [{ name: 't', steps: [step] }]);
    expect((await client.chat({ model: 'command-a-reasoning-08-2025', messages })).message.content?.[0]).toEqual({ type: 'thinking', thinking: 'Recall the facts first.' });
    expect((await client.chat({ model: 'command-a-reasoning-08-2025', messages, thinking: { type: 'disabled' } })).message.content).toEqual([{ type: 'text', text: 'Paris.' }]);
    expect((await client.chat({ model: 'command-a-03-2025', messages })).message.content).toEqual([{ type: 'text', text: 'Paris.' }]);
  });

  it('answers response_format json_object with a json_schema: the object as text, streamed too; a mismatch is an authoring error', async () => {
    const jsonSchema = { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer' } }, required: ['city', 'population'] };
    const value = { city: 'Paris', population: 2100000 };
    const { mock, client } = await setup(transport, [
      {
        name: 's',
        steps: [
          { match: { responseFormat: true }, respond: { json: value } },
          { respond: { json: value, stream: { chunkSize: 6 } } },
          { respond: { json: { city: 'Paris' } } },
        ],
      },
    ]);
    const responseFormat = { type: 'json_object' as const, jsonSchema };
    const res = await client.chat({ model: 'command-a-03-2025', messages, responseFormat });
    expect(JSON.parse(res.message.content![0].type === 'text' ? res.message.content![0].text : '')).toEqual(value);
    expect(mock.requests[0].request!.responseFormat).toEqual({ name: null, schema: jsonSchema });
    let text = '';
    for await (const event of await client.chatStream({ model: 'command-a-03-2025', messages, responseFormat })) if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
    expect(JSON.parse(text)).toEqual(value);
    await expect(client.chat({ model: 'command-a-03-2025', messages, responseFormat })).rejects.toThrow('s#2: respond.json.population: is required by the schema');
  });
});

describe('Cohere structured outputs: details', () => {
  it('$generate builds an instance of the schema; json_object without a schema takes any value', async () => {
    const { client } = await setup('in-process', [{ name: 'g', steps: [{ respond: { json: { $generate: true, seed: 2 } } }, { respond: { json: [1, 2] } }] }]);
    const jsonSchema = { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['n'] };
    const first = await client.chat({ model: 'command-a-03-2025', messages, responseFormat: { type: 'json_object', jsonSchema } });
    const item = first.message.content![0];
    const n = JSON.parse(item.type === 'text' ? item.text : '{}').n;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(5);
    const second = await client.chat({ model: 'command-a-03-2025', messages, responseFormat: { type: 'json_object' } });
    const text = second.message.content![0];
    expect(JSON.parse(text.type === 'text' ? text.text : '')).toEqual([1, 2]);
  });

  it('strict_tools checks scripted calls; tool_choice REQUIRED with one tool forces it, so the object is its call', async () => {
    const tool = { type: 'function' as const, function: { name: 'save', parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } };
    const { mock, client } = await setup('in-process', [{ name: 't', steps: [{ respond: { json: { id: 7 } } }, { respond: { toolCalls: [{ name: 'save', arguments: {} }] } }] }]);
    const res = await client.chat({ model: 'command-a-03-2025', messages, tools: [tool], toolChoice: 'REQUIRED', strictTools: true });
    expect(JSON.parse(res.message.toolCalls![0].function!.arguments!)).toEqual({ id: 7 });
    expect(mock.requests[0].request).toMatchObject({ forcedTool: 'save', tools: [{ name: 'save', strict: true }] });
    await expect(client.chat({ model: 'command-a-03-2025', messages, tools: [tool], strictTools: true })).rejects.toThrow('t#1: respond.toolCalls[0].arguments.id: is required by the schema');
  });

  it('the reader reads thinking content as reasoning, whole and streamed', () => {
    expect(cohereReader.answer({ message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'T' }, { type: 'text', text: 'A' }] }, finish_reason: 'COMPLETE' })).toMatchObject({ text: 'A', reasoning: 'T' });
    const frames = [{ type: 'content-delta', index: 0, delta: { message: { content: { thinking: 'T1' } } } }, { type: 'content-delta', index: 1, delta: { message: { content: { text: 'A' } } } }].map(
      (d) => `event: ${d.type}\ndata: ${JSON.stringify(d)}\n\n`,
    );
    expect(cohereReader.streamedAnswer(frames)).toMatchObject({ text: 'A', reasoning: 'T1' });
  });
});
