import { describe, expect, it } from 'vitest';
import { AnswerTemplates } from '../common/answer-templates.ts';
import { RandomBytes } from '../common/ids.ts';
import { geminiAdapter } from './index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { canonicalRequest } from '../testing/canonical.ts';

function request(model: string, generationConfig: unknown, stream = true): CanonicalRequest {
  return canonicalRequest({ provider: 'gemini', path: `/v1beta/models/${model}:streamGenerateContent`, model, stream, raw: { generationConfig } });
}

function answer(round: number, over: Partial<CanonicalResponse> = {}): CanonicalResponse {
  return {
    id: `UxQ6aM_sKbjFnvgPocrJa${round}`,
    model: 'gemini-2.5-flash',
    created: 1_700_000_000 + round,
    text: 'It is sunny in Paris.',
    toolCalls: [],
    usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 3 },
    finishReason: 'stop',
    stream: { chunkSize: 6, chunkDelayMs: 0, chunks: null, disconnectAfterChunks: null },
    headers: {},
    reasoning: { text: 'The user wants the weather.', redacted: false },
    ...over,
  };
}

const frames = (r: ReturnType<AnswerTemplates['render']>) => (r.stream ? r.stream.frames.join('') : JSON.stringify(r.json));

describe('Gemini answers from templates (issue 29)', () => {
  const adapter = geminiAdapter();

  it('keys on the thinking settings: a thought summary answer is templated, the same bytes as a rendering', () => {
    const thoughts = adapter.createState!();
    const req = request('gemini-2.5-flash', { thinkingConfig: { includeThoughts: true } });
    expect(adapter.templateKey!(answer(0), req, thoughts)).not.toBe(adapter.templateKey!(answer(0), request('gemini-2.5-flash', {}), thoughts));
    const templates = new AnswerTemplates();
    for (let round = 0; round < 4; round++) {
      const templated = frames(templates.render(adapter, answer(round), req, thoughts, new RandomBytes()));
      expect(templated).toBe(frames(adapter.render(answer(round), req, thoughts)));
      expect(templated).toContain('"thought":true');
    }
    expect(templates.hits).toBe(2);
  });

  it.each([
    ['a Gemini 3 answer (always signed)', 'gemini-3-flash-preview', []],
    ['a 2.5 function call with reasoning (signed)', 'gemini-2.5-flash', [{ id: 'a1b2c3d4', name: 'get_weather', arguments: { city: 'Paris' } }]],
  ])('renders %s each time: its signature is sealed by this mock, fresh each answer', (_name, model, toolCalls) => {
    const thoughts = adapter.createState!();
    const req = request(model, {});
    expect(adapter.templateKey!(answer(0, { toolCalls }), req, thoughts)).toBeUndefined();
    const templates = new AnswerTemplates();
    const signatures = [0, 1, 2, 3].map((round) => {
      const body = frames(templates.render(adapter, answer(round, { toolCalls }), req, thoughts, new RandomBytes()));
      return /"thoughtSignature":"([^"]+)"/.exec(body)![1];
    });
    expect(templates.hits).toBe(0);
    expect(new Set(signatures).size).toBe(4);
    for (const s of signatures) expect(thoughts.valid(s)).toBe(true);
  });

  it('templates a 2.5 answer with thinking off (`thinkingBudget: 0`) even with calls and reasoning', () => {
    const req = request('gemini-2.5-flash', { thinkingConfig: { thinkingBudget: 0 } }, false);
    const calls = [{ id: 'a1b2c3d4', name: 'get_weather', arguments: { city: 'Paris' } }];
    expect(adapter.templateKey!(answer(0, { toolCalls: calls }), req, adapter.createState!())).toBe('[false,true]');
  });
});
