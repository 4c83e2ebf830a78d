/**
 * The mock LLM, three ways: `useMockLLM` inside a test (MSW, in-process), the `mockLLM` fixture,
 * and a real port for code that runs outside the test's process. The clients are the official SDKs,
 * used exactly as application code uses them: only the network answer is fake.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import { scenario, openai, anthropic } from 'ghostwire';
import { startMockLLMServer } from 'ghostwire/server';
import { test, useMockLLM } from 'ghostwire/vitest';

// The code under test: a tiny agent that calls a weather tool when the model asks for it.
async function weatherAgent(client: OpenAI, question: string): Promise<string> {
  const tools: OpenAI.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ];
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
  for (;;) {
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
    const message = completion.choices[0].message;
    if (!message.tool_calls?.length) return message.content ?? '';
    messages.push(message);
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const { city } = JSON.parse(call.function.arguments) as { city: string };
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ city, tempC: 21 }) });
    }
  }
}

const weather = scenario('weather')
  .variables({ city: 'Paris' })
  .expect(openai())
  .withLastMessage({ contains: 'weather' })
  .then()
  .respondWithToolCalls([{ name: 'get_weather', arguments: { city: '{{city}}' } }])
  .expectToolResults()
  .expect(openai())
  .withToolResults(['get_weather'])
  .then()
  .respondWithText('It is 21°C in {{city}}.');

describe('useMockLLM: scenarios answer the SDKs in-process', () => {
  test('a multi-turn tool loop progresses through the steps', async () => {
    const mock = useMockLLM(weather);
    const answer = await weatherAgent(new OpenAI({ apiKey: 'sk-test' }), 'What is the weather in Paris?');
    expect(answer).toBe('It is 21°C in Paris.');
    expect(mock.requests.map((r) => r.status)).toEqual([200, 200]);
    mock.assertAllConsumed();
  });

  test('a request nothing matches gets a 404 that names the closest step', async () => {
    useMockLLM(scenario('only-claude').expect(anthropic()).withModel('claude-sonnet-4-5').then().respondWithText('hi'));
    const client = new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 });
    const call = client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    // The body is Anthropic's own error shape; its message lists each near miss and the constraint it failed.
    const body = (error as InstanceType<typeof Anthropic.NotFoundError>).error as { error: { message: string } };
    expect(body.error.message).toContain('only-claude#0: model: expected "claude-sonnet-4-5", got "claude-haiku-4-5"');
  });

  test("a stream that fails midway: the app keeps what arrived and sees the SDK's own error", async () => {
    // Anthropic sends `event: error` (overloaded_error) mid-stream; the SDK throws it as an APIError.
    useMockLLM(scenario('overloaded').expect(anthropic()).then().respondWithText('The first half arrives, the rest never does.').asStream({ chunkSize: 5 }).failStreamAfter(5, 'Overloaded', { type: 'overloaded_error' }));
    const client = new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 });
    let shown = '';
    const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('text', (delta) => (shown += delta));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ type: 'overloaded_error', apiMessage: 'Overloaded' });
    expect(shown).toBe('The first '); // message_start, content_block_start and ping, then two deltas of five characters
  });
});

describe('the mockLLM fixture', () => {
  test('streams a scripted answer to the openai SDK', async ({ mockLLM }) => {
    mockLLM.use(scenario('stream').respondWithText('Hello, streaming world').asStream({ chunkSize: 5 }));
    const stream = await new OpenAI({ apiKey: 'sk-test' }).chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    expect(pieces.join('')).toBe('Hello, streaming world');
    expect(pieces.filter(Boolean)).toEqual(['Hello', ', str', 'eamin', 'g wor', 'ld']);
  });
});

describe('a real port, with sessions for parallel isolation', () => {
  test('two sessions on one server do not see each other', async () => {
    const server = await startMockLLMServer();
    try {
      const a = server.sessions.create({ scenarios: [scenario('a').respondWithText('from A').persistent()] });
      const b = server.sessions.create({ scenarios: [scenario('b').respondWithText('from B').persistent()] });
      const ask = async (sessionId: string) => {
        const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.sessionUrl(sessionId)}/v1` });
        const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
        return completion.choices[0].message.content;
      };
      expect(await Promise.all([ask(a.id), ask(b.id), ask(a.id)])).toEqual(['from A', 'from B', 'from A']);
      expect(a.mock.requests).toHaveLength(2);
      expect(b.mock.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
