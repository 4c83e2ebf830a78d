import { connect } from 'node:net';
import type { ServerResponse } from 'node:http';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RawResponse } from './handle.ts';
import { startMockLLMServer } from './server.ts';
import { WriteBatch } from './write-batch.ts';

const answerOf = (text: string): RawResponse => ({ status: 200, headers: {}, body: text });
const resOf = (name: string) => ({ name }) as unknown as ServerResponse;

describe('WriteBatch', () => {
  it('holds answers until the turn has run, then writes them in the order they came', async () => {
    const written: string[] = [];
    const batch = new WriteBatch((res, out) => void written.push(`${(res as unknown as { name: string }).name}:${String(out.body)}`), () => {});
    batch.add(resOf('a'), answerOf('1'));
    batch.add(resOf('b'), answerOf('2'));
    await Promise.resolve();
    expect(written).toEqual([]);
    expect(batch.size).toBe(2);
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['a:1', 'b:2']);
    expect(batch.size).toBe(0);
    // The next turn's answers make a batch of their own.
    batch.add(resOf('c'), answerOf('3'));
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['a:1', 'b:2', 'c:3']);
  });

  it('takes whole bodies up to 32 KiB; longer bodies and streams are written at once', () => {
    expect(WriteBatch.takes('x'.repeat(32 * 1024))).toBe(true);
    expect(WriteBatch.takes(new Uint8Array(32 * 1024))).toBe(true);
    expect(WriteBatch.takes('x'.repeat(32 * 1024 + 1))).toBe(false);
    expect(WriteBatch.takes(new Uint8Array(32 * 1024 + 1))).toBe(false);
    expect(WriteBatch.takes(new ReadableStream<Uint8Array>())).toBe(false);
  });

  it('fails only the answer whose write throws; the others are written', async () => {
    const written: string[] = [];
    const failed: string[] = [];
    const name = (res: ServerResponse) => (res as unknown as { name: string }).name;
    const batch = new WriteBatch(
      (res) => {
        if (name(res) === 'bad') throw new Error('write failed');
        written.push(name(res));
      },
      (res, err) => failed.push(`${name(res)}: ${(err as Error).message}`),
    );
    for (const n of ['a', 'bad', 'c']) batch.add(resOf(n), answerOf(n));
    batch.flush();
    expect(written).toEqual(['a', 'c']);
    expect(failed).toEqual(['bad: write failed']);
  });
});

describe('a server writing answers in batches', () => {
  it('answers pipelined requests on one connection in order, each with its own answer', async () => {
    const server = await startMockLLMServer({
      scenarios: [{ name: 'echo', steps: [{ match: { model: 'one' }, respond: { text: 'first' }, consume: false }, { match: { model: 'two' }, respond: { text: 'second' }, consume: false }] }],
    });
    try {
      const { port } = new URL(server.url);
      const request = (model: string) => {
        const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });
        return `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer sk-test\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
      };
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      // Three requests in one packet: the server reads them in one turn and batches their answers.
      socket.write(request('two') + request('one') + request('two'));
      await expect.poll(() => (text.match(/HTTP\/1\.1 200/g) ?? []).length, { timeout: 5000 }).toBe(3);
      socket.destroy();
      const contents = [...text.matchAll(/"content":"(\w+)"/g)].map((m) => m[1]);
      expect(contents).toEqual(['second', 'first', 'second']);
    } finally {
      await server.close();
    }
  });

  it('gives each of 64 concurrent SDK requests its own answer', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'echo', steps: [{ respond: { text: 'You said {{lastUserMessage}}' }, consume: false }] }] });
    try {
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
      const said = await Promise.all(
        Array.from({ length: 64 }, async (_, i) => {
          const stream = i % 2 === 1;
          if (!stream) return (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: `n${i}` }] })).choices[0].message.content;
          let text = '';
          for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: `n${i}` }] })) text += chunk.choices[0]?.delta.content ?? '';
          return text;
        }),
      );
      expect(said).toEqual(Array.from({ length: 64 }, (_, i) => `You said n${i}`));
    } finally {
      await server.close();
    }
  });
});
