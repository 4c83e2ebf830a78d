import { describe, expect, test } from 'vitest';
import type { ProviderAdapter, RenderedResponse } from '../adapter.ts';
import { mistralAdapter } from '../mistral/index.ts';
import { openAIChatAdapter } from '../openai-chat/index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { AnswerTemplates } from './answer-templates.ts';
import { mintResponseId, mintToolCallId, OPENAI_CHAT_RESPONSE_IDS, OPENAI_TOOL_CALL_IDS, RandomBytes } from './ids.ts';
import { releaseOf } from './reusable-bytes.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const request = (stream: boolean, params: Record<string, unknown> = {}): CanonicalRequest => canonicalRequest({ path: '/v1/chat/completions', model: 'gpt-4o', stream, params });
const random = new RandomBytes();
const answer = (text: string, over: Partial<CanonicalResponse> = {}): CanonicalResponse =>
  canonicalResponse({ id: mintResponseId(OPENAI_CHAT_RESPONSE_IDS, random), model: 'gpt-4o', text, usage: { inputTokens: 3, outputTokens: 12 }, ...over });
const bodyOf = (r: RenderedResponse) => (r.stream ? Buffer.from(r.stream.body!()) : Buffer.from(r.text ?? JSON.stringify(r.json)));

describe('AnswerTemplates (the mechanism)', () => {
  const chat = openAIChatAdapter();

  test('an answer seen once is rendered; from the third of its content on, it comes from the template with its own ids', () => {
    const templates = new AnswerTemplates();
    const long = Array.from({ length: 500 }, (_, i) => `w${i} `).join('');
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = answer(long, { created: 1_700_000_000 + i });
      const text = bodyOf(templates.render(chat, res, request(true), undefined, random)).toString();
      expect(text).toBe(bodyOf(chat.render(res, request(true), undefined, random)).toString());
      const frames = text.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)));
      expect(new Set(frames.map((f) => `${f.id} ${f.created}`))).toEqual(new Set([`${res.id} ${res.created}`]));
      seen.add(res.id);
    }
    expect(seen.size).toBe(6);
    expect(templates.hits).toBe(4);
  });

  test('answers with vectors (embeddings) are rendered each time, whatever adapter serves them', () => {
    const templates = new AnswerTemplates();
    // Mistral serves chat and embeddings with one adapter, whose templateKey allows both.
    const mistral = mistralAdapter();
    const state = mistral.createState!();
    const embeddings = canonicalRequest({ provider: 'embeddings', path: '/v1/embeddings', model: 'mistral-embed', stream: false, input: ['a', 'b'] });
    const vectors = [[0.25, -0.5], [1, 0]];
    for (let i = 0; i < 4; i++) {
      const res = canonicalResponse({ id: mintResponseId(mistral.responseIds!(embeddings)!, random), model: 'mistral-embed', created: 1_700_000_000 + i, embeddings: vectors });
      expect(mistral.templateKey?.(res, embeddings, state)).toBeDefined();
      expect(templates.render(mistral, res, embeddings, state, random).json).toEqual(mistral.render(res, embeddings, state, random).json);
    }
    expect(templates.hits).toBe(0);
    // The same adapter's chat answers still come from templates.
    const chatRequest = canonicalRequest({ path: '/v1/chat/completions', model: 'mistral-small-latest', stream: false });
    for (let i = 0; i < 4; i++) templates.render(mistral, canonicalResponse({ id: mintResponseId(mistral.responseIds!(chatRequest)!, random), model: 'mistral-small-latest', created: 1_700_000_000 + i, text: 'Hi.' }), chatRequest, state, random);
    expect(templates.hits).toBe(2);
  });

  test('buffers handed back are reused with the new values; bytes still held keep theirs', () => {
    const templates = new AnswerTemplates();
    const long = 'x'.repeat(6000);
    const kept: [Buffer, string][] = [];
    for (let i = 0; i < 12; i++) {
      const res = answer(long, { created: 1_700_000_000 + (i % 3) });
      // The transport's own bytes, not a copy (bodyOf copies, and a copy is not lent).
      const body = templates.render(chat, res, request(true), undefined, random).stream!.body!();
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      const text = bytes.toString();
      expect(text).toBe(bodyOf(chat.render(res, request(true), undefined, random)).toString());
      if (i % 2 === 0) releaseOf(body)?.();
      else kept.push([bytes, text]);
    }
    for (const [bytes, text] of kept) expect(bytes.toString()).toBe(text);
  });

  test('values of any length at many places are rewritten whole: ids of 8 to 80 random characters and `created` (one digit differs), handed back and reused', () => {
    for (let length = 8; length <= 80; length++) {
      const templates = new AnswerTemplates();
      for (let i = 0; i < 6; i++) {
        const res = answer('. '.repeat(200), { id: mintResponseId({ prefix: 'chatcmpl-', length }, random), created: 1_700_000_000 + (i % 2) });
        const body = templates.render(chat, res, request(true), undefined, random).stream!.body!();
        const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString();
        expect(text, `id of ${length}, answer ${i + 1}`).toBe(bodyOf(chat.render(res, request(true), undefined, random)).toString());
        releaseOf(body)?.();
      }
      expect(templates.hits, `id of ${length}`).toBe(4);
    }
  });

  test("a busy port's answers in flight all come back for reuse: 16 handed back, the next 16 reuse them", () => {
    const templates = new AnswerTemplates();
    const long = 'x'.repeat(6000);
    // The body as the transport gets it (bodyOf copies it, and a copy is not lent).
    const turn = () => Array.from({ length: 16 }, () => templates.render(chat, answer(long, { created: 1_700_000_000 }), request(true), undefined, random).stream!.body!());
    // Two turns to make the template, then a turn rendered whole before any answer is handed back, as a
    // server writing a loop turn's answers together renders them.
    turn();
    const first = turn();
    const rendered = first.map((b) => b.buffer);
    const before = templates.bytes;
    for (const b of first) releaseOf(b)?.();
    expect(templates.bytes - before).toBe(16 * first[0].byteLength);
    const again = turn();
    expect(again.filter((b) => rendered.includes(b.buffer)).length).toBe(16);
  });

  test('short streams follow `created` back and forth; answers already given keep their bytes', () => {
    const templates = new AnswerTemplates();
    const given: [Buffer, string][] = [];
    for (const second of [0, 0, 0, 1, 1, 0, 2, 2, 1]) {
      const res = answer('A short streamed answer.', { created: 1_700_000_000 + second });
      const bytes = bodyOf(templates.render(chat, res, request(true), undefined, random));
      const text = bodyOf(chat.render(res, request(true), undefined, random)).toString();
      expect(bytes.toString()).toBe(text);
      given.push([bytes, text]);
    }
    expect(templates.hits).toBe(7);
    for (const [bytes, text] of given) expect(bytes.toString()).toBe(text);
  });

  test('tool calls with minted ids take the same path as text', () => {
    const templates = new AnswerTemplates();
    for (let i = 0; i < 4; i++) {
      const toolCalls = [
        { id: mintToolCallId(OPENAI_TOOL_CALL_IDS, 'get_weather', random), name: 'get_weather', arguments: { city: 'Paris' } },
        { id: mintToolCallId(OPENAI_TOOL_CALL_IDS, 'get_time', random), name: 'get_time', arguments: { zone: 'CET' } },
      ];
      const res = answer('', { toolCalls, finishReason: 'tool_calls' });
      const text = bodyOf(templates.render(chat, res, request(true), undefined, random)).toString();
      expect(text).toBe(bodyOf(chat.render(res, request(true), undefined, random)).toString());
      for (const c of toolCalls) expect(text).toContain(c.id);
    }
    expect(templates.hits).toBe(2);
  });

  test('JSON answers come from templates too, where the adapter allows them', () => {
    const json: ProviderAdapter = { ...chat, templateKey: () => '' };
    const templates = new AnswerTemplates();
    for (let i = 0; i < 4; i++) {
      const res = answer('plain', { created: 1_700_000_000 + i });
      const rendered = templates.render(json, res, request(false), undefined, random);
      expect(bodyOf(rendered).toString()).toBe(bodyOf(chat.render(res, request(false), undefined, random)).toString());
      expect(rendered.json).toMatchObject({ id: res.id, created: res.created });
    }
    expect(templates.hits).toBe(2);
  });

  test('a rendering that reads something the key does not name never becomes a template', () => {
    // A clock read while rendering, and an id sent encoded: the build's second rendering shows both.
    let clock = 0;
    const odd: ProviderAdapter = {
      ...chat,
      render: (res) => ({ status: 200, headers: {}, text: JSON.stringify({ id: Buffer.from(res.id).toString('base64'), at: (clock += 1) }) }),
      templateKey: () => '',
    };
    const templates = new AnswerTemplates();
    for (let i = 0; i < 5; i++) {
      const res = answer('same');
      const text = bodyOf(templates.render(odd, res, request(false), undefined, random)).toString();
      expect(JSON.parse(text).id).toBe(Buffer.from(res.id).toString('base64'));
    }
    expect(templates.hits).toBe(0);
  });

  test('answers whose key differs (stream_options, n) get templates of their own', () => {
    const templates = new AnswerTemplates();
    const variants = [{}, { stream_options: { include_usage: true } }, { n: 2 }];
    for (let round = 0; round < 3; round++) {
      for (const params of variants) {
        const res = answer('hello');
        expect(bodyOf(templates.render(chat, res, request(true, params), undefined, random)).toString()).toBe(
          bodyOf(chat.render(res, request(true, params), undefined, random)).toString(),
        );
      }
    }
    expect(templates.hits).toBe(variants.length);
  });

  test('answers of one step key on the step: what varies per request (model, usage, path) still gets templates of its own, and two steps never share one', () => {
    const templates = new AnswerTemplates();
    const stepA = { text: 'hello' };
    const stepB = { text: 'hello' };
    const req = (model: string) => canonicalRequest({ path: '/v1/chat/completions', model, stream: true, params: { stream_options: { include_usage: true } } });
    const variants: [object, string, number][] = [[stepA, 'gpt-4o', 3], [stepA, 'gpt-4o-mini', 3], [stepA, 'gpt-4o', 9], [stepB, 'gpt-4o', 3]];
    for (let round = 0; round < 3; round++) {
      for (const [source, model, inputTokens] of variants) {
        const res = answer('hello', { model, source, usage: { inputTokens, outputTokens: 2 } });
        const text = bodyOf(templates.render(chat, res, req(model), undefined, random)).toString();
        expect(text).toBe(bodyOf(chat.render(res, req(model), undefined, random)).toString());
        expect(text).toContain(`"model":"${model}"`);
        expect(text).toContain(`"prompt_tokens":${inputTokens}`);
      }
    }
    // One template per variant, each used once (the third round); none served another's bytes (above).
    expect(templates.hits).toBe(variants.length);
  });

  test('memory is bounded in entries and in bytes, whatever answers come', () => {
    const templates = new AnswerTemplates({ maxEntries: 8, maxBytes: 256 * 1024 });
    for (let i = 0; i < 60; i++) {
      for (let again = 0; again < 3; again++) {
        const res = answer(`${i} `.repeat(150));
        const bytes = bodyOf(templates.render(chat, res, request(true), undefined, random));
        releaseOf(bytes)?.();
      }
      expect(templates.bytes).toBeLessThanOrEqual(256 * 1024);
    }
    expect(templates.hits).toBeGreaterThan(0);
  });

  test('paced, cut and failing streams are rendered as they are', () => {
    const templates = new AnswerTemplates();
    for (const stream of [
      { chunkSize: 4, chunkDelayMs: 1, chunks: null, disconnectAfterChunks: null },
      { chunkSize: 4, chunkDelayMs: 0, chunks: null, disconnectAfterChunks: 2 },
    ]) {
      for (let i = 0; i < 4; i++) templates.render(chat, answer('paced', { stream }), request(true), undefined, random);
    }
    expect(templates.hits).toBe(0);
  });
});
