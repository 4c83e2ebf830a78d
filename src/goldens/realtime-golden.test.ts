// Realtime goldens: an OpenAI Realtime and a Gemini Live conversation recorded (every frame, both ways,
// with its offset) against the mock server as upstream, then replayed with the upstream stopped.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GoogleGenAI, Modality, type LiveServerMessage } from '@google/genai/web';
import OpenAI from 'openai';
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket';
import { OpenAIRealtimeError } from 'openai/realtime/internal-base';
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { scenario } from '../scenario/builder.ts';
import { parseGolden, serializeGolden } from './store.ts';
import { inspectGolden } from './inspect.ts';
import { tempRuntime } from './testing/runtime.ts';

const KEY = 'sk-realtime-key-not-secret';

/**
 * A voice tool loop over OpenAI Realtime (text output, so the run is easy to read), on either SDK client.
 * It ends at the last `response.done` (closing the socket), or with `untilClose`, when the server closes it;
 * `events` collects every server event's type.
 */
async function openaiRun(client: 'websocket' | 'ws' = 'websocket', { untilClose = false, events = [] as string[] } = {}): Promise<{ said: string[]; calls: unknown[]; closeCode?: number }> {
  const { OpenAIRealtimeWS } = await import('openai/realtime/ws');
  const rt = client === 'ws' ? new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: KEY })) : new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: KEY }));
  const run = { said: [] as string[], calls: [] as unknown[] };
  const closed = untilClose && rt instanceof OpenAIRealtimeWebSocket ? new Promise<number>((resolve) => rt.socket.addEventListener('close', (e) => resolve(e.code))) : null;
  await new Promise<void>((resolve, reject) => {
    rt.on('error', reject);
    rt.on('event', (e) => events.push(e.type));
    rt.on('response.output_text.done', (e) => run.said.push(e.text));
    rt.on('response.done', (e) => {
      const calls = (e.response.output ?? []).flatMap((i) => (i.type === 'function_call' ? [i] : []));
      if (calls.length === 0) return closed ? undefined : resolve();
      for (const call of calls) {
        run.calls.push(JSON.parse(call.arguments));
        rt.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id!, output: '{"tempC":21}' } });
      }
      rt.send({ type: 'response.create' });
    });
    rt.on('session.created', () => {
      rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }] } });
      rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'weather in Paris?' }] } });
      rt.send({ type: 'response.create' });
    });
    void closed?.then(() => resolve());
  });
  if (closed) return { ...run, closeCode: await closed };
  rt.close();
  return run;
}

const weather = scenario('weather')
  .expect().withLastMessage({ contains: 'weather' })
  .then().respondWithToolCalls([{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }])
  .expect().withToolResults(['get_weather'])
  .then().respondWithText('Sunny, 21 degrees.');

/** A recording session for test `name` in a temp test `file`, its upstream `upstream`, intercepting. */
async function recordAgainst(upstream: string, file: string, name: string) {
  const { runtime, root } = tempRuntime('record');
  const testFile = join(root, file);
  const recording = runtime.session(testFile, name);
  recording.setUpstream(upstream);
  await recording.intercept();
  return { runtime, root, testFile, recording };
}

