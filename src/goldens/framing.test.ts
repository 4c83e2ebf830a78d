import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.ts';
import { Redactor } from './redact.ts';
import { Replayer } from './replayer.ts';

/** An upstream answering with `chunks` as the body, split wherever the chunks split it. */
function upstream(contentType: string, chunks: Uint8Array[]): () => Promise<Response> {
  return async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const c of chunks) controller.enqueue(c);
          controller.close();
        },
      }),
      { headers: { 'content-type': contentType } },
    );
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

async function recordAndReplay(url: string, contentType: string, chunks: Uint8Array[]) {
  const recorder = new Recorder(new Redactor());
  const request = new Request(url, { method: 'POST', body: '{"model":"m"}', headers: { 'content-type': 'application/json' } });
  const live = await bytesOf(await recorder.handle(request, upstream(contentType, chunks)));
  const [interaction] = await recorder.settled();
  const replayer = new Replayer([interaction], { file: 'x.json', redactor: new Redactor() });
  const replayed = await bytesOf(await replayer.serve(new Request(url, { method: 'POST', body: '{"model":"m"}', headers: { 'content-type': 'application/json' } })));
  return { interaction, live, replayed };
}

const enc = (s: string) => new TextEncoder().encode(s);

describe('goldens keep each framing byte-exact, frame by frame', () => {
  it('NDJSON: one event per line, even when chunks split lines', async () => {
    const body = '{"message":{"content":"Hel"},"done":false}\n{"message":{"content":"lo"},"done":false}\n{"done":true}\n';
    const bytes = enc(body);
    const { interaction, live, replayed } = await recordAndReplay('http://127.0.0.1:1/api/chat', 'application/x-ndjson', [bytes.subarray(0, 10), bytes.subarray(10, 50), bytes.subarray(50)]);
    expect(interaction.response.framing).toBe('ndjson');
    expect(interaction.response.events!.map((e) => e.data)).toEqual(body.split(/(?<=\n)/));
    expect(live).toEqual(bytes);
    expect(replayed).toEqual(bytes);
  });

  it('binary event stream: one base64 event per length-prefixed message, replayed as the same bytes', async () => {
    const message = (n: number, fill: number) => {
      const m = new Uint8Array(n).fill(fill);
      new DataView(m.buffer).setUint32(0, n);
      return m;
    };
    const all = new Uint8Array([...message(24, 1), ...message(40, 2), ...message(17, 0xff)]);
    const { interaction, replayed } = await recordAndReplay('http://127.0.0.1:1/model/x/converse-stream', 'application/vnd.amazon.eventstream', [all.subarray(0, 5), all.subarray(5, 60), all.subarray(60)]);
    expect(interaction.response.framing).toBe('binary');
    expect(interaction.response.events!.map((e) => Buffer.from(e.data, 'base64').length)).toEqual([24, 40, 17]);
    expect(replayed).toEqual(all);
  });

  it('SSE: frames cut at blank lines and no framing field (the format stays as it was)', async () => {
    const body = 'data: {"a":1}\n\ndata: [DONE]\n\n';
    const { interaction, replayed } = await recordAndReplay('https://api.openai.com/v1/chat/completions', 'text/event-stream', [enc(body.slice(0, 7)), enc(body.slice(7))]);
    expect(interaction.response.framing).toBeUndefined();
    expect(interaction.response.events!.map((e) => e.data)).toEqual(['data: {"a":1}\n\n', 'data: [DONE]\n\n']);
    expect(interaction.provider).toBe('openai');
    expect(new TextDecoder().decode(replayed)).toBe(body);
  });
});

describe('inspect reads any framing through the provider’s reader', () => {
  it('shows an Ollama NDJSON answer as a conversation, with its usage', async () => {
    const { inspectGolden } = await import('./inspect.ts');
    const lines = ['{"message":{"role":"assistant","content":"Sunny "},"done":false}\n', '{"message":{"role":"assistant","content":"today."},"done":true,"done_reason":"stop","prompt_eval_count":4,"eval_count":2}\n'];
    const recorder = new Recorder(new Redactor());
    const request = new Request('http://127.0.0.1:11434/api/chat', { method: 'POST', body: JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'Weather?' }] }) });
    await (await recorder.handle(request, upstream('application/x-ndjson', lines.map(enc)))).text();
    const [interaction] = await recorder.settled();
    expect(interaction.usage).toEqual({ inputTokens: 4, outputTokens: 2 });
    const text = inspectGolden({
      formatVersion: 1,
      test: { file: 'a.test.ts', name: 'weather' },
      recordedAt: new Date(0).toISOString(),
      provider: 'ollama',
      model: 'llama3.2',
      input: null,
      interactions: [interaction],
      expected: {},
    });
    expect(text).toContain('user: Weather?');
    expect(text).toContain('assistant: Sunny today.');
    expect(text).toContain('streamed, 2 events');
    expect(text).toContain('tokens 4 in / 2 out');
  });
});
