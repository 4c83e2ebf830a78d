import { afterEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { startRig, TRANSPORTS, type SdkRig } from '../testing/sdk-rig.ts';
import { ollamaReader } from './reader.ts';

// Ollama's thinking (`think` → `message.thinking` / `thinking`) and structured outputs (`format`)
// as the `ollama` SDK sends and reads them.
const recipe = { type: 'object', properties: { name: { type: 'string' }, minutes: { type: 'integer' } }, required: ['name', 'minutes'] };

describe.each(TRANSPORTS)('Ollama thinking and structured outputs over %s', (transport) => {
  let rig: SdkRig | undefined;
  const start = async (scenarios: ScenarioInput[]) => {
    const mock = createMockLLM({ scenarios });
    rig = await startRig(transport, mock);
    return { mock, ollama: rig.ollama };
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });
  const thinkStep = { respond: { reasoning: 'Let me think about it.', text: 'Blue light scatters.', stream: { chunkSize: 8 } }, consume: false };

  it('sends message.thinking when the request sets think (true or a level), streamed as thinking lines first', async () => {
    const { ollama } = await start([{ name: 't', steps: [thinkStep] }]);
    const messages = [{ role: 'user', content: 'Why is the sky blue?' }];
    const whole = await ollama.chat({ model: 'qwen3', messages, think: true, stream: false });
    expect(whole.message).toMatchObject({ thinking: 'Let me think about it.', content: 'Blue light scatters.' });
    let thinking = '';
    let content = '';
    const order: string[] = [];
    for await (const part of await ollama.chat({ model: 'gpt-oss', messages, think: 'high', stream: true })) {
      if (part.message.thinking) order.push('thinking');
      if (part.message.content) order.push('content');
      thinking += part.message.thinking ?? '';
      content += part.message.content;
    }
    expect({ thinking, content }).toEqual({ thinking: 'Let me think about it.', content: 'Blue light scatters.' });
    expect(order.indexOf('content')).toBeGreaterThan(order.lastIndexOf('thinking'));
    const generated = await ollama.generate({ model: 'qwen3', prompt: 'Why?', think: true, stream: false });
    expect(generated).toMatchObject({ thinking: 'Let me think about it.', response: 'Blue light scatters.' });
  });

  it('sends no thinking when think is false or absent', async () => {
    const { ollama } = await start([{ name: 't', steps: [thinkStep] }]);
    const messages = [{ role: 'user', content: 'q' }];
    expect((await ollama.chat({ model: 'qwen3', messages, think: false, stream: false })).message.thinking).toBeUndefined();
    expect((await ollama.chat({ model: 'qwen3', messages, stream: false })).message.thinking).toBeUndefined();
  });

  it('answers format: <JSON Schema> with the scripted object as content, streamed too; a mismatch is an authoring error', async () => {
    const value = { name: 'Soup', minutes: 15 };
    const { mock, ollama } = await start([{ name: 'f', steps: [{ match: { responseFormat: true }, respond: { json: value } }, { respond: { json: value, stream: { chunkSize: 5 } } }, { respond: { json: { name: 'Soup' } } }] }]);
    const messages = [{ role: 'user', content: 'A recipe' }];
    expect(JSON.parse((await ollama.chat({ model: 'llama3.2', messages, format: recipe, stream: false })).message.content)).toEqual(value);
    expect(mock.requests[0].request!.responseFormat).toEqual({ name: null, schema: recipe });
    let text = '';
    for await (const part of await ollama.generate({ model: 'llama3.2', prompt: 'A recipe', format: recipe, stream: true })) text += part.response;
    expect(JSON.parse(text)).toEqual(value);
    await expect(ollama.chat({ model: 'llama3.2', messages, format: recipe, stream: false })).rejects.toThrow('f#2: respond.json.minutes: is required by the schema');
  });

  it('format: "json" takes any value; $generate builds one from a schema format', async () => {
    const { ollama } = await start([{ name: 'j', steps: [{ respond: { json: ['a', 1] } }, { respond: { json: { $generate: true, seed: 3 } } }] }]);
    const messages = [{ role: 'user', content: 'x' }];
    expect(JSON.parse((await ollama.chat({ model: 'llama3.2', messages, format: 'json', stream: false })).message.content)).toEqual(['a', 1]);
    const generated = JSON.parse((await ollama.chat({ model: 'llama3.2', messages, format: recipe, stream: false })).message.content);
    expect(typeof generated.name).toBe('string');
    expect(Number.isInteger(generated.minutes)).toBe(true);
  });

  it('refuses a format that is neither "json" nor a schema, as Ollama does', async () => {
    const { ollama } = await start([{ name: 'x', steps: [{ respond: { text: 'never' } }] }]);
    await expect(ollama.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'x' }], format: 'xml', stream: false })).rejects.toThrow('invalid format: expected "json" or a valid JSON schema');
  });
});

describe('Ollama reader', () => {
  it('reads thinking as reasoning, whole and streamed', () => {
    expect(ollamaReader.answer({ message: { role: 'assistant', content: 'A', thinking: 'T' }, done: true, prompt_eval_count: 1, eval_count: 2 })).toMatchObject({ text: 'A', reasoning: 'T' });
    const lines = [{ message: { content: '', thinking: 'T1' }, done: false }, { message: { content: 'A' }, done: false }].map((l) => JSON.stringify(l));
    expect(ollamaReader.streamedAnswer!(lines)).toMatchObject({ text: 'A', reasoning: 'T1' });
  });
});