describe('realtime goldens', () => {
  it('records an OpenAI Realtime conversation frame by frame and replays it with the upstream stopped', async () => {
    const server = await startMockLLMServer({ scenarios: weather });
    const { runtime, root, testFile, recording } = await recordAgainst(server.url, 'voice.test.ts', 'voice > weather');
    const recorded = await openaiRun();
    expect(recorded).toEqual({ said: ['Sunny, 21 degrees.'], calls: [{ city: 'Paris' }] });
    expect(recording.expect('output', recorded, { equals: Object.is }).pass).toBe(true);
    expect((await runtime.finish(testFile, 'voice > weather', true))?.action).toBe('written');
    await server.close();

    const text = readFileSync(recording.file, 'utf8');
    expect(text).not.toContain(KEY);
    const golden = parseGolden(text, recording.file);
    expect(golden.interactions).toEqual([]);
    expect(golden.provider).toBe('openai-realtime');
    expect(golden.model).toBe('gpt-realtime');
    const [conversation] = golden.realtime!;
    expect(conversation.url).toBe('wss://api.openai.com/v1/realtime?model=gpt-realtime');
    expect(conversation.protocols).toEqual(['realtime', 'openai-insecure-api-key.[REDACTED]']);
    const types = conversation.frames.map((f) => `${f.direction}:${JSON.parse(f.data).type}`);
    expect(types[0]).toBe('server:session.created');
    expect(types.filter((t) => t.startsWith('client:'))).toEqual([
      'client:session.update',
      'client:conversation.item.create',
      'client:response.create',
      'client:conversation.item.create',
      'client:response.create',
    ]);
    expect(types.filter((t) => t === 'server:response.done')).toHaveLength(2);
    // The client closed the socket: no server close is kept (replayed, it would cut the conversation short).
    expect(conversation.close).toBeUndefined();
    const offsets = conversation.frames.map((f) => f.offsetMs);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    const replay = replayRuntime.session(testFile, 'voice > weather');
    await replay.intercept();
    const replayed = await openaiRun();
    expect(replayed).toEqual(recorded);
    expect(replay.expect('output', replayed, { equals: Object.is }).pass).toBe(true);
    expect((await replayRuntime.finish(testFile, 'voice > weather', true))?.action).toBe('replayed');
  });

  it('a close the server began is kept and replayed after the frames sent before it', async () => {
    // Gemini Live closes the socket itself on a step error (1011 for a 429): the golden keeps that close.
    const server = await startMockLLMServer({ scenarios: scenario('quota').respondWithError(429, 'Resource has been exhausted (e.g. check quota).') });
    const live = async () => {
      let closed = (_: CloseEvent) => {};
      const close = new Promise<CloseEvent>((resolve) => (closed = resolve));
      const session = await new GoogleGenAI({ apiKey: 'gemini-key-not-secret' }).live.connect({
        model: 'gemini-live-2.5-flash-preview',
        config: { responseModalities: [Modality.TEXT] },
        callbacks: { onmessage: () => {}, onclose: (e) => closed(e) },
      });
      session.sendClientContent({ turns: 'hi' });
      const event = await close;
      return { code: event.code, reason: event.reason };
    };
    const { runtime, root, testFile, recording } = await recordAgainst(server.url, 'live.test.ts', 'live > quota');
    const recorded = await live();
    // The client sees 4011: in-process, MSW closes a client with application codes only (1000, 3000–4999).
    expect(recorded).toEqual({ code: 4011, reason: 'Resource has been exhausted (e.g. check quota).' });
    await runtime.finish(testFile, 'live > quota', true);
    await server.close();
    expect(parseGolden(readFileSync(recording.file, 'utf8'), recording.file).realtime![0].close).toEqual({ code: 1011, reason: 'Resource has been exhausted (e.g. check quota).' });
    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    await replayRuntime.session(testFile, 'live > quota').intercept();
    expect(await live()).toEqual(recorded);
    expect((await replayRuntime.finish(testFile, 'live > quota', true))?.action).toBe('replayed');

    // A server close right after the conversation's last frames: the client reads them all, then the close.
    const upstream = await startMockLLMServer({ scenarios: weather });
    const voice = await recordAgainst(upstream.url, 'voice.test.ts', 'voice > closed');
    const { testFile: voiceFile, recording: voiceRecording } = voice;
    const said = await openaiRun();
    await voice.runtime.finish(voiceFile, 'voice > closed', true);
    await upstream.close();
    const golden = parseGolden(readFileSync(voiceRecording.file, 'utf8'), voiceRecording.file);
    golden.realtime![0].close = { code: 1000, reason: 'done' };
    writeFileSync(voiceRecording.file, serializeGolden(golden));
    const { runtime: voiceReplay } = tempRuntime('replay', {}, voice.root);
    await voiceReplay.session(voiceFile, 'voice > closed').intercept();
    const seen: string[] = [];
    const replayed = await openaiRun('websocket', { untilClose: true, events: seen });
    expect(replayed).toEqual({ ...said, closeCode: 1000 });
    const frames = golden.realtime![0].frames.filter((f) => f.direction === 'server').map((f) => JSON.parse(f.data).type as string);
    expect(seen).toEqual(frames);
    expect((await voiceReplay.finish(voiceFile, 'voice > closed', true))?.action).toBe('replayed');
  });

  it.each(['websocket', 'ws'] as const)('a replay whose client diverges gets the API\'s error event on its error handler (%s client), and the test fails naming the frame', async (kind) => {
    const server = await startMockLLMServer({ scenarios: weather });
    const { runtime, root, testFile } = await recordAgainst(server.url, 'voice.test.ts', 'voice > diverges');
    await openaiRun(kind);
    await runtime.finish(testFile, 'voice > diverges', true);
    await server.close();

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    const replay = replayRuntime.session(testFile, 'voice > diverges');
    await replay.intercept();
    const { OpenAIRealtimeWS } = await import('openai/realtime/ws');
    const rt = kind === 'ws' ? new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: KEY })) : new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: KEY }));
    // What a user's code waits on: the SDK's 'error' event (an OpenAIRealtimeError carrying the server's error event).
    const failed = new Promise<OpenAIRealtimeError>((resolve) => rt.on('error', resolve));
    rt.on('session.created', () => rt.send({ type: 'session.update', event_id: 'evt_client_1', session: { type: 'realtime', instructions: 'something else' } }));
    const error = await failed;
    const finished = await replayRuntime.finish(testFile, 'voice > diverges', true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIRealtimeError);
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code: 'ghostwire_golden_mismatch',
      message: expect.stringMatching(/^ghostwire golden mismatch: realtime 0, frame 1: the client sent .*something else/),
      param: null,
      event_id: 'evt_client_1',
    });
    expect(error.message).toMatch(/^ghostwire golden mismatch: realtime 0, frame 1: the client sent .*something else.* code=ghostwire_golden_mismatch/);
    expect(finished).toBeInstanceOf(Error);
    expect((finished as Error).message).toMatch(/realtime 0, frame 1: the client sent .*something else/);
    rt.close();
  });

  it('a connection the golden has no conversation left for gets the error event too, saying so', async () => {
    const server = await startMockLLMServer({ scenarios: weather });
    const { runtime, root, testFile } = await recordAgainst(server.url, 'voice.test.ts', 'voice > once');
    await openaiRun();
    await runtime.finish(testFile, 'voice > once', true);
    await server.close();

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    await replayRuntime.session(testFile, 'voice > once').intercept();
    await openaiRun();
    const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: KEY }));
    const error = await new Promise<OpenAIRealtimeError>((resolve) => rt.on('error', resolve));
    const finished = await replayRuntime.finish(testFile, 'voice > once', true).catch((e: unknown) => e);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'ghostwire_golden_mismatch', message: expect.stringMatching(/^ghostwire golden mismatch: no recorded realtime conversation left for \/v1\/realtime .*\(1 recorded, 1 used\)/) });
    expect((finished as Error).message).toMatch(/no recorded realtime conversation left/);
    rt.close();
  });

  it('records and replays a Gemini Live conversation (the API key in the URL redacted)', async () => {
    const server = await startMockLLMServer({ scenarios: scenario('hi').respondWithText('Hello from Live') });
    const run = async () => {
      const messages: LiveServerMessage[] = [];
      let done = () => {};
      const turn = new Promise<void>((resolve) => (done = resolve));
      const session = await new GoogleGenAI({ apiKey: 'gemini-key-not-secret' }).live.connect({
        model: 'gemini-live-2.5-flash-preview',
        config: { responseModalities: [Modality.TEXT] },
        callbacks: { onmessage: (m) => (messages.push(m), m.serverContent?.turnComplete && done()) },
      });
      session.sendClientContent({ turns: 'hi' });
      await turn;
      session.close();
      return messages.map((m) => m.text ?? '').join('');
    };
    const { runtime, root, testFile, recording } = await recordAgainst(server.url, 'live.test.ts', 'live > hi');
    expect(await run()).toBe('Hello from Live');
    await runtime.finish(testFile, 'live > hi', true);
    await server.close();
    const text = readFileSync(recording.file, 'utf8');
    expect(text).not.toContain('gemini-key-not-secret');
    expect(parseGolden(text, recording.file).realtime![0].provider).toBe('gemini-live');
    expect(parseGolden(text, recording.file).model).toBe('gemini-live-2.5-flash-preview');
    // `ghostwire inspect` shows the conversation frame by frame, Gemini's message kinds as labels.
    const shown = inspectGolden(parseGolden(text, recording.file));
    expect(shown).toMatch(/── realtime 1 · gemini-live · \/\/?ws\/google\.ai\.generativelanguage\.v1\w*\.GenerativeService\.BidiGenerateContent/);
    expect(shown).toMatch(/→ setup {2}\(\d+ ms\)\n {2}← setupComplete {2}\(\d+ ms\)\n {2}→ clientContent\.turns/);
    expect(shown).toContain('← serverContent.turnComplete');

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    const replay = replayRuntime.session(testFile, 'live > hi');
    await replay.intercept();
    expect(await run()).toBe('Hello from Live');
    expect((await replayRuntime.finish(testFile, 'live > hi', true))?.action).toBe('replayed');
  });

  it('records and replays a ws-package client (OpenAIRealtimeWS); its Authorization header never reaches the golden', async () => {
    const server = await startMockLLMServer({ scenarios: weather });
    const { runtime, root, testFile, recording } = await recordAgainst(server.url, 'voice-ws.test.ts', 'voice > ws');
    const recorded = await openaiRun('ws');
    expect(recorded).toEqual({ said: ['Sunny, 21 degrees.'], calls: [{ city: 'Paris' }] });
    expect((await runtime.finish(testFile, 'voice > ws', true))?.action).toBe('written');
    // The upstream saw the client's Authorization header (passed on), redacted in its journal.
    expect(server.mock.requests.find((r) => r.request)!.request!.headers.authorization).toBe('[REDACTED]');
    await server.close();
    const text = readFileSync(recording.file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(parseGolden(text, recording.file).realtime![0].protocols).toEqual([]);

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    const replay = replayRuntime.session(testFile, 'voice > ws');
    await replay.intercept();
    expect(await openaiRun('ws')).toEqual(recorded);
    expect((await replayRuntime.finish(testFile, 'voice > ws', true))?.action).toBe('replayed');
  });

  it('a Gemini Live replay whose client diverges closes with the mismatch as the reason @google/genai hands to onclose', async () => {
    const server = await startMockLLMServer({ scenarios: scenario('hi').respondWithText('Hello from Live') });
    const connect = (onclose?: (e: CloseEvent) => void) =>
      new GoogleGenAI({ apiKey: 'gemini-key-not-secret' }).live.connect({
        model: 'gemini-live-2.5-flash-preview',
        config: { responseModalities: [Modality.TEXT] },
        callbacks: { onmessage: () => {}, ...(onclose ? { onclose } : {}) },
      });
    const { runtime, root, testFile } = await recordAgainst(server.url, 'live.test.ts', 'live > diverges');
    const turn = new Promise<void>((resolve) => {
      void connect().then((session) => {
        session.sendClientContent({ turns: 'hi' });
        setTimeout(() => (session.close(), resolve()), 50);
      });
    });
    await turn;
    await runtime.finish(testFile, 'live > diverges', true);
    await server.close();

    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    await replayRuntime.session(testFile, 'live > diverges').intercept();
    let closed = (_: CloseEvent) => {};
    const close = new Promise<CloseEvent>((resolve) => (closed = resolve));
    const session = await connect((e) => closed(e));
    session.sendClientContent({ turns: 'something else' });
    const event = await close;
    const finished = await replayRuntime.finish(testFile, 'live > diverges', true).catch((e: unknown) => e);
    expect(event.code).toBe(4000);
    // A close reason holds 123 bytes: the words come first.
    expect(event.reason).toMatch(/^ghostwire golden mismatch: realtime 0, frame 2: the client sent \{"clientContent".*"something els/);
    expect(Buffer.byteLength(event.reason)).toBeLessThanOrEqual(123);
    expect(finished).toBeInstanceOf(Error);
    expect((finished as Error).message).toMatch(/realtime 0, frame 2: the client sent .*something else/);
  });
});
