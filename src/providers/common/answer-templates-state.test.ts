import { describe, expect, it } from 'vitest';
import type { ProviderAdapter, RenderedResponse } from '../adapter.ts';
import { AnswerTemplates } from './answer-templates.ts';
import { ID_ALPHABETS, randomAlnum, RandomBytes } from './ids.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const request: CanonicalRequest = canonicalRequest({ provider: 'ollama', path: '/api/chat' });

function answer(created: number, over: Partial<CanonicalResponse> = {}): CanonicalResponse {
  return canonicalResponse({ created, text: 'Hello there.', usage: { inputTokens: 1, outputTokens: 2 }, ...over });
}

const body = (rendered: RenderedResponse): string => rendered.text ?? JSON.stringify(rendered.json);

/** A state that records what rendering (or `templated`) wrote to it. */
interface Log {
  ids: string[];
}

/** A made-up adapter: an ISO `created_at`, an item id drawn from `random`, and the item id written to its state. */
function isoAdapter(): ProviderAdapter<Log> {
  const item = (random?: RandomBytes) => `item_${randomAlnum(16, ID_ALPHABETS.hex, random)}`;
  return {
    id: 'ollama',
    hosts: [],
    credentials: { headers: [], query: [] },
    framing: 'sse',
    routes: () => true,
    authenticate: () => null,
    createState: () => ({ ids: [] }),
    parse: () => request,
    render(response: CanonicalResponse, _request: CanonicalRequest, state: Log, random?: RandomBytes): RenderedResponse {
      const id = item(random);
      state.ids.push(id);
      return { status: 200, headers: {}, json: { id, created_at: new Date(response.created * 1000).toISOString(), text: response.text } };
    },
    templateKey: () => '',
    templated(_response: CanonicalResponse, _request: CanonicalRequest, state: Log, random: RandomBytes) {
      state.ids.push(item(random));
    },
    renderError: () => ({ status: 500, headers: {}, json: null }),
    reader: undefined as never,
  };
}

describe('answer templates: ISO created, the check state, templated (issue 29, helper tplB)', () => {
  it('cuts `created` in its ISO form too, so an ISO timestamp answer is templated with a fresh time', () => {
    const adapter = isoAdapter();
    const templates = new AnswerTemplates();
    const state = adapter.createState!();
    const bodies = [0, 1, 2, 3].map((round) => body(templates.render(adapter, answer(1_700_000_000 + round * 61), request, state, new RandomBytes())));
    expect(templates.hits).toBe(2);
    const last = JSON.parse(bodies[3]) as { created_at: string; id: string };
    expect(last.created_at).toBe(new Date((1_700_000_000 + 3 * 61) * 1000).toISOString());
    expect(last.id).toMatch(/^item_[0-9a-f]{16}$/);
  });

  it("renders the check with a state of its own, and calls `templated` with the answer's own draws on a hit", () => {
    const adapter = isoAdapter();
    const templates = new AnswerTemplates();
    const state = adapter.createState!();
    const ids = [0, 1, 2].map((round) => (JSON.parse(body(templates.render(adapter, answer(1_700_000_000 + round), request, state, new RandomBytes()))) as { id: string }).id);
    expect(templates.hits).toBe(1);
    // Three answers, three ids in the mock's state: the ones on the wire (the check's made-up one is not among them).
    expect(state.ids).toEqual(ids);
  });

  it("checks with other ids of the ids' own alphabet, so a rendering that reshapes a UUID (its hex digits, dashes put back) is templated", () => {
    const adapter = isoAdapter();
    const uuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    adapter.render = (response: CanonicalResponse) => ({ status: 200, headers: {}, json: { id: uuid(response.id.replace(/[^0-9a-f]/g, '')), text: response.text } });
    const templates = new AnswerTemplates();
    const hex = (round: number) => uuid(`0123456789abcdef0123456789abc${round}ef`);
    const ids = [0, 1, 2, 3].map((round) => (JSON.parse(body(templates.render(adapter, answer(1_700_000_000, { id: hex(round) }), request, adapter.createState!(), new RandomBytes()))) as { id: string }).id);
    expect(templates.hits).toBe(2);
    expect(ids[3]).toBe(hex(3));
  });

  it('evicts the least recently used: a template answered from since survives a newer one that was not', () => {
    const adapter = isoAdapter();
    const templates = new AnswerTemplates({ maxEntries: 3 });
    const state = adapter.createState!();
    const say = (text: string) => templates.render(adapter, answer(1_700_000_000, { text }), request, state, new RandomBytes());
    say('A');
    say('A');
    say('A');
    say('B');
    say('B');
    expect(templates.hits).toBe(1);
    say('A');
    expect(templates.hits).toBe(2);
    // Two answers seen once: one entry too many, and B, not A, was least recently used.
    say('C');
    say('D');
    say('A');
    expect(templates.hits).toBe(3);
    say('B');
    expect(templates.hits).toBe(3);
  });

  it('keeps no template for an answer whose timestamp is not one of its values (a clock read)', () => {
    const adapter = isoAdapter();
    adapter.render = (response: CanonicalResponse) => ({ status: 200, headers: {}, json: { at: new Date(Date.now() + Math.random() * 1e9).toISOString(), text: response.text } });
    const templates = new AnswerTemplates();
    for (let round = 0; round < 4; round++) templates.render(adapter, answer(1_700_000_000 + round), request, adapter.createState!(), new RandomBytes());
    expect(templates.hits).toBe(0);
  });
});
