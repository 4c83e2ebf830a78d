// The OpenAI Agents SDK's realtime session (RealtimeSession over its WebSocket transport, the `ws`
// package on Node) against the real port: the SDK runs the tool itself and ghostwire answers each turn.
import { RealtimeAgent, RealtimeSession, tool } from '@openai/agents-realtime';
import { z } from 'zod';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { scenario } from '../../scenario/builder.ts';

let server: MockLLMServer;
beforeAll(async () => {
  server = await startMockLLMServer({
    scenarios: scenario('agents sdk weather')
      .expect().withTools(['get_weather']).withLastMessage({ contains: 'Paris' })
      .then().respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
      .expect().withToolResults(['get_weather'])
      .then().respondWithText('It is 21 degrees and sunny in Paris.'),
  });
});
afterAll(() => server.close());

test('RealtimeSession: connect by URL, a tool the SDK runs, the answer in its history', async () => {
  const cities: string[] = [];
  const getWeather = tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      cities.push(city);
      return `21 degrees and sunny in ${city}`;
    },
  });
  const agent = new RealtimeAgent({ name: 'Weather', instructions: 'Answer about the weather.', tools: [getWeather] });
  const session = new RealtimeSession(agent, { transport: 'websocket', model: 'gpt-realtime' });
  const errors: unknown[] = [];
  session.on('error', (e) => errors.push(e));
  await session.connect({ apiKey: 'sk-test', url: `${server.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime` });
  const answered = new Promise<void>((resolve) => {
    session.on('history_updated', (history) => {
      const text = JSON.stringify(history);
      if (text.includes('It is 21 degrees and sunny in Paris.')) resolve();
    });
  });
  session.sendMessage('What is the weather in Paris?');
  await answered;
  expect(cities).toEqual(['Paris']);
  expect(errors).toEqual([]);
  server.mock.assertAllConsumed();
  const turns = server.mock.requests.filter((r) => r.request);
  expect(turns.at(-1)!.request!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('21 degrees and sunny in Paris') });
  session.close();
});
