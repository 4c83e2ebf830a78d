import { describe, expect, it } from 'vitest';
import { AnswerTemplates } from '../common/answer-templates.ts';
import { RandomBytes } from '../common/ids.ts';
import { ollamaAdapter } from './index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const chat = (stream: boolean, raw: Record<string, unknown> = {}): CanonicalRequest => canonicalRequest({ provider: 'ollama', path: '/api/chat', model: 'llama3.2', stream, raw });

function answer(round: number, over: Partial<CanonicalResponse> = {}): CanonicalResponse {
  return canonicalResponse({ model: 'llama3.2', created: 1_700_000_000 + round * 3_601, text: 'Hello there.', usage: { inputTokens: 5, outputTokens: 3 }, ...over });
}

const body = (r: ReturnType<AnswerTemplates['render']>) => (r.stream ? (r.stream.body ? Buffer.from(r.stream.body()).toString() : r.stream.frames.join('')) : (r.text ?? JSON.stringify(r.json)));

describe('Ollama answers from templates (issue 29)', () => {
  it.each([false, true])('gives each answer its own created_at (stream %s)', (stream) => {
    const adapter = ollamaAdapter();
    const templates = new AnswerTemplates();
    const state = adapter.createState!();
    for (let round = 0; round < 4; round++) {
      const out = body(templates.render(adapter, answer(round), chat(stream), state, new RandomBytes()));
      const first = JSON.parse(out.split('\n')[0]) as { created_at: string };
      expect(first.created_at).toBe(new Date((1_700_000_000 + round * 3_601) * 1000).toISOString());
    }
    expect(templates.hits).toBe(2);
  });

  it("keys on `think`; a templated tool call answer leaves its call's id for the tool result", () => {
    const adapter = ollamaAdapter();
    expect(adapter.templateKey!(answer(0), chat(true, { think: true }), new Map())).not.toBe(adapter.templateKey!(answer(0), chat(true), new Map()));
    const templates = new AnswerTemplates();
    const state = adapter.createState!();
    const call = (round: number) => [{ id: `call_${round}_abcdefgh`, name: 'get_weather', arguments: { city: 'Paris' } }];
    for (let round = 0; round < 4; round++) templates.render(adapter, answer(round, { text: '', toolCalls: call(round), finishReason: 'tool_calls' }), chat(true), state, new RandomBytes());
    expect(templates.hits).toBe(2);
    // The last answer's id, not the check rendering's made-up one.
    expect([...state.values()]).toEqual(['call_3_abcdefgh']);
  });
});
