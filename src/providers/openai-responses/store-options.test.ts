import OpenAI from 'openai';
import { afterEach, expect, it } from 'vitest';
import { createMockLLM, defaultAdapters, openAIResponsesAdapter } from '../../index.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';

let server: MockLLMServer | undefined;
afterEach(async () => server?.close());

it("the README's recipe from the package root: a smaller Responses store, every other provider kept", async () => {
  const mock = createMockLLM({
    scenarios: [{ name: 'n', steps: [{ respond: { text: 'x' }, consume: false }] }],
    adapters: defaultAdapters().map((a) => (a.id === 'openai-responses' ? openAIResponsesAdapter({ storeLimit: 1 }) : a)),
  });
  server = await startMockLLMServer({ mock });
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const first = await client.responses.create({ model: 'gpt-4.1', input: 'one' });
  const second = await client.responses.create({ model: 'gpt-4.1', input: 'two' });
  expect(await client.responses.retrieve(first.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  expect((await client.responses.retrieve(second.id)).output_text).toBe('x');
  const chat = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  expect(chat.choices[0].message.content).toBe('x');
});
