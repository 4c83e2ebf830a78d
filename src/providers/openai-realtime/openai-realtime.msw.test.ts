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

test('a client on the `ws` package (OpenAIRealtimeWS) is carried too: its upgrade is answered and its socket taken over', async () => {
  const { OpenAIRealtimeWS } = await import('openai/realtime/ws');
  const local = createMockLLM({ scenarios: { name: 'ws', steps: [{ respond: { text: 'over the ws package' } }] } });
  // A base URL without the API version, as mockLLMHandlers takes them: the client's is `${base}/v1`.
  server.use(...mockLLMHandlers(local, { baseUrls: ['https://llm.internal.test'] }));
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test', baseURL: 'https://llm.internal.test/v1' }));
  const events: RealtimeServerEvent[] = [];
  rt.on('event', (e) => events.push(e));
  const done = new Promise<void>((resolve) => rt.on('response.done', () => resolve()));
  rt.on('session.created', () => {
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    rt.send({ type: 'response.create' });
  });
  await done;
  expect(events.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : []))).toEqual(['over the ws package']);
  expect(local.requests.filter((r) => r.frame?.direction === 'client').map((r) => JSON.parse(r.frame!.data).type)).toEqual(['session.update', 'response.create']);
  rt.close();
  server.resetHandlers();
});
