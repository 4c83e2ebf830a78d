import { describe, expect, it } from 'vitest';
import { AnswerTemplates } from '../common/answer-templates.ts';
import { RandomBytes } from '../common/ids.ts';
import { mistralAdapter } from './index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const chat = (raw: Record<string, unknown> = {}): CanonicalRequest => canonicalRequest({ provider: 'mistral', path: '/v1/chat/completions', model: 'mistral-large-latest', stream: true, raw });

function answer(round: number, callId: string): CanonicalResponse {
  return canonicalResponse({
    id: `0123456789abcdef0123456789abcde${round}`,
    model: 'mistral-large-latest',
    created: 1_700_000_000 + round,
    toolCalls: [{ id: callId, name: 'get_weather', arguments: { city: 'Paris' } }],
    usage: { inputTokens: 5, outputTokens: 3 },
    finishReason: 'tool_calls',
  });
}

const wireId = (r: ReturnType<AnswerTemplates['render']>) => /"tool_calls":\[\{"id":"([^"]+)"/.exec(r.stream!.frames.join(''))![1];

describe('Mistral answers from templates (issue 29)', () => {
  it('templates answers whose call ids are in its form; keys on the reasoning effort', () => {
    const adapter = mistralAdapter();
    expect(adapter.templateKey!(answer(0, 'D681PevKs'), chat({ reasoning_effort: 'high' }), adapter.createState!())).not.toBe(adapter.templateKey!(answer(0, 'D681PevKs'), chat(), adapter.createState!()));
    const templates = new AnswerTemplates();
    const state = adapter.createState!();
    const ids = [0, 1, 2, 3].map((round) => wireId(templates.render(adapter, answer(round, `D681PevK${round}`), chat(), state, new RandomBytes())));
    expect(ids).toEqual(['D681PevK0', 'D681PevK1', 'D681PevK2', 'D681PevK3']);
    expect(templates.hits).toBe(2);
  });

  it("renders each time an answer whose call id is mapped in the mock's state (a scenario's `call_weather_1`)", () => {
    const adapter = mistralAdapter();
    const state = adapter.createState!();
    expect(adapter.templateKey!(answer(0, 'call_weather_1'), chat(), state)).toBeUndefined();
    const templates = new AnswerTemplates();
    const ids = [0, 1, 2, 3].map((round) => wireId(templates.render(adapter, answer(round, 'call_weather_1'), chat(), state, new RandomBytes())));
    expect(templates.hits).toBe(0);
    // One mapping, kept: every answer names the call by the same 9 characters, which map back.
    expect(new Set(ids).size).toBe(1);
    expect(state.canonical(ids[0])).toBe('call_weather_1');
  });
});
