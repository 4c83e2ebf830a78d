// Gemini Live on the real port through @google/genai's own client (ai.live.connect, the `ws` package).
import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai';
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

let sessions = 0;
async function connect(scenarios: ScenarioList, config: Parameters<GoogleGenAI['live']['connect']>[0]['config'] = {}) {
  const id = `live${++sessions}`;
  server.sessions.create({ id, scenarios });
  const ai = new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: server.sessionUrl(id) } });
  const messages: LiveServerMessage[] = [];
  const waiters: Array<() => void> = [];
  let closed: { code: number; reason: string } | null = null;
  const session: Session = await ai.live.connect({
    model: 'gemini-live-2.5-flash-preview',
    config,
    callbacks: {
      onmessage: (m) => {
        messages.push(m);
        for (const w of [...waiters]) w();
      },
      onclose: (e) => {
        closed = { code: e.code, reason: e.reason };
        for (const w of [...waiters]) w();
      },
    },
  });
  const until = (check: (m: LiveServerMessage[]) => boolean) =>
    new Promise<LiveServerMessage[]>((resolve) => {
      const w = () => {
        if (check(messages) || closed) {
          waiters.splice(waiters.indexOf(w), 1);
          resolve([...messages]);
        }
      };
      waiters.push(w);
      w();
    });
  const turnsComplete = (n: number) => until((m) => m.filter((x) => x.serverContent?.turnComplete).length >= n);
  return { session, messages, until, turnsComplete, closed: () => closed, mock: server.sessions.get(id)!.mock };
}

