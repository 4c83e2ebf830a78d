import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.ts';
import { Redactor } from './redact.ts';
import { Replayer } from './replayer.ts';
import { GoldenMismatchError } from './errors.ts';
import { sampleInteraction } from './testing/golden.ts';
import type { Interaction } from './schema.ts';

const redactor = new Redactor();
const URL_CHAT = 'https://api.openai.com/v1/chat/completions';
const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request(URL_CHAT, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const frames = ['data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n', 'data: {"choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n', 'data: [DONE]\n\n'];

function streamed(overrides: Partial<Interaction['response']> = {}): Interaction {
  return sampleInteraction({
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, events: frames.map((data, i) => ({ offsetMs: i * 40, data })), ...overrides },
  });
}

describe('Replayer', () => {
  it('serves JSON bodies for a matching request, ignoring headers (keys rotate, SDK versions change)', async () => {
    const replayer = new Replayer([sampleInteraction()], { file: 'g.json', redactor });
    const response = await replayer.serve(post({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer other' }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe('hello');
    expect(replayer.unused()).toEqual([]);
  });

  it('replays SSE byte-exact at the recorded event boundaries', async () => {
    const replayer = new Replayer([streamed()], { file: 'g.json', redactor });
    const response = await replayer.serve(post({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    const reader = response.body!.getReader();
    const chunks: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(new TextDecoder().decode(value));
    }
    expect(chunks).toEqual(frames);
  });

  it('real timing waits for the recorded offsets', async () => {
    const replayer = new Replayer([streamed()], { file: 'g.json', redactor, timing: 'real' });
    const started = performance.now();
    await (await replayer.serve(post({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }))).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('a stream that was cut when recorded is cut again on replay', async () => {
    const replayer = new Replayer([streamed({ events: [{ offsetMs: 0, data: frames[0] }], trailing: 'data: {"choi', interrupted: true })], { file: 'g.json', redactor });
    const response = await replayer.serve(post({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    await expect(response.text()).rejects.toThrow(/terminated/);
  });

  it('an extra call beyond the recording fails, saying the matching interaction was already used', async () => {
    const replayer = new Replayer([sampleInteraction()], { file: 'g.json', redactor });
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
    await replayer.serve(post(body));
    const error = await replayer.serve(post(body)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoldenMismatchError);
    expect((error as Error).message).toContain('Closest is interaction 0 (already used)');
    expect((error as Error).message).toContain('made more calls than recorded');
  });

  it('ignore paths let volatile request fields through', async () => {
    const replayer = new Replayer([sampleInteraction()], { file: 'g.json', redactor, ignorePaths: ['$.user'] });
    expect((await replayer.serve(post({ model: 'gpt-4o', user: 'session-123', messages: [{ role: 'user', content: 'hi' }] }))).status).toBe(200);
  });
});

describe('Recorder', () => {
  it('keeps each SSE frame byte-exact with offsets, and a cut stream as interrupted with its trailing bytes', async () => {
    const recorder = new Recorder(redactor);
    const upstream = (): Response => {
      const enc = new TextEncoder();
      // Frames split across chunks the way a network splits them, then the connection drops.
      const parts = [frames[0].slice(0, 10), frames[0].slice(10) + frames[1].slice(0, 5), frames[1].slice(5) + 'data: {"par'];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.error(new TypeError('socket hang up'));
          else controller.enqueue(enc.encode(next));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream', 'set-cookie': 'sid=1' } });
    };
    const response = await recorder.handle(post({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] }), async () => upstream());
    await expect(response.text()).rejects.toThrow(/socket hang up/);
    const [interaction] = await recorder.settled();
    expect(interaction.response.events!.map((e) => e.data)).toEqual(frames.slice(0, 2));
    expect(interaction.response.trailing).toBe('data: {"par');
    expect(interaction.response.interrupted).toBe(true);
    expect(interaction.response.headers['set-cookie']).toBe('[REDACTED]');
    expect(interaction.summary?.text).toBe('Hello');
  });
});

describe('Replayer and SDK retries', () => {
  it('replays a recorded 429 and the retry after it without waiting out retry-after (compressed timing)', async () => {
    const { default: OpenAI } = await import('openai');
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
    const limited = sampleInteraction({
      request: { ...sampleInteraction().request, body },
      response: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '20' }, body: { error: { message: 'slow down', type: 'rate_limit_exceeded' } } },
    });
    const replayer = new Replayer([limited, sampleInteraction()], { file: 'g.json', redactor });
    const client = new OpenAI({ apiKey: 'sk-r', maxRetries: 1, fetch: (url, init) => replayer.serve(new Request(url, init)) });
    const started = performance.now();
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0].message.content).toBe('hello');
    expect(replayer.unused()).toEqual([]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
