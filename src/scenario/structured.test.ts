import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from './canonical.ts';
import { ScenarioEngine } from './engine.ts';
import { scenario } from './builder.ts';

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    temperature: { type: 'number' },
    unit: { enum: ['c', 'f'] },
    tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
  },
  required: ['city', 'temperature', 'unit', 'tags'],
  additionalProperties: false,
  $defs: { tag: { type: 'string', pattern: '^[a-z]+$' } },
};

function request(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    provider: 'openai',
    path: '/v1/chat/completions',
    model: 'gpt-4o',
    stream: false,
    messages: [{ role: 'user', content: 'Weather in Paris as JSON' }],
    tools: [],
    headers: {},
    params: {},
    raw: {},
    responseFormat: { name: 'weather', schema: weatherSchema },
    ...overrides,
  };
}

function answer(engine: ScenarioEngine, req: CanonicalRequest) {
  const selection = engine.select(req);
  if (selection.kind !== 'respond') throw new Error(`${selection.kind}: ${'error' in selection ? selection.error.message : ''}`);
  return selection.response;
}

describe('structured answers', () => {
  it('renders respond.json as the text of the answer and keeps the value', () => {
    const value = { city: 'Paris', temperature: 21.5, unit: 'c', tags: ['sunny'] };
    const response = answer(new ScenarioEngine([scenario('weather').respondWithJson(value).build()]), request());
    expect(JSON.parse(response.text)).toEqual(value);
    expect(response.json).toEqual(value);
  });

  it('reports a value that does not fit the schema as a scenario error naming the step and every JSON path', () => {
    const engine = new ScenarioEngine([
      scenario('weather').respondWithText('warm-up').expect({ model: 'gpt-4o' }).then().respondWithJson({ city: 'Paris', temperature: 'warm', unit: 'k', tags: ['Sunny'], extra: 1 }).build(),
    ]);
    engine.select(request());
    const selection = engine.select(request());
    expect(selection.kind).toBe('error');
    if (selection.kind !== 'error') return;
    expect(selection.authoring).toBe(true);
    expect(selection.error.status).toBe(400);
    const message = selection.error.message;
    expect(message).toContain('weather#1: respond.json.temperature: must be number');
    expect(message).toContain('weather#1: respond.json.unit: must be one of "c", "f"');
    expect(message).toContain('weather#1: respond.json.tags[0]: must match pattern');
    expect(message).toContain('weather#1: respond.json.extra: is not allowed');
  });

  it('names a missing required property by its path', () => {
    const engine = new ScenarioEngine([scenario('weather').respondWithJson({ city: 'Paris', unit: 'c', tags: [] }).build()]);
    const selection = engine.select(request());
    expect(selection.kind === 'error' && selection.error.message).toContain('weather#0: respond.json.temperature: is required by the schema');
  });

  it('generates a deterministic instance of the request schema ($ref, enum, pattern), different for another seed', () => {
    const make = (seed?: number) => new ScenarioEngine([scenario('gen').respondWithGeneratedJson(seed === undefined ? {} : { seed }).build()]);
    const a = answer(make(), request()).json as Record<string, unknown>;
    const b = answer(make(), request()).json;
    const c = answer(make(42), request()).json;
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(Object.keys(a).sort()).toEqual(['city', 'tags', 'temperature', 'unit']);
    expect(['c', 'f']).toContain(a.unit);
    for (const tag of a.tags as string[]) expect(tag).toMatch(/^[a-z]+$/);
  });

  it('cannot generate for a request without a schema, and says why', () => {
    const engine = new ScenarioEngine([scenario('gen').respondWithGeneratedJson().build()]);
    const selection = engine.select(request({ responseFormat: undefined }));
    expect(selection.kind === 'error' && selection.error.message).toMatch(/gen#0: respond\.json\.\$generate needs a request that sends a JSON Schema.*asks for no structured output/);
  });

  it('answers a forced tool with the value as the call, checked against the tool parameters', () => {
    const tools = [{ name: 'weather', parameters: weatherSchema }];
    const value = { city: 'Oslo', temperature: -3, unit: 'c', tags: [] };
    const response = answer(new ScenarioEngine([scenario('w').respondWithJson(value).build()]), request({ responseFormat: undefined, tools, forcedTool: 'weather' }));
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([{ id: expect.any(String), name: 'weather', arguments: value }]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it("checks scripted calls of strict tools, and lets non-strict tools' calls through", () => {
    const call = [{ name: 'get_weather', arguments: { city: 7 } }];
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const strict = new ScenarioEngine([scenario('t').respondWithToolCalls(call).build()]);
    const refused = strict.select(request({ responseFormat: undefined, tools: [{ name: 'get_weather', parameters: schema, strict: true }] }));
    expect(refused.kind === 'error' && refused.error.message).toContain('t#0: respond.toolCalls[0].arguments.city: must be string');
    const lenient = new ScenarioEngine([scenario('t').respondWithToolCalls(call).build()]);
    expect(lenient.select(request({ responseFormat: undefined, tools: [{ name: 'get_weather', parameters: schema }] })).kind).toBe('respond');
  });

  it('matches on responseFormat: any structured request, or the schema by name', () => {
    const engine = new ScenarioEngine([
      scenario('flow').expect({}).withResponseFormat('weather').then().respondWithJson({ city: 'a', temperature: 1, unit: 'f', tags: [] }).persistent()
        .expect({}).withResponseFormat().then().respondWithText('{}').persistent()
        .otherwise().respondWithText('chat').persistent().build(),
    ]);
    expect(answer(engine, request()).json).toBeDefined();
    expect(answer(engine, request({ responseFormat: { name: 'other', schema: null } })).text).toBe('{}');
    expect(answer(engine, request({ responseFormat: undefined })).text).toBe('chat');
    const misses = new ScenarioEngine([scenario('m').expect({}).withResponseFormat('weather').then().respondWithText('x').build()]).select(request({ responseFormat: undefined }));
    expect(misses.kind === 'no-match' && misses.nearMisses[0].failed).toEqual(['responseFormat: expected the schema "weather", got a free-text request']);
  });

  it('refuses a scenario that gives json beside text', () => {
    expect(() => new ScenarioEngine([{ name: 'x', steps: [{ respond: { text: 'a', json: { a: 1 } } }] }])).toThrow(/json and text are two answers/);
  });

  it('carries refusals', () => {
    const response = answer(new ScenarioEngine([scenario('no').respondWithRefusal("I can't help with that.").build()]), request());
    expect(response.refusal).toBe("I can't help with that.");
    expect(response.text).toBe('');
  });
});

describe('scripted reasoning', () => {
  it('carries the reasoning and counts its tokens into the output tokens (estimated)', () => {
    const engine = new ScenarioEngine([scenario('r').respondWithReasoning('The user asks about Paris weather, so I call the tool.').respondWithText('Sunny').build()]);
    const response = answer(engine, request({ responseFormat: undefined }));
    expect(response.reasoning).toEqual({ text: 'The user asks about Paris weather, so I call the tool.', redacted: false });
    expect(response.usage.reasoningTokens).toBeGreaterThan(5);
    expect(response.usage.outputTokens).toBeGreaterThan(response.usage.reasoningTokens!);
    // For a request that does not reason (the adapter's to tell): the same answer's tokens without the estimate.
    expect(response.usage.outputTokensWithoutReasoning).toBe(response.usage.outputTokens - response.usage.reasoningTokens!);
    const plain = answer(new ScenarioEngine([scenario('p').respondWithText('Sunny').build()]), request({ responseFormat: undefined }));
    expect(plain.usage.outputTokens).toBe(response.usage.outputTokensWithoutReasoning);
    expect(plain.usage).not.toHaveProperty('outputTokensWithoutReasoning');
  });

  it('keeps scripted usage and its reasoning tokens; redacted reasoning stays marked', () => {
    const engine = new ScenarioEngine([
      scenario('r').respondWithReasoning({ text: 'hidden', redacted: true }).respondWithText('ok').withUsage({ inputTokens: 3, outputTokens: 40, reasoningTokens: 30 }).build(),
    ]);
    const response = answer(engine, request({ responseFormat: undefined }));
    expect(response.reasoning).toEqual({ text: 'hidden', redacted: true });
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 40, reasoningTokens: 30 });
  });

  it('reports protocol rules off while a scenario says so', () => {
    const engine = new ScenarioEngine([scenario('strict').respondWithText('a').build()]);
    expect(engine.protocolRules()).toBe(true);
    engine.use(scenario('lenient').protocolRules(false).respondWithText('b').build());
    expect(engine.protocolRules()).toBe(false);
  });
});
