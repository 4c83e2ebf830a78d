/**
 * A voice agent's tool loop over OpenAI Realtime, answered by ghostwire: in-process (`useMockLLM`,
 * with the SDK's Node client OpenAIRealtimeWS or its global-WebSocket client OpenAIRealtimeWebSocket),
 * on a real port (`startMockLLMServer`, for code outside the test's process), and from a golden
 * (every frame of the conversation recorded once, replayed since). The user's speech is audio the
 * test makes up; the scenario says what the mock "hears" in it (`withAudioInput`).
 *
 *   npx ghostwire test --record-goldens examples/realtime-voice-agent.test.ts -t golden   # re-record (against a local mock)
 */
import OpenAI from 'openai';
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { afterAll, describe, expect } from 'vitest';
import { scenario } from 'ghostwire';
import { startMockLLMServer } from 'ghostwire/server';
import { test, useMockLLM } from 'ghostwire/vitest';
import type { MockLLMServer } from 'ghostwire/server';

type Realtime = OpenAIRealtimeWebSocket | OpenAIRealtimeWS;

// The code under test: speaks the user's audio, runs the tools the model calls, returns what the model said.
async function voiceAgent(rt: Realtime, speech: Buffer, tools: Record<string, (args: Record<string, unknown>) => unknown>, output: 'audio' | 'text' = 'audio'): Promise<string> {
  const said: string[] = [];
  const done = new Promise<void>((resolve, reject) => {
    rt.on('error', reject);
    rt.on('response.output_audio_transcript.done', (e) => said.push(e.transcript));
    rt.on('response.output_text.done', (e) => said.push(e.text));
    rt.on('response.done', (e) => {
      const calls = (e.response.output ?? []).flatMap((item) => (item.type === 'function_call' ? [item] : []));
      if (calls.length === 0) return resolve();
      for (const call of calls) {
        const output = tools[call.name](JSON.parse(call.arguments) as Record<string, unknown>);
        rt.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id!, output: JSON.stringify(output) } });
      }
      rt.send({ type: 'response.create' });
    });
  });
  await new Promise<void>((resolve) => rt.on('session.created', () => resolve()));
  rt.send({
    type: 'session.update',
    session: { type: 'realtime', output_modalities: [output], instructions: 'You are a shop assistant.', tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object', properties: { id: { type: 'string' } } } }] },
  });
  // Speech, then 200 ms of silence: the server's voice activity detection ends the turn.
  rt.send({ type: 'input_audio_buffer.append', audio: speech.toString('base64') });
  rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(24_000 * 2 * 0.2).toString('base64') });
  await done;
  rt.close();
  return said.join(' ');
}

/** 0.1 s of "speech" at 24 kHz PCM16: any sound louder than silence will do. */
const speech = Buffer.alloc(24_000 * 2 * 0.1, Buffer.from([0x00, 0x10]));

const orderStatus = () =>
  scenario('order status by voice')
    .expect().withAudioInput('where is my order 42').withTools(['lookup_order'])
    .then().respondWithToolCalls([{ name: 'lookup_order', arguments: { id: '42' } }])
    .expect().withToolResults(['lookup_order']).withMessage({ role: 'user', content: { contains: 'order 42' } })
    .then().respondWithText('Order 42 ships tomorrow.');

describe('a voice agent with a tool', () => {
  test('in-process: useMockLLM answers the SDK WebSocket client through MSW', async () => {
    const mock = useMockLLM(orderStatus());
    const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
    const lookups: unknown[] = [];
    const answer = await voiceAgent(rt, speech, { lookup_order: (args) => (lookups.push(args), { status: 'ships tomorrow' }) });
    expect(answer).toBe('Order 42 ships tomorrow.');
    expect(lookups).toEqual([{ id: '42' }]);
    mock.assertAllConsumed();
    // The journal shows the turns the model saw: the transcript the scenario gave the audio, then the tool result.
    const turns = mock.requests.filter((r) => r.request);
    expect(turns.at(-1)!.request!.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'You are a shop assistant.'],
      ['user', 'where is my order 42'],
      ['assistant', ''],
      ['tool', '{"status":"ships tomorrow"}'],
    ]);
  });

  test("in-process: the SDK's Node client (OpenAIRealtimeWS, on the ws package) the same way", async () => {
    const mock = useMockLLM(orderStatus());
    const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
    expect(await voiceAgent(rt, speech, { lookup_order: () => ({ status: 'ships tomorrow' }) })).toBe('Order 42 ships tomorrow.');
    mock.assertAllConsumed();
  });

  test('on a real port: the SDK OpenAIRealtimeWS client (the ws package)', async () => {
    const server = await startMockLLMServer({ scenarios: orderStatus() });
    try {
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` });
      // The SDK always dials wss://; plainSocket reaches the plain-TCP port instead.
      const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { createConnection: server.plainSocket } }, client);
      const events: RealtimeServerEvent[] = [];
      rt.on('event', (e) => events.push(e));
      const answer = await voiceAgent(rt, speech, { lookup_order: () => ({ status: 'ships tomorrow' }) });
      expect(answer).toBe('Order 42 ships tomorrow.');
      expect(events.find((e) => e.type === 'input_audio_buffer.speech_stopped')).toMatchObject({ audio_end_ms: 100 });
      server.mock.assertAllConsumed();
    } finally {
      await server.close();
    }
  });

  describe('from a golden', () => {
    let upstream: MockLLMServer | null = null;
    afterAll(async () => upstream?.close());

    test('golden: the voice agent answers from the recorded conversation', async ({ golden }) => {
      if (golden.mode === 'record') {
        // A real provider would answer for itself; this example records against the local mock.
        upstream = await startMockLLMServer({ scenarios: orderStatus() });
        golden.upstream(upstream.url);
      }
      const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'sk-example' }));
      const lookups: unknown[] = [];
      const answer = await voiceAgent(rt, speech, { lookup_order: (args) => (lookups.push(args), { status: 'ships tomorrow' }) }, 'text');
      expect({ answer, lookups }).toMatchGolden();
      // In replay, the golden holds the conversation: every frame both ways, with its offset.
      if (golden.mode === 'replay') expect(golden.read()!.realtime![0].frames.length).toBeGreaterThan(10);
    });
  });
});
