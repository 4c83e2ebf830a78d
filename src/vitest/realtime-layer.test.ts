// Realtime WebSockets in the Vitest layer: a test's mock answers them, a sealed provider host refuses them.
import { GoogleGenAI, Modality, type LiveServerMessage } from '@google/genai/web';
import OpenAI from 'openai';
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket';
import { describe, expect, test } from 'vitest';
import { inProcessLayer } from './in-process.ts';
import { useMockLLM } from './use-mock-llm.ts';
import { test as withFixtures } from './test.ts';

describe('realtime in the Vitest layer', () => {
  test('a realtime connection to a provider host nothing answers is closed, and fails the test naming it', async () => {
    const socket = new WebSocket('wss://api.openai.com/v1/realtime?model=gpt-realtime');
    const closed = await new Promise<CloseEvent>((resolve) => socket.addEventListener('close', resolve));
    expect(closed.code).toBe(4004);
    expect(closed.reason).toMatch(/^ghostwire: GET https:\/\/api\.openai\.com\/v1\/realtime reached a provider host/);
    const failures = inProcessLayer().slot()!.failures.splice(0);
    expect(failures.map((f) => f.message)).toEqual([expect.stringMatching(/reached a provider host and nothing answers it/)]);
  });

  test('a WebSocket to a host no provider owns is left to MSW (not sealed, not answered by the mock)', async () => {
    useMockLLM({ name: 'x', steps: [] });
    const socket = new WebSocket('ws://127.0.0.1:9/nothing-listens-here');
    const outcome = await new Promise<string>((resolve) => {
      socket.addEventListener('open', () => resolve('open'));
      socket.addEventListener('error', () => resolve('error'));
    });
    // Passed through to the (closed) loopback port: a connection error, not a mocked socket.
    expect(outcome).toBe('error');
    expect(inProcessLayer().slot()!.failures).toEqual([]);
  });

  test('useMockLLM answers OpenAI Realtime and Gemini Live in the same test, each journaled', async () => {
    const mock = useMockLLM([
      { name: 'openai', steps: [{ match: { provider: 'openai-realtime' }, respond: { text: 'from OpenAI Realtime' } }] },
      { name: 'gemini', steps: [{ match: { provider: 'gemini-live' }, respond: { text: 'from Gemini Live' } }] },
    ]);
    const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
    const text = new Promise<string>((resolve) => rt.on('response.output_text.done', (e) => resolve(e.text)));
    rt.on('session.created', () => {
      rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
      rt.send({ type: 'response.create' });
    });
    expect(await text).toBe('from OpenAI Realtime');
    rt.close();

    const messages: LiveServerMessage[] = [];
    let done = () => {};
    const turn = new Promise<void>((resolve) => (done = resolve));
    const session = await new GoogleGenAI({ apiKey: 'k' }).live.connect({
      model: 'gemini-live-2.5-flash-preview',
      config: { responseModalities: [Modality.TEXT] },
      callbacks: { onmessage: (m) => (messages.push(m), m.serverContent?.turnComplete && done()) },
    });
    session.sendClientContent({ turns: 'hi' });
    await turn;
    expect(messages.map((m) => m.text ?? '').join('')).toBe('from Gemini Live');
    session.close();
    mock.assertAllConsumed();
    expect(new Set(mock.requests.filter((r) => r.request).map((r) => r.provider))).toEqual(new Set(['openai-realtime', 'gemini-live']));
  });

  test('ws-package clients (OpenAIRealtimeWS, @google/genai on Node) are answered in-process too', async () => {
    const mock = useMockLLM([
      { name: 'openai', steps: [{ match: { provider: 'openai-realtime', lastMessage: { content: 'ping' } }, respond: { text: 'pong over ws' } }] },
      { name: 'gemini', steps: [{ match: { provider: 'gemini-live' }, respond: { text: 'live over ws' } }] },
    ]);
    const { OpenAIRealtimeWS } = await import('openai/realtime/ws');
    const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
    const text = new Promise<string>((resolve) => rt.on('response.output_text.done', (e) => resolve(e.text)));
    rt.on('session.created', () => {
      rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
      rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ping' }] } });
      rt.send({ type: 'response.create' });
    });
    expect(await text).toBe('pong over ws');
    rt.close();
    // A ws-package client's upgrade headers reach the turn (redacted in the journal), as on the real port.
    expect(mock.requests.find((r) => r.request)!.request!.headers.authorization).toBe('[REDACTED]');

    const { GoogleGenAI: NodeGenAI } = await import('@google/genai');
    const messages: LiveServerMessage[] = [];
    let done = () => {};
    const turn = new Promise<void>((resolve) => (done = resolve));
    const session = await new NodeGenAI({ apiKey: 'k' }).live.connect({
      model: 'gemini-live-2.5-flash-preview',
      config: { responseModalities: [Modality.TEXT] },
      callbacks: { onmessage: (m) => (messages.push(m as LiveServerMessage), m.serverContent?.turnComplete && done()) },
    });
    session.sendClientContent({ turns: 'hi' });
    await turn;
    expect(messages.map((m) => m.text ?? '').join('')).toBe('live over ws');
    session.close();
    mock.assertAllConsumed();
    expect(inProcessLayer().slot()!.failures).toEqual([]);
  });

  test('a ws-package connection to a provider host nothing answers is refused and fails the test', async () => {
    const { OpenAIRealtimeWS } = await import('openai/realtime/ws');
    const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
    rt.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => rt.socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
    const failures = inProcessLayer().slot()!.failures.splice(0);
    expect(failures.map((f) => f.message)).toEqual([expect.stringMatching(/GET https:\/\/api\.openai\.com\/v1\/realtime reached a provider host and nothing answers it/)]);
  });

  withFixtures('the mockLLM fixture answers realtime connections too', async ({ mockLLM }) => {
    mockLLM.use({ name: 'fixture', steps: [{ respond: { text: 'from the fixture' } }] });
    const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }));
    const text = new Promise<string>((resolve) => rt.on('response.output_audio_transcript.done', (e) => resolve(e.transcript)));
    rt.on('session.created', () => rt.send({ type: 'response.create' }));
    expect(await text).toBe('from the fixture');
    rt.close();
    expect(mockLLM.requests.some((r) => r.frame?.direction === 'client')).toBe(true);
  });
});
