import { describe, expect, test } from 'vitest';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { ChunkCache, renderChat, renderChatChunks } from './render.ts';
import { chatCompletionText, CompletionTails, renderChatCompletion } from './completion.ts';
import { releaseOf } from '../common/reusable-bytes.ts';

const request = (params: Record<string, unknown> = {}): CanonicalRequest => ({
  provider: 'openai',
  path: '/v1/chat/completions',
  model: 'gpt-4o',
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  headers: {},
  params,
  raw: {},
});
const response = (id: string, created: number, model = 'gpt-4o'): CanonicalResponse => ({
  id,
  model,
  created,
  text: 'Héllo there, a streamed answer in a few frames.',
  toolCalls: [],
  usage: { inputTokens: 3, outputTokens: 12 },
  finishReason: 'stop',
  stream: { chunkSize: 4, chunkDelayMs: 0, chunks: null, disconnectAfterChunks: null },
  headers: {},
});

describe('renderChatChunks bytes', () => {
  test('equal the frames joined, answer after answer from one cache, reused buffers included (ids, created, model and usage vary)', () => {
    const cache = new ChunkCache();
    const answers: [CanonicalResponse, CanonicalRequest][] = [
      [response('aaaaaaaa', 1_700_000_000), request()],
      [response('bbbbbbbb', 1_700_000_000), request()],
      [response('abababab', 1_700_000_001), request()],
      [response('a-longer-id', 1_700_000_002), request()],
      [response('cccccccc', 1_700_000_003, 'gpt-4o-mini'), request()],
      [response('dddddddd', 1_700_000_004), request({ stream_options: { include_usage: true } })],
      [response('eeeeeeee', 1_700_000_005), request({ stream_options: { include_usage: true } })],
    ];
    const ids = new Set<string>();
    const kept: [Buffer, string][] = [];
    // Twice over: the second pass reuses the buffers handed back in the first (each carrying an older head).
    for (const [index, [res, req]] of [...answers, ...answers.map(([r, q], i) => [{ ...r, id: `${r.id}-${i}` }, q] as const)].entries()) {
      const stream = renderChatChunks(res, req, cache);
      const bytes = stream.bytes();
      const text = bytes.toString('utf8');
      expect(text).toBe(stream.frames().join(''));
      // Every other answer is handed back as a transport does once written; the rest stay with their holder.
      if (index % 2 === 0) releaseOf(bytes)?.();
      else kept.push([bytes, text]);
      const chunks = text.split('\n\n').filter((f) => f && f !== 'data: [DONE]').map((f) => JSON.parse(f.slice('data: '.length)));
      expect(new Set(chunks.map((c) => `${c.id} ${c.created} ${c.model}`))).toEqual(new Set([`chatcmpl-${res.id} ${res.created} ${res.model}`]));
      ids.add(chunks[0].id);
    }
    expect(ids.size).toBe(answers.length * 2);
    // Bytes never handed back are never reused: they still read as when they were rendered.
    for (const [bytes, text] of kept) expect(bytes.toString('utf8')).toBe(text);
  });

  test('a full cache evicts its oldest answer and renders it anew when it comes back', () => {
    const cache = new ChunkCache(2);
    const texts = ['first answer', 'second answer', 'third answer', 'first answer'];
    for (const [i, text] of texts.entries()) {
      const stream = renderChatChunks({ ...response(`id${i}`, 1_700_000_000), text }, request(), cache);
      const bytes = stream.bytes();
      releaseOf(bytes)?.();
      const content = [...bytes.toString('utf8').matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
      expect(content).toBe(text);
      expect(bytes.toString('utf8')).toBe(stream.frames().join(''));
    }
  });
});

describe('chat.completion text', () => {
  const texts = ['A short answer.', '', 'quotes " and \\ backslashes, \n new lines, \t tabs, \u0001 controls', 'héllo ✓ 😀 \u2028 \ud800 lone', 'x'.repeat(5000)];
  const calls = [
    [],
    [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', n: [1, 2.5, null], nested: { ok: true } } }],
    [{ id: 'call_"q"', name: 'a', arguments: '{"raw": "kept as sent"}' }, { id: 'call_2', name: 'b', arguments: {} }],
  ];
  const params = [{}, { n: 3 }, { service_tier: 'flex' }, { service_tier: 'auto', n: 2 }];
  const finishes = ['stop', 'length', 'tool_calls', 'stop_sequence', 'content_filter'] as const;

  test('is exactly JSON.stringify of the object, whatever the answer holds', () => {
    let seen = 0;
    for (const text of texts) {
      for (const toolCalls of calls) {
        for (const p of params) {
          for (const finishReason of finishes) {
            const res = { ...response('0123456789abcdef', 1_700_000_000 + seen, 'model "quoted" ✓'), text, toolCalls, finishReason, usage: { inputTokens: seen, outputTokens: 2 ** 40 } };
            const req = { ...request(p), stream: false };
            expect(chatCompletionText(res, req)).toBe(JSON.stringify(renderChatCompletion(res, req)));
            seen += 1;
          }
        }
      }
    }
    expect(seen).toBe(texts.length * calls.length * params.length * finishes.length);
  });

  test('with a tails memo, every answer is still exactly JSON.stringify of its object (repeats, and every field changing)', () => {
    const tails = new CompletionTails();
    let seen = 0;
    // Each answer twice in a row (the memo's hit), then the next differing in one field (its miss).
    for (const text of texts) {
      for (const toolCalls of calls) {
        for (const p of params) {
          for (const finishReason of finishes) {
            for (const usage of [{ inputTokens: 1, outputTokens: 2 }, { inputTokens: 1, outputTokens: 3 }, { inputTokens: 4, outputTokens: 3 }]) {
              for (let again = 0; again < 2; again++) {
                const res = { ...response(`id${seen}`, 1_700_000_000 + seen, `model-${seen}`), text, toolCalls, finishReason, usage };
                const req = { ...request(p), stream: false };
                expect(chatCompletionText(res, req, tails)).toBe(JSON.stringify(renderChatCompletion(res, req)));
                seen += 1;
              }
            }
          }
        }
      }
    }
    expect(seen).toBe(texts.length * calls.length * params.length * finishes.length * 6);
  });

  test('falls back to the object (no text) for values the fast path does not expect, and renderChat carries the text', () => {
    const req = { ...request(), stream: false };
    expect(chatCompletionText({ ...response('a', Number.NaN), text: 'x' }, req)).toBeUndefined();
    expect(chatCompletionText({ ...response('a', 1), usage: { inputTokens: Infinity, outputTokens: 1 } }, req)).toBeUndefined();
    const rendered = renderChat(response('b', 1_700_000_000), req);
    expect(rendered.text).toBe(JSON.stringify(rendered.json));
  });
});
