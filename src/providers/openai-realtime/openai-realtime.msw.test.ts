// OpenAI Realtime in-process: MSW's WebSocket interception next to the user's own handlers, through
// the openai SDK's OpenAIRealtimeWebSocket (the global WebSocket, which MSW intercepts).
import OpenAI from 'openai';
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { http, HttpResponse, ws } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers, mockLLMRealtimeHandlers } from '../../transports/msw.ts';
import { scenario } from '../../scenario/builder.ts';

const mock = createMockLLM({
  scenarios: scenario('voice agent')
    .expect().withTools(['lookup_order']).withLastMessage({ contains: 'order' })
    .then().respondWithToolCalls([{ name: 'lookup_order', arguments: { id: '42' } }])
    .expect().withToolResults(['lookup_order'])
    .then().respondWithText('Your order ships tomorrow.'),
});
const userEcho = ws.link('wss://echo.example/socket');
const server = setupServer(
  ...mockLLMHandlers(mock),
  ...mockLLMRealtimeHandlers(mock),
  http.get('https://api.example/ping', () => HttpResponse.json({ ok: true })),
  userEcho.addEventListener('connection', ({ client }) => client.addEventListener('message', (e) => client.send(`echo:${String(e.data)}`))),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

test("a voice agent's tool loop over MSW: the SDK's WebSocket client, ghostwire's ws handler, the user's own handlers side by side", async () => {
  const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
  const events: RealtimeServerEvent[] = [];
  rt.on('event', (e) => events.push(e));
  const next = (type: string, n = 1) =>
    new Promise<void>((resolve) => {
      const check = () => events.filter((e) => e.type === type).length >= n && (rt.off('event', check), resolve());
      rt.on('event', check);
      check();
    });
  await next('session.created');
  rt.send({ type: 'session.update', session: { type: 'realtime', tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object' } }] } });
  rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'where is my order?' }] } });
  rt.send({ type: 'response.create' });
  await next('response.done');
  const call = events.find((e) => e.type === 'response.function_call_arguments.done');
  if (call?.type !== 'response.function_call_arguments.done') throw new Error('no call');
  expect(JSON.parse(call.arguments)).toEqual({ id: '42' });
  rt.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id, output: '{"ships":"tomorrow"}' } });
  rt.send({ type: 'response.create' });
  await next('response.done', 2);
  // Audio is the session's default output: the transcript carries the text.
  expect(events.flatMap((e) => (e.type === 'response.output_audio_transcript.done' ? [e.transcript] : []))).toEqual(['Your order ships tomorrow.']);
  expect(events.filter((e) => e.type === 'response.output_audio.delta').length).toBeGreaterThan(0);
  mock.assertAllConsumed();
  rt.close();

  // The user's own handlers keep answering: HTTP and another WebSocket.
  expect(await (await fetch('https://api.example/ping')).json()).toEqual({ ok: true });
  const echo = new WebSocket('wss://echo.example/socket');
  const reply = await new Promise<string>((resolve) => {
    echo.onopen = () => echo.send('hi');
    echo.onmessage = (e) => resolve(String(e.data));
  });
  expect(reply).toBe('echo:hi');
  echo.close();
});

test('a client on the `ws` package (OpenAIRealtimeWS), whose frames MSW does not carry, is refused with a 501 naming what works', async () => {
  const { OpenAIRealtimeWS } = await import('openai/realtime/ws');
  const journaled = mock.requests.length;
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
  const status = await new Promise<number>((resolve) => rt.socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
  rt.on('error', () => undefined);
  expect(status).toBe(501);
  // Refused before the mock: nothing journaled, no session opened.
  expect(mock.requests.length).toBe(journaled);
});
