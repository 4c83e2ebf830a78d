// OpenAI Realtime on the real port, through the openai SDK's own WebSocket client (OpenAIRealtimeWS, the `ws` package).
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import type { ScenarioList } from '../../transports/mock-llm.ts';
import { scenario } from '../../scenario/builder.ts';
import { speechSamples } from '../common/pcm.ts';

let server: MockLLMServer;

beforeAll(async () => {
  server = await startMockLLMServer();
});
afterAll(() => server.close());

/** Opens a connection on `sessionId` (a fresh session with `scenarios`) and collects every server event. */
async function connect(scenarios: ScenarioList, path = '') {
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

  test('a function-call round trip: arguments streamed, function_call_output answered with the next step', async () => {
    const { rt, until, mock } = await connect(
      scenario('weather')
        .expect().withTools(['get_weather']).withLastMessage({ contains: 'Paris' })
        .then().respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }]).expectToolResults()
        .expect().withToolResults(['get_weather'])
        .then().respondWithText('It is 21 degrees in Paris.'),
    );
    const tool = { type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [tool] } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] } });
    rt.send({ type: 'response.create' });
    const first = await until('response.done');
    const call = first.find((e) => e.type === 'response.function_call_arguments.done');
    if (call?.type !== 'response.function_call_arguments.done') throw new Error('no function call');
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(call.call_id).toMatch(/^call_[A-Za-z0-9]{16}$/);
    const argDeltas = first.flatMap((e) => (e.type === 'response.function_call_arguments.delta' ? [e.delta] : [])).join('');
    expect(argDeltas).toBe(call.arguments);
    const done = first.findLast((e) => e.type === 'response.done');
    expect(done?.type === 'response.done' && done.response.output?.[0]).toMatchObject({ type: 'function_call', name: 'get_weather', call_id: call.call_id, status: 'completed' });
    rt.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify({ temperature: 21 }) } });
    rt.send({ type: 'response.create' });
    const second = await until('response.done', 2);
    expect(second.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : []))).toEqual(['It is 21 degrees in Paris.']);
    const turns = mock.requests.filter((r) => r.request !== null);
    expect(turns.at(-1)!.request!.messages.slice(-2)).toEqual([
      { role: 'assistant', content: '', toolCalls: [{ id: call.call_id, name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', content: '{"temperature":21}', toolCallId: call.call_id },
    ]);
    expect(mock.unconsumed()).toEqual([]);
    rt.close();
  });

  test('invalid and unknown client events get an error event naming the fault; the connection stays open', async () => {
    const { rt, until, errors } = await connect(scenario('hi').respondWithText('still here'));
    rt.socket.send('{not json');
    rt.socket.send(Buffer.from([0xff, 0xfe, 0x00]), { binary: true });
    rt.send({ type: 'no.such.event', event_id: 'evt_client_1' } as never);
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user' } } as never);
    rt.send({ type: 'session.update', session: { instructions: 'x' } } as never);
    rt.send({ type: 'response.cancel' });
    const events = await until('error', 6);
    const errorEvents = events.filter((e) => e.type === 'error').map((e) => (e.type === 'error' ? e.error : null));
    expect(errorEvents.map((e) => [e?.code, e?.param])).toEqual([
      ['invalid_json', null],
      ['invalid_json', null],
      ['invalid_value', 'type'],
      ['missing_required_parameter', 'item.content'],
      ['missing_required_parameter', 'session.type'],
      ['response_cancel_not_active', null],
    ]);
    expect(errorEvents[2]).toMatchObject({ type: 'invalid_request_error', event_id: 'evt_client_1' });
    expect(errorEvents[2]?.message).toContain("'response.create'");
    // The SDK surfaces them as OpenAIRealtimeError on its `error` listener.
    expect(errors).toHaveLength(6);
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ok?' }] } });
    rt.send({ type: 'response.create' });
    const after = await until('response.done');
    expect(after.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : []))).toEqual(['still here']);
    rt.close();
  });

  test("a step's respond.error and a turn no step matches arrive as error events", async () => {
    const { rt, until } = await connect([
      scenario('limited').expect().withLastMessage({ contains: 'limit' }).then().respondWithError(429, 'Rate limit reached for gpt-realtime').build(),
    ]);
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hit the limit' }] } });
    rt.send({ type: 'response.create', event_id: 'evt_rc' });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'something else' }] } });
    rt.send({ type: 'response.create' });
    const events = await until('error', 2);
    const [limited, unmatched] = events.flatMap((e) => (e.type === 'error' ? [e.error] : []));
    expect(limited).toMatchObject({ message: 'Rate limit reached for gpt-realtime', event_id: 'evt_rc' });
    expect(unmatched.code).toBe('no_matching_step');
    expect(unmatched.message).toContain('no scenario step matched this openai-realtime request');
    expect(events.some((e) => e.type === 'response.created')).toBe(false);
    rt.close();
  });

  test('response.cancel stops a paced response: response.done says cancelled, client_cancelled', async () => {
    const { rt, until, events } = await connect({ name: 'slow', steps: [{ respond: { text: 'A long answer that takes a while to say out loud.', stream: { chunkDelayMs: 30 } } }] });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'talk' }] } });
    rt.send({ type: 'response.create' });
    await until('response.output_audio.delta', 2);
    rt.send({ type: 'response.cancel' });
    await until('response.done');
    const done = events.find((e) => e.type === 'response.done');
    if (done?.type !== 'response.done') throw new Error('no response.done');
    expect(done.response.status).toBe('cancelled');
    expect(done.response.status_details).toEqual({ type: 'cancelled', reason: 'client_cancelled' });
    expect(done.response.output?.[0]).toMatchObject({ status: 'incomplete' });
    const deltas = events.filter((e) => e.type === 'response.output_audio.delta').length;
    expect(deltas).toBeLessThan(speechSamples('A long answer that takes a while to say out loud.', 24_000) / 2400);
    expect(events.some((e) => e.type === 'response.output_audio.done')).toBe(false);
    rt.close();
  });

  test('conversation.item.truncate and .delete answer with their events; unknown ids are errors', async () => {
    const { rt, until } = await connect(scenario('hi').respondWithText('Hello!'));
    rt.send({ type: 'conversation.item.create', item: { id: 'item_user1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } });
    rt.send({ type: 'response.create' });
    const events = await until('response.done');
    const done = events.find((e) => e.type === 'response.done');
    const assistantId = done?.type === 'response.done' ? done.response.output![0].id! : '';
    rt.send({ type: 'conversation.item.truncate', item_id: assistantId, content_index: 0, audio_end_ms: 120 });
    rt.send({ type: 'conversation.item.delete', item_id: 'item_user1' });
    rt.send({ type: 'conversation.item.delete', item_id: 'item_user1' });
    const later = await until('error');
    expect(later.find((e) => e.type === 'conversation.item.truncated')).toMatchObject({ item_id: assistantId, content_index: 0, audio_end_ms: 120 });
    expect(later.find((e) => e.type === 'conversation.item.deleted')).toMatchObject({ item_id: 'item_user1' });
    expect(later.find((e) => e.type === 'error')).toMatchObject({ error: { code: 'item_delete_invalid_item_id', param: 'item_id' } });
    rt.close();
  });

  test("Azure's realtime path (AzureOpenAI client, OpenAIRealtimeWS.azure) reaches the same sessions", async () => {
    const { AzureOpenAI } = await import('openai');
    const id = 'azurert';
    server.sessions.create({ id, scenarios: scenario('az').respondWithText('from azure') });
    const azure = new AzureOpenAI({ apiKey: 'azure-key', endpoint: server.sessionUrl(id), apiVersion: '2025-04-01-preview', deployment: 'my-realtime' });
    const rt = await OpenAIRealtimeWS.azure(azure, { options: { createConnection: server.plainSocket } });
    const events: RealtimeServerEvent[] = [];
    rt.on('event', (e) => events.push(e));
    await new Promise<void>((resolve) => rt.socket.once('open', () => resolve()));
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } });
    rt.send({ type: 'response.create' });
    await new Promise<void>((resolve) => rt.on('response.done', () => resolve()));
    expect(events[0]).toMatchObject({ type: 'session.created', session: { model: 'my-realtime' } });
    expect(events.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : []))).toEqual(['from azure']);
    const turn = server.sessions.get(id)!.mock.requests.find((r) => r.request)!;
    expect(turn.path).toBe('/openai/v1/realtime');
    expect(turn.request!.headers['api-key']).toBe('[REDACTED]');
    rt.close();
  });

  test('upgrades are guarded like HTTP: a foreign Origin, an unknown session or a path without a realtime API get no socket', async () => {
    const { WebSocket } = await import('ws');
    const refusal = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error(`${url} opened`)));
        ws.on('error', () => undefined);
      });
    const base = server.url.replace('http', 'ws');
    expect(await refusal(`${base}/v1/realtime?model=gpt-realtime`, { origin: 'https://evil.example' })).toBe(403);
    expect(await refusal(`${base}/v1/realtime?model=gpt-realtime`, { host: 'evil.example' })).toBe(403);
    expect(await refusal(`${base}/s/nosuch/v1/realtime?model=gpt-realtime`)).toBe(404);
    expect(await refusal(`${base}/v1/chat/completions`)).toBe(404);
  });

  test('a non-WebSocket upgrade (an h2c attempt) stays a plain HTTP request', async () => {
    const { connect: dial } = await import('node:net');
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const answer = await new Promise<string>((resolve) => {
      const socket = dial(server.port, '127.0.0.1', () =>
        socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nauthorization: Bearer sk-test\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`),
      );
      let out = '';
      socket.on('data', (d) => {
        out += d;
        if (out.includes('no scenario step matched')) {
          socket.destroy();
          resolve(out);
        }
      });
    });
    // Answered by the chat adapter (this server's default session has no steps: its 404 in OpenAI's shape), not refused as an upgrade.
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(answer).toContain('"code":"no_matching_step"');
  });

  test('frames are journaled with the configured secrets redacted', async () => {
    const redacting = await startMockLLMServer({ scenarios: scenario('hi').respondWithText('ok'), redact: { values: ['hunter2-secret'] } });
    try {
      const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { createConnection: redacting.plainSocket } }, new OpenAI({ apiKey: 'sk-test', baseURL: `${redacting.url}/v1` }));
      await new Promise<void>((resolve) => rt.socket.once('open', () => resolve()));
      rt.send({ type: 'session.update', session: { type: 'realtime', instructions: 'the password is hunter2-secret' } });
      await new Promise<void>((resolve) => rt.on('session.updated', () => resolve()));
      const frames = redacting.mock.requests.flatMap((r) => (r.frame ? [r.frame.data] : []));
      expect(frames.some((f) => f.includes('the password is [REDACTED]'))).toBe(true);
      expect(frames.join('\n')).not.toContain('hunter2-secret');
      rt.close();
    } finally {
      await redacting.close();
    }
  });

  test('manual turns (turn_detection: null): append, clear, commit (at least 100 ms), then response.create', async () => {
    const { rt, until } = await connect({ name: 'manual', steps: [{ match: { audio: true }, inputTranscript: 'hello by voice', respond: { text: 'Heard you.' } }] });
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input: { turn_detection: null } } } });
    const loud = Buffer.alloc(24_000 * 2 * 0.2, Buffer.from([0x00, 0x10]));
    rt.send({ type: 'input_audio_buffer.append', audio: loud.subarray(0, 2400).toString('base64') });
    rt.send({ type: 'input_audio_buffer.commit' });
    rt.send({ type: 'input_audio_buffer.clear' });
    rt.send({ type: 'input_audio_buffer.append', audio: loud.toString('base64') });
    rt.send({ type: 'input_audio_buffer.commit' });
    const committed = await until('input_audio_buffer.committed');
    const tooShort = committed.find((e) => e.type === 'error');
    expect(tooShort).toMatchObject({ error: { code: 'input_audio_buffer_commit_empty' } });
    expect(tooShort?.type === 'error' && tooShort.error.message).toContain('buffer only has 50.00ms of audio');
    expect(types(committed)).toContain('input_audio_buffer.cleared');
    expect(types(committed).some((t) => t.startsWith('input_audio_buffer.speech'))).toBe(false);
    const item = committed.find((e) => e.type === 'input_audio_buffer.committed');
    rt.send({ type: 'response.create' });
    const events = await until('response.done');
    expect(events.find((e) => e.type === 'conversation.item.added' && e.item.id === (item?.type === 'input_audio_buffer.committed' ? item.item_id : ''))).toMatchObject({ item: { role: 'user', content: [{ type: 'input_audio', transcript: null }] } });
    expect(events.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : []))).toEqual(['Heard you.']);
    rt.close();
  });

  test('speech over a paced response cancels it (turn_detected), then the new turn is answered', async () => {
    const { rt, until, events } = await connect({
      name: 'barge-in',
      steps: [
        { match: { audio: false }, respond: { text: 'A long story that goes on and on and on for quite a while.', stream: { chunkDelayMs: 20 } } },
        { match: { audio: true }, inputTranscript: 'stop', respond: { text: 'Okay.' } },
      ],
    });
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['audio'] } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'tell me a story' }] } });
    rt.send({ type: 'response.create' });
    await until('response.output_audio.delta', 2);
    rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(4800, Buffer.from([0x00, 0x10])).toString('base64') });
    rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(24_000 * 2 * 0.3).toString('base64') });
    await until('response.done', 2);
    const dones = events.flatMap((e) => (e.type === 'response.done' ? [e.response] : []));
    expect(dones.map((r) => [r.status, r.status_details?.reason ?? null])).toEqual([
      ['cancelled', 'turn_detected'],
      ['completed', null],
    ]);
    // The new turn's response starts only after the interrupted one is done.
    const order = types(events);
    expect(order.indexOf('response.done')).toBeLessThan(order.lastIndexOf('response.created'));
    expect(events.flatMap((e) => (e.type === 'response.output_audio_transcript.done' ? [e.transcript] : []))).toEqual(['Okay.']);
    rt.close();
  });

  test("response.create with conversation: 'none' answers out of band: no conversation.item events, nothing added", async () => {
    const { rt, until, mock } = await connect({ name: 'oob', steps: [{ respond: { text: 'side answer' }, consume: false }] });
    rt.send({ type: 'response.create', response: { conversation: 'none', output_modalities: ['text'], input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'classify this' }] }] } });
    const events = await until('response.done');
    expect(types(events).filter((t) => t.startsWith('conversation.item'))).toEqual([]);
    expect(mock.requests.find((r) => r.request)!.request!.messages).toEqual([{ role: 'user', content: 'classify this' }]);
    rt.send({ type: 'response.create', response: { output_modalities: ['text'] } });
    await until('response.done', 2);
    // The out-of-band input and answer never joined the conversation.
    expect(mock.requests.filter((r) => r.request).at(-1)!.request!.messages).toEqual([]);
    rt.close();
  });

  test("conversation.item.create with input_audio: the client's transcript is matched, the audio bytes are not echoed or kept", async () => {
    const { rt, until, mock } = await connect(scenario('spoken').expect().withAudioInput().withLastMessage({ contains: 'refund' }).then().respondWithText('Refund started.'));
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    const audio = Buffer.alloc(48_000, 7).toString('base64');
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_audio', audio, transcript: 'I want a refund' }] } });
    rt.send({ type: 'response.create' });
    const events = await until('response.done');
    const added = events.find((e) => e.type === 'conversation.item.added');
    expect(added?.type === 'conversation.item.added' && added.item).toMatchObject({ role: 'user', content: [{ type: 'input_audio', transcript: 'I want a refund' }] });
    expect(JSON.stringify(added)).not.toContain(audio.slice(0, 64));
    expect(events.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : []))).toEqual(['Refund started.']);
    expect(mock.requests.find((r) => r.request)!.request!.messages.at(-1)).toEqual({ role: 'user', content: 'I want a refund', audio: true });
    rt.close();
  });
});
