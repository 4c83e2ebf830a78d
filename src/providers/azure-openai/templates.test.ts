import { describe, expect, it } from 'vitest';
import { AnswerTemplates } from '../common/answer-templates.ts';
import { RandomBytes } from '../common/ids.ts';
import { azureOpenAIAdapter } from './index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const request = (path: string, stream: boolean, raw: Record<string, unknown> = {}): CanonicalRequest => canonicalRequest({ provider: 'azure-openai', path, model: 'gpt-4.1', stream, raw });

const answer = (round: number): CanonicalResponse =>
  canonicalResponse({ id: `resp_${'0'.repeat(46)}${round}0`, model: 'gpt-4.1', created: 1_700_000_000 + round, text: 'Hello there, traveller.', usage: { inputTokens: 5, outputTokens: 3 } });

const text = (r: ReturnType<AnswerTemplates['render']>) => (r.stream ? r.stream.frames.join('') : (r.text ?? JSON.stringify(r.json)));

describe('Azure OpenAI answers from templates (issue 29)', () => {
  it("keys each API apart (the same answer on chat and Responses routes is two templates)", () => {
    const adapter = azureOpenAIAdapter();
    const state = adapter.createState!();
    const chat = adapter.templateKey!(answer(0), request('/openai/deployments/gpt-4.1/chat/completions', false), state);
    const responses = adapter.templateKey!(answer(0), request('/openai/v1/responses', false), state);
    expect(chat).toMatch(/^chat/);
    expect(responses).toMatch(/^responses/);
  });

  it.each([false, true])('stores templated Responses answers in the mock, each with its own item ids (stream %s)', (stream) => {
    const adapter = azureOpenAIAdapter();
    const state = adapter.createState!();
    const templates = new AnswerTemplates();
    const req = request('/openai/v1/responses', stream);
    const items = [0, 1, 2, 3].map((round) => /"id":"(msg_[0-9a-f]{48})"/.exec(text(templates.render(adapter, answer(round), req, state, new RandomBytes())))![1]);
    expect(templates.hits).toBe(2);
    expect(new Set(items).size).toBe(4);
    // Each stored object holds the item id its answer carried.
    for (const round of [0, 1, 2, 3]) expect((state.store.get(answer(round).id)?.object.output as Array<{ id: string }>)[0].id).toBe(items[round]);
    expect(state.store.size).toBe(4);
  });
});
