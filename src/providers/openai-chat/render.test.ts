import { describe, expect, test } from 'vitest';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { renderChat, renderChatChunks } from './render.ts';
import { chatCompletionText, renderChatCompletion } from './completion.ts';

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
  test('equal the frames joined (ids, created, model and usage vary)', () => {
    const answers: [CanonicalResponse, CanonicalRequest][] = [
      [response('aaaaaaaa', 1_700_000_000), request()],
      [response('cccccccc', 1_700_000_003, 'gpt-4o-mini'), request()],
      [response('dddddddd', 1_700_000_004), request({ stream_options: { include_usage: true } })],
    ];
    for (const [res, req] of answers) {
      const stream = renderChatChunks(res, req);
      const text = stream.bytes().toString('utf8');
      expect(text).toBe(stream.frames().join(''));
      const chunks = text.split('\n\n').filter((f) => f && f !== 'data: [DONE]').map((f) => JSON.parse(f.slice('data: '.length)));
      expect(new Set(chunks.map((c) => `${c.id} ${c.created} ${c.model}`))).toEqual(new Set([`chatcmpl-${res.id} ${res.created} ${res.model}`]));
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

  test('falls back to the object (no text) for values the fast path does not expect, and renderChat carries the text', () => {
    const req = { ...request(), stream: false };
    expect(chatCompletionText({ ...response('a', Number.NaN), text: 'x' }, req)).toBeUndefined();
    expect(chatCompletionText({ ...response('a', 1), usage: { inputTokens: Infinity, outputTokens: 1 } }, req)).toBeUndefined();
    const rendered = renderChat(response('b', 1_700_000_000), req);
    expect(rendered.text).toBe(JSON.stringify(rendered.json));
  });
});
