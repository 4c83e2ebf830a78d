import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from './canonical.ts';
import { cosineSimilarity, embedText } from './embed.ts';
import { ScenarioEngine } from './engine.ts';
import { matchFailures, quickMiss } from './match.ts';

function chat(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    provider: 'openai',
    path: '/v1/chat/completions',
    model: 'gpt-4o',
    stream: false,
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: [{ name: 'get_weather' }],
    headers: {},
    params: {},
    raw: {},
    ...overrides,
  };
}

const weather = {
  name: 'weather',
  variables: { city: 'Paris' },
  steps: [
    {
      match: { lastMessage: { role: 'user' as const, content: { contains: 'weather' } }, tools: ['get_weather'] },
      respond: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: '{{city}}' } }], expectToolResults: true },
    },
    { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in {{city}}, said {{model}}' } },
  ],
};

describe('ScenarioEngine', () => {
  it("mints a tool call's missing id through the API's minter (with the tool's name), keeps a given one, and expects results for both", () => {
    const engine = new ScenarioEngine([
      { name: 'ids', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: {} }, { id: 'mine_1', name: 'get_time', arguments: {} }], expectToolResults: true } }, { respond: { text: 'ok' } }] },
    ]);
    const names: string[] = [];
    const first = engine.select(chat(), { toolCallId: (name) => (names.push(name), `api_${name}_7`), responseId: () => undefined });
    if (first.kind !== 'respond') throw new Error(first.kind);
    expect(first.response.toolCalls.map((c) => c.id)).toEqual(['api_get_weather_7', 'mine_1']);
    expect(names).toEqual(['get_weather']);
    const missing = engine.select(chat({ messages: [{ role: 'tool', content: '21', toolCallId: 'mine_1' }] }));
    expect(missing.kind === 'error' && missing.error.message).toContain('["api_get_weather_7"]');
  });

  it("takes each response's id from the API's minter, and mints a bare 24-hex one when it has none", () => {
    const engine = new ScenarioEngine([{ name: 'ids', steps: [{ respond: { text: 'a' } }, { respond: { text: 'b' } }, { respond: { text: 'c' } }] }]);
    let n = 0;
    const api = { toolCallId: () => 'unused', responseId: () => `msg_api_${++n}` };
    const ids = [api, { toolCallId: () => 'unused', responseId: () => undefined }, undefined].map((minter) => {
      const selection = engine.select(chat(), minter);
      if (selection.kind !== 'respond') throw new Error(selection.kind);
      return selection.response.id;
    });
    expect(ids[0]).toBe('msg_api_1');
    expect(ids[1]).toMatch(/^[0-9a-f]{24}$/);
    expect(ids[2]).toMatch(/^[0-9a-f]{24}$/);
    expect(ids[1]).not.toBe(ids[2]);
  });

  it("names a step as its answer's source only when all the answer's content but ids, model and usage is the step's own", () => {
    const steps = [
      { match: { model: 'plain' }, respond: { text: 'same every time', toolCalls: [{ name: 'f', arguments: { a: 1 } }] }, consume: false },
      { match: { model: 'templated' }, respond: { text: 'for {{model}}' }, consume: false },
      { match: { model: 'structured' }, respond: { json: { a: 1 } }, consume: false },
      { match: { model: 'echo' }, respond: { text: 'x', echoHeaders: ['x-trace'] }, consume: false },
    ];
    const engine = new ScenarioEngine([{ name: 'sources', steps }]);
    const sourceOf = (model: string, content = 'hi') => {
      const selection = engine.select(chat({ model, messages: [{ role: 'user', content }] }));
      if (selection.kind !== 'respond') throw new Error(selection.kind);
      return selection.response;
    };
    const [a, b] = [sourceOf('plain'), sourceOf('plain', 'a much longer question than before')];
    expect(a.source).toBeDefined();
    expect(b.source).toBe(a.source);
    // The usage still follows the request (and the arguments' length counts in the output estimate).
    expect(b.usage.inputTokens).toBeGreaterThan(a.usage.inputTokens);
    expect(a.usage.outputTokens).toBe(Math.ceil(('same every time'.length + 'f'.length + '{"a":1}'.length) / 4));
    for (const model of ['templated', 'structured', 'echo']) expect(sourceOf(model).source).toBeUndefined();
  });

  it('mints a bare 24-hex tool call id, no provider prefix, when given no minter', () => {
    const engine = new ScenarioEngine([{ name: 'ids', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: {} }] } }] }]);
    const first = engine.select(chat());
    if (first.kind !== 'respond') throw new Error(first.kind);
    expect(first.response.toolCalls[0].id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('progresses through steps of a tool loop, templating variables', () => {
    const engine = new ScenarioEngine([weather]);
    const first = engine.select(chat());
    expect(first.kind).toBe('respond');
    if (first.kind !== 'respond') return;
    expect(first.response.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(first.response.finishReason).toBe('tool_calls');

    const second = engine.select(
      chat({
        messages: [
          { role: 'user', content: 'What is the weather in Paris?' },
          { role: 'assistant', content: '', toolCalls: first.response.toolCalls },
          { role: 'tool', content: '{"temp":21}', toolCallId: 'call_1' },
        ],
      }),
    );
    expect(second.kind === 'respond' && second.response.text).toBe('Sunny in Paris, said gpt-4o');
    expect(engine.unconsumed()).toEqual([]);
  });

  it('rejects a request that does not carry the expected tool results', () => {
    const engine = new ScenarioEngine([weather]);
    engine.select(chat());
    const next = engine.select(chat({ messages: [{ role: 'user', content: 'and tomorrow?' }] }));
    expect(next.kind).toBe('error');
    if (next.kind !== 'error') return;
    expect(next.error.status).toBe(400);
    expect(next.error.message).toContain('["call_1"]');
  });

  it('explains near misses when nothing matches', () => {
    const engine = new ScenarioEngine([
      { name: 'a', steps: [{ match: { model: 'gpt-4o', stream: true }, respond: { text: 'x' } }] },
      { name: 'b', steps: [{ match: { provider: 'anthropic' }, respond: { text: 'y' } }] },
    ]);
    const result = engine.select(chat({ model: 'gpt-4o-mini' }));
    expect(result.kind).toBe('no-match');
    if (result.kind !== 'no-match') return;
    expect(result.error.status).toBe(404);
    expect(result.nearMisses[0]).toEqual({ step: { scenario: 'b', index: 0 }, failed: ['provider: expected "anthropic", got "openai"'] });
    expect(result.error.message).toContain('model: expected "gpt-4o", got "gpt-4o-mini"');
  });

  it('a step passed by on a field compared as it is always has its failures named', () => {
    const matches = [{ model: 'gpt-4o' }, { model: 'gpt-4o-mini' }, { provider: 'anthropic' as const }, { provider: 'openai' as const }, { stream: true }, { stream: false }, { path: '/v1/messages' }, { path: '/v1/chat/completions' }, { model: { contains: 'mini' } }];
    const requests = [chat(), chat({ model: 'gpt-4o-mini', stream: true }), chat({ provider: 'anthropic', path: '/v1/messages', model: 'claude' })];
    let quick = 0;
    for (const match of matches) {
      for (const request of requests) {
        if (!quickMiss(match, request)) continue;
        quick += 1;
        expect(matchFailures(match, request).length, JSON.stringify(match)).toBeGreaterThan(0);
      }
    }
    expect(quick).toBeGreaterThan(8);
    expect(quickMiss({ model: { contains: 'mini' } }, chat())).toBe(false);
  });

  it('honours priority, times and consume:false', () => {
    const engine = new ScenarioEngine([
      { name: 'low', steps: [{ respond: { text: 'fallback' }, consume: false }] },
      { name: 'high', priority: 5, steps: [{ respond: { text: 'twice' }, times: 2 }] },
    ]);
    const texts = [1, 2, 3, 4].map(() => {
      const s = engine.select(chat());
      return s.kind === 'respond' ? s.response.text : s.kind;
    });
    expect(texts).toEqual(['twice', 'twice', 'fallback', 'fallback']);
    expect(engine.unconsumed()).toEqual([]);
    engine.reset();
    expect(engine.unconsumed()).toEqual([{ scenario: 'high', index: 0 }]);
  });

  it('use() adds scenarios tried before existing ones and replaces by name', () => {
    const engine = new ScenarioEngine([{ name: 'a', steps: [{ respond: { text: 'a' }, consume: false }] }]);
    engine.use({ name: 'b', steps: [{ respond: { text: 'b' } }] });
    const first = engine.select(chat());
    expect(first.kind === 'respond' && first.response.text).toBe('b');
    engine.use({ name: 'a', steps: [{ respond: { text: 'a2' }, consume: false }] });
    const second = engine.select(chat());
    expect(second.kind === 'respond' && second.response.text).toBe('a2');
  });

  it('matches on every message, headers and lastUserMessage templating', () => {
    const engine = new ScenarioEngine([
      {
        name: 'sys',
        steps: [
          {
            match: { messages: [{ role: 'system', content: { regex: 'tools?' } }], headers: { 'x-run': 'a' } },
            respond: { text: 'You said: {{lastUserMessage}}', error: undefined },
          },
        ],
      },
    ]);
    const miss = engine.select(chat({ headers: { 'x-run': 'b' } }));
    expect(miss.kind).toBe('no-match');
    const hit = engine.select(
      chat({ headers: { 'x-run': 'a' }, messages: [{ role: 'system', content: 'use tools' }, { role: 'user', content: 'hi' }] }),
    );
    expect(hit.kind === 'respond' && hit.response.text).toBe('You said: hi');
  });

  it('injects errors with their headers', () => {
    const engine = new ScenarioEngine([
      { name: 'e', steps: [{ respond: { error: { status: 429, message: 'slow down', headers: { 'retry-after': '1' } } } }] },
    ]);
    const result = engine.select(chat());
    expect(result).toMatchObject({ kind: 'error', error: { status: 429, message: 'slow down', headers: { 'retry-after': '1' } } });
  });

  it('answers embeddings with meaningful default vectors and honours dimensions', () => {
    const engine = new ScenarioEngine([]);
    const result = engine.select(
      chat({ provider: 'embeddings', input: ['list database tables', 'show the tables', 'bake a cake'], dimensions: 256 }),
    );
    expect(result.kind).toBe('respond');
    if (result.kind !== 'respond') return;
    const [a, b, c] = result.response.embeddings!;
    expect(a).toHaveLength(256);
    expect(cosineSimilarity(a, b)).toBeGreaterThan(cosineSimilarity(a, c));
    expect(embedText('same text', 64)).toEqual(embedText('same text', 64));
  });

  it('embeds a phrase near the word it means ("kick off" near trigger)', () => {
    const trigger = embedText('trigger a build');
    expect(cosineSimilarity(embedText('kick off the build'), trigger)).toBeGreaterThan(cosineSimilarity(embedText('kick the build'), trigger) + 0.1);
  });
});

describe('ScenarioEngine input checks', () => {
  it('rejects a scenario object with the path and what was expected', () => {
    expect(() => new ScenarioEngine([{ name: 'bad', steps: [{ respond: { text: 3 } }] } as never])).toThrow(/steps\[0\]\.respond\.text/);
  });
});
