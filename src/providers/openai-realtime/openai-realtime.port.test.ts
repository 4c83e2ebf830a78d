// OpenAI Realtime on the real port, through the openai SDK's own WebSocket client (OpenAIRealtimeWS, the `ws` package).
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { scenario } from '../../scenario/builder.ts';
import { speechSamples } from '../common/pcm.ts';

let server: MockLLMServer;

beforeAll(async () => {
  server = await startMockLLMServer();
});
afterAll(() => server.close());

/** Opens a connection on `sessionId` (a fresh session with `scenarios`) and collects every server event. */
async function connect(scenarios: Parameters<MockLLMServer['sessions']['create']>[0]['scenarios'], path = '') {
  const id = `rt${Math.random().toString(36).slice(2, 10)}`;
  server.sessions.create({ id, scenarios });
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.sessionUrl(id)}${path}/v1` });
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { createConnection: server.plainSocket } }, client);
  const events: RealtimeServerEvent[] = [];
  const errors: Error[] = [];
  rt.on('event', (e) => events.push(e));
  rt.on('error', (e) => errors.push(e));
  await new Promise<void>((resolve, reject) => {
    rt.socket.once('open', () => resolve());
    rt.socket.once('error', reject);
  });
  /** Resolves with the events so far once one of `type` arrives (the `n`-th one). */
  const until = (type: string, n = 1) =>
    new Promise<RealtimeServerEvent[]>((resolve) => {
      const check = () => {
        if (events.filter((e) => e.type === type).length >= n) {
          rt.off('event', check);
          resolve([...events]);
        }
      };
      rt.on('event', check);
      check();
    });
  return { rt, events, errors, until, mock: server.sessions.get(id)!.mock };
}

const types = (events: RealtimeServerEvent[]) => events.map((e) => e.type);

describe('OpenAI Realtime over the real port (OpenAIRealtimeWS)', () => {
  test('a text turn: session.created, item events, the response events in the API order, usage', async () => {
    const { rt, until, mock } = await connect(scenario('hi').expect().withLastMessage({ contains: 'hello' }).then().respondWithText('Hi there, friend!'));
    await until('session.created');
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.' } });
    const updated = await until('session.updated');
    const session = updated.find((e) => e.type === 'session.updated')!;
    expect(session.type === 'session.updated' && session.session).toMatchObject({ type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.', model: 'gpt-realtime' });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] } });
    rt.send({ type: 'response.create' });
    const events = await until('response.done');
    const turn = types(events).slice(types(events).indexOf('conversation.item.added'));
    expect(turn.filter((t) => t !== 'response.output_text.delta')).toEqual([
      'conversation.item.added',
      'conversation.item.done',
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
    ]);
    const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    expect(deltas.join('')).toBe('Hi there, friend!');
    const done = events.find((e) => e.type === 'response.done')!;
    if (done.type !== 'response.done') throw new Error('unreachable');
    expect(done.response.status).toBe('completed');
    expect(done.response.output?.[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi there, friend!' }] });
    expect(done.response.usage?.output_tokens).toBeGreaterThan(0);
    await until('rate_limits.updated');
    // The journal has every frame both ways and the turn with its canonical request.
    const turnEntry = mock.requests.find((r) => r.request !== null)!;
    expect(turnEntry.request!.messages.at(-1)).toEqual({ role: 'user', content: 'hello there' });
    expect(turnEntry.request!.headers.authorization).toBe('[REDACTED]');
    expect(mock.requests.filter((r) => r.frame?.direction === 'client').map((r) => JSON.parse(r.frame!.data).type)).toEqual(['session.update', 'conversation.item.create', 'response.create']);
    rt.close();
  });

  test('an audio turn: server VAD on appended audio, the scripted transcript, PCM16 at 24 kHz of a length set by the text', async () => {
    const { rt, until } = await connect({ name: 'voice', steps: [{ match: { audio: true }, inputTranscript: 'what is the weather', respond: { text: 'It is sunny.' } }] });
    rt.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { transcription: { model: 'gpt-4o-transcribe' } } } } });
    await until('session.updated');
    const speech = Buffer.alloc(24_000 * 2 * 0.5);
    for (let i = 0; i < speech.length / 2; i++) speech.writeInt16LE(i % 2 ? 3000 : -3000, i * 2);
    const silence = Buffer.alloc(24_000 * 2 * 0.3);
    rt.send({ type: 'input_audio_buffer.append', audio: speech.toString('base64') });
    rt.send({ type: 'input_audio_buffer.append', audio: silence.toString('base64') });
    const events = await until('response.done');
    const order = types(events);
    expect(order.indexOf('input_audio_buffer.speech_started')).toBeLessThan(order.indexOf('input_audio_buffer.speech_stopped'));
    expect(order.indexOf('input_audio_buffer.speech_stopped')).toBeLessThan(order.indexOf('input_audio_buffer.committed'));
    const started = events.find((e) => e.type === 'input_audio_buffer.speech_started');
    const stopped = events.find((e) => e.type === 'input_audio_buffer.speech_stopped');
    expect(started?.type === 'input_audio_buffer.speech_started' && started.audio_start_ms).toBe(0);
    expect(stopped?.type === 'input_audio_buffer.speech_stopped' && stopped.audio_end_ms).toBe(500);
    const transcript = events.find((e) => e.type === 'conversation.item.input_audio_transcription.completed');
    expect(transcript).toMatchObject({ transcript: 'what is the weather', content_index: 0 });
    const audio = Buffer.concat(events.flatMap((e) => (e.type === 'response.output_audio.delta' ? [Buffer.from(e.delta, 'base64')] : [])));
    expect(audio.length).toBe(speechSamples('It is sunny.', 24_000) * 2);
    const said = events.flatMap((e) => (e.type === 'response.output_audio_transcript.delta' ? [e.delta] : [])).join('');
    expect(said).toBe('It is sunny.');
    expect(events.find((e) => e.type === 'response.output_audio_transcript.done')).toMatchObject({ transcript: 'It is sunny.' });
    rt.close();
  });
});