describe('Gemini Live over the real port (@google/genai ai.live.connect)', () => {
  test('a text turn: setupComplete, modelTurn text parts, generationComplete, turnComplete with usageMetadata', async () => {
    const { session, turnsComplete, mock } = await connect(scenario('hi').expect().withLastMessage({ contains: 'Hello' }).then().respondWithText('Hi from Gemini Live!'), {
      responseModalities: [Modality.TEXT],
      systemInstruction: 'Be brief.',
    });
    session.sendClientContent({ turns: 'Hello there', turnComplete: true });
    const messages = await turnsComplete(1);
    expect(messages[0].setupComplete).toEqual({});
    const text = messages.map((m) => m.text ?? '').join('');
    expect(text).toBe('Hi from Gemini Live!');
    const kinds = messages.slice(1).map((m) => (m.serverContent?.modelTurn ? 'modelTurn' : m.serverContent?.generationComplete ? 'generationComplete' : m.serverContent?.turnComplete ? 'turnComplete' : '?'));
    expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual(['modelTurn', 'generationComplete', 'turnComplete']);
    const last = messages.at(-1)!;
    expect(last.usageMetadata).toMatchObject({ responseTokensDetails: [{ modality: 'TEXT' }] });
    expect(last.usageMetadata!.totalTokenCount).toBe(last.usageMetadata!.promptTokenCount! + last.usageMetadata!.responseTokenCount!);
    const turn = mock.requests.find((r) => r.request)!;
    expect(turn.request!.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there' }]);
    expect(turn.request!.model).toBe('gemini-live-2.5-flash-preview');
    session.close();
  });

  test('a tool call: toolCall with ids, toolResponse, then the answer; goAway when the step asks', async () => {
    const { session, until, turnsComplete, mock } = await connect(
      [
        scenario('weather')
          .expect().withTools(['get_weather']).withLastMessage({ contains: 'weather' })
          .then().respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
          .expect().withToolResults(['get_weather'])
          .then().respondWithText('21 degrees in Paris.').withGoAway('10s')
          .build(),
      ],
      { responseModalities: [Modality.TEXT], tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather', parametersJsonSchema: { type: 'object' } }] }] },
    );
    session.sendClientContent({ turns: 'What is the weather in Paris?' });
    const first = await until((m) => m.some((x) => x.toolCall));
    const call = first.find((m) => m.toolCall)!.toolCall!.functionCalls![0];
    expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(call.id).toMatch(/^[a-z0-9]{8}$/);
    expect(first.some((m) => m.serverContent?.turnComplete)).toBe(false);
    session.sendToolResponse({ functionResponses: [{ id: call.id, name: 'get_weather', response: { tempC: 21 } }] });
    const all = await turnsComplete(1);
    expect(all.map((m) => m.text ?? '').join('')).toBe('21 degrees in Paris.');
    const withGoAway = await until((m) => m.some((x) => x.goAway));
    expect(withGoAway.at(-1)!.goAway).toEqual({ timeLeft: '10s' });
    const last = mock.requests.filter((r) => r.request).at(-1)!.request!;
    expect(last.messages.at(-1)).toEqual({ role: 'tool', content: '{"tempC":21}', toolCallId: call.id, toolName: 'get_weather' });
    mock.assertAllConsumed();
    session.close();
  });

  test('an audio turn: automatic activity detection, the scripted input transcription, 24 kHz PCM with its output transcription', async () => {
    const { session, turnsComplete } = await connect(scenario('voice').expect().withAudioInput('how are you').then().respondWithText('Fine, thanks!'), {
      responseModalities: [Modality.AUDIO],
      inputAudioTranscription: {},
      outputAudioTranscription: {},
    });
    const speech = Buffer.alloc(16_000 * 2 * 0.3, Buffer.from([0x00, 0x20]));
    const silence = Buffer.alloc(16_000 * 2 * 0.6);
    session.sendRealtimeInput({ audio: { data: speech.toString('base64'), mimeType: 'audio/pcm;rate=16000' } });
    session.sendRealtimeInput({ audio: { data: silence.toString('base64'), mimeType: 'audio/pcm;rate=16000' } });
    const messages = await turnsComplete(1);
    expect(messages.find((m) => m.serverContent?.inputTranscription)!.serverContent!.inputTranscription!.text).toBe('how are you');
    const parts = messages.flatMap((m) => m.serverContent?.modelTurn?.parts ?? []);
    expect(new Set(parts.map((p) => p.inlineData?.mimeType))).toEqual(new Set(['audio/pcm;rate=24000']));
    const pcm = Buffer.concat(parts.map((p) => Buffer.from(p.inlineData!.data!, 'base64')));
    expect(pcm.length).toBe(speechSamples('Fine, thanks!', 24_000) * 2);
    expect(messages.flatMap((m) => m.serverContent?.outputTranscription?.text ?? []).join('')).toBe('Fine, thanks!');
    expect(messages.at(-1)!.usageMetadata!.responseTokensDetails).toEqual([{ modality: 'AUDIO', tokenCount: expect.any(Number) }]);
    session.close();
  });

  test('a malformed client message closes with 1007 and a reason naming it; a step error closes with its message', async () => {
    const bad = await connect(scenario('x').respondWithText('never'));
    (bad.session as unknown as { conn: { send(d: string): void } }).conn.send(JSON.stringify({ bogus: {} }));
    await bad.until(() => false);
    expect(bad.closed()).toEqual({ code: 1007, reason: 'Invalid JSON payload received. Unknown name "bogus": Cannot find field.' });
    const limited = await connect(scenario('quota').respondWithError(429, 'Resource has been exhausted (e.g. check quota).'));
    limited.session.sendClientContent({ turns: 'hi' });
    await limited.until(() => false);
    expect(limited.closed()).toEqual({ code: 1011, reason: 'Resource has been exhausted (e.g. check quota).' });
    // No step matches: the near-miss message, cut to the 123 bytes a close frame holds (the journal has it whole).
    const unmatched = await connect(scenario('only weather').expect().withLastMessage({ contains: 'weather' }).then().respondWithText('x'));
    unmatched.session.sendClientContent({ turns: 'something else entirely' });
    await unmatched.until(() => false);
    const closed = unmatched.closed() as unknown as { code: number; reason: string };
    expect(closed.code).toBe(1007);
    expect(closed.reason).toMatch(/^ghostwire: no scenario step matched this gemini-live request/);
    expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
  });

  test('barge-in: speech while the model talks interrupts it (interrupted, turnComplete), then the spoken turn is answered', async () => {
    const { session, turnsComplete, messages } = await connect(
      {
        name: 'barge-in',
        steps: [
          { match: { audio: false }, respond: { text: 'A long answer that keeps going and going.', stream: { chunkSize: 2, chunkDelayMs: 15 } } },
          { match: { audio: true }, inputTranscript: 'stop', respond: { text: 'Stopped.' } },
        ],
      },
      { responseModalities: [Modality.TEXT] },
    );
    session.sendClientContent({ turns: 'talk to me' });
    await new Promise((resolve) => setTimeout(resolve, 40));
    session.sendRealtimeInput({ audio: { data: Buffer.alloc(3200, Buffer.from([0x00, 0x20])).toString('base64'), mimeType: 'audio/pcm;rate=16000' } });
    session.sendRealtimeInput({ audio: { data: Buffer.alloc(16_000 * 2 * 0.6).toString('base64'), mimeType: 'audio/pcm;rate=16000' } });
    await turnsComplete(2);
    const interrupted = messages.findIndex((m) => m.serverContent?.interrupted);
    expect(interrupted).toBeGreaterThan(0);
    expect(messages[interrupted + 1].serverContent?.turnComplete).toBe(true);
    const before = messages.slice(0, interrupted).map((m) => m.text ?? '').join('');
    expect(before.length).toBeGreaterThan(0);
    expect('A long answer that keeps going and going.'.startsWith(before)).toBe(true);
    expect(before).not.toBe('A long answer that keeps going and going.');
    expect(messages.slice(interrupted).map((m) => m.text ?? '').join('')).toBe('Stopped.');
    session.close();
  });

  test('manual activity detection: activityStart, audio, activityEnd make one spoken turn', async () => {
    const { session, turnsComplete, mock } = await connect(scenario('manual').expect().withAudioInput('hello').then().respondWithText('Hi!'), {
      responseModalities: [Modality.TEXT],
      realtimeInputConfig: { automaticActivityDetection: { disabled: true } },
    });
    session.sendRealtimeInput({ activityStart: {} });
    session.sendRealtimeInput({ audio: { data: Buffer.alloc(6400, Buffer.from([0x00, 0x20])).toString('base64'), mimeType: 'audio/pcm;rate=16000' } });
    session.sendRealtimeInput({ activityEnd: {} });
    const messages = await turnsComplete(1);
    expect(messages.map((m) => m.text ?? '').join('')).toBe('Hi!');
    // Matching saw a spoken message with no text yet; the step's inputTranscript gives it its text from then on.
    expect(mock.requests.find((r) => r.request)!.request!.messages.at(-1)).toEqual({ role: 'user', content: '', audio: true });
    session.close();
  });
});
