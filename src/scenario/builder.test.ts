import { describe, expect, it } from 'vitest';
import { anthropic, anyProvider, embeddings, gemini, openai, openaiResponses, scenario } from './builder.ts';
import { parseScenario, ScenarioValidationError } from './validate.ts';
import { ScenarioSchema } from './schema.ts';

describe('scenario builder', () => {
  it('builds the weather tool loop exactly as the equivalent JSON parses', () => {
    const built = scenario('weather')
      .priority(2)
      .variables({ city: 'Paris' })
      .expect(openai())
      .withModel('gpt-4o')
      .withLastMessage({ contains: 'weather' })
      .withTools('get_weather')
      .then()
      .respondWithToolCalls([{ id: 'call_1', name: 'get_weather', arguments: { city: '{{city}}' } }])
      .withFinishReason('tool_calls')
      .expectToolResults()
      .expect(anthropic())
      .withToolResults('get_weather')
      .then()
      .respondWithText('Sunny in {{city}}')
      .withUsage({ inputTokens: 12, outputTokens: 7 })
      .build();

    const json = {
      name: 'weather',
      priority: 2,
      variables: { city: 'Paris' },
      steps: [
        {
          match: { provider: 'openai', model: 'gpt-4o', lastMessage: { content: { contains: 'weather' } }, tools: ['get_weather'] },
          respond: {
            toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: '{{city}}' } }],
            finishReason: 'tool_calls',
            expectToolResults: true,
          },
        },
        {
          match: { provider: 'anthropic', toolResults: ['get_weather'] },
          respond: { text: 'Sunny in {{city}}', usage: { inputTokens: 12, outputTokens: 7 } },
        },
      ],
    };
    expect(built).toStrictEqual(ScenarioSchema.parse(json));
  });

  it('turns RegExps into { regex, flags } and header names to lower case', () => {
    const built = scenario('re')
      .expect(anyProvider())
      .withModel(/^gpt-4/i)
      .withMessage({ role: 'system', content: /tools/ })
      .withMessages(['exact', { contains: 'x' }])
      .withHeader('X-Run', 'a')
      .withPath('/v1/chat/completions')
      .withStream()
      .then()
      .respondWithText('ok')
      .build();
    expect(built.steps[0].match).toStrictEqual({
      model: { regex: '^gpt-4', flags: 'i' },
      messages: [{ role: 'system', content: { regex: 'tools' } }, { content: 'exact' }, { content: { contains: 'x' } }],
      headers: { 'x-run': 'a' },
      path: '/v1/chat/completions',
      stream: true,
    });
  });

  it('makes catch-all steps without expect() and with otherwise()', () => {
    const built = scenario('fallback').respondWithText('first').times(2).otherwise().respondWithText('always').persistent().build();
    expect(built.steps).toStrictEqual([
      { respond: { text: 'first' }, times: 2 },
      { respond: { text: 'always' }, consume: false },
    ]);
    // expect() with no constraints is also a catch-all: no empty match object.
    expect(scenario('x').expect(anyProvider()).then().respondWithText('y').build().steps[0]).toStrictEqual({ respond: { text: 'y' } });
  });

  it('builds errors, streams, latency, headers and embeddings with schema defaults', () => {
    const built = scenario('misc')
      .expect(openaiResponses())
      .then()
      .respondWithError(429, 'slow down', { headers: { 'retry-after': '1' }, code: 'rate_limit_exceeded' })
      .expect(gemini())
      .withStream(true)
      .then()
      .respondWithText('streamed')
      .asStream({ chunkSize: 3, disconnectAfterChunks: 2 })
      .withLatency(5)
      .withHeaders({ 'x-a': '1' })
      .echoHeaders('x-request-id')
      .expect(embeddings({ model: 'text-embedding-3-small' }))
      .then()
      .respondWithEmbeddings([[0.1, 0.2]])
      .build();
    expect(built.steps[0].respond.error).toStrictEqual({
      status: 429,
      message: 'slow down',
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '1' },
    });
    expect(built.steps[1].respond).toStrictEqual({
      text: 'streamed',
      stream: { chunkSize: 3, chunkDelayMs: 0, chunks: null, disconnectAfterChunks: 2 },
      latencyMs: 5,
      headers: { 'x-a': '1' },
      echoHeaders: ['x-request-id'],
    });
    expect(built.steps[2]).toStrictEqual({
      match: { provider: 'embeddings', model: 'text-embedding-3-small' },
      respond: { embeddings: [[0.1, 0.2]] },
    });
  });

  it('toJSON gives the hand-written form without defaults', () => {
    const b = scenario('j').expect(openai()).then().respondWithToolCalls([{ name: 'f' }]);
    expect(b.toJSON()).toStrictEqual({
      name: 'j',
      steps: [{ match: { provider: 'openai' }, respond: { toolCalls: [{ name: 'f', arguments: {} }] } }],
    });
    expect(JSON.parse(JSON.stringify(b.toJSON()))).toStrictEqual(b.toJSON());
  });

  it('rejects invalid values at build() naming the path and what was expected', () => {
    expect(() => scenario('bad').respondWithError(200, 'not an error').build()).toThrow(
      'scenario "bad" is not valid:\n  steps[0].respond.error.status: expected an integer >= 400, got 200',
    );
    expect(() => scenario('').respondWithText('x').build()).toThrow('name: expected a non-empty string, got ""');
    expect(() => scenario('t').respondWithText('x').times(0).otherwise().respondWithToolCalls([{ name: '' }]).build()).toThrow(
      'scenario "t" is not valid:\n  steps[0].times: expected an integer >= 1, got 0\n  steps[1].respond.toolCalls[0].name: expected a non-empty string, got ""',
    );
    expect(() => scenario('re').expect(openai()).withModel({ regex: '(' }).then().respondWithText('x').build()).toThrow(
      /steps\[0\]\.match\.model\.regex: expected a valid regular expression/,
    );
    try {
      scenario('x').respondWithText('a').withLatency(-1).build();
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioValidationError);
      expect((err as ScenarioValidationError).issues).toEqual([{ path: 'steps[0].respond.latencyMs', message: 'expected a number >= 0, got -1' }]);
    }
  });

  it('failStreamAfter sets a mid-stream error beside the other stream options; the halves are checked together', () => {
    const built = scenario('flaky').respondWithText('Half an answer').asStream({ chunkSize: 4 }).failStreamAfter(3, 'Overloaded {{model}}', { type: 'overloaded_error', status: 529 }).build();
    expect(built.steps[0].respond.stream).toStrictEqual({
      chunkSize: 4,
      chunkDelayMs: 0,
      chunks: null,
      disconnectAfterChunks: null,
      errorAfterChunks: 3,
      error: { message: 'Overloaded {{model}}', type: 'overloaded_error', status: 529 },
    });
    expect(() => parseScenario({ name: 'e', steps: [{ respond: { stream: { errorAfterChunks: 2 } } }] })).toThrow(
      'steps[0].respond.stream.error: errorAfterChunks needs error: { message, type?, status? }',
    );
    expect(() => parseScenario({ name: 'e', steps: [{ respond: { stream: { error: { message: 'x' } } } }] })).toThrow(
      'steps[0].respond.stream.errorAfterChunks: error needs errorAfterChunks',
    );
    expect(() => scenario('e').respondWithText('x').asStream({ disconnectAfterChunks: 1 }).failStreamAfter(2, 'x').build()).toThrow(
      'steps[0].respond.stream.disconnectAfterChunks: a stream ends either with an error event (errorAfterChunks) or a cut (disconnectAfterChunks), not both',
    );
    expect(() => scenario('e').respondWithText('x').failStreamAfter(1, 'x', { status: 200 }).build()).toThrow('steps[0].respond.stream.error.status: expected an integer >= 400, got 200');
  });

  it('parseScenario validates plain objects with the same messages', () => {
    expect(parseScenario({ name: 'ok', steps: [] })).toStrictEqual({ name: 'ok', priority: 0, variables: {}, steps: [] });
    expect(() => parseScenario({ steps: [{ respond: { txt: 'x' } }] })).toThrow(
      'scenario (unnamed) is not valid:\n  name: missing; expected a string\n  steps[0].respond.txt: unknown key (did you mean "text"?)',
    );
    expect(() => parseScenario('nope')).toThrow(ScenarioValidationError);
  });

  it('a "regex" key in tool-call arguments is data, not a pattern', () => {
    const built = scenario('args').respondWithToolCalls([{ name: 'grep', arguments: { regex: '(' } }]).build();
    expect(built.steps[0].respond.toolCalls![0].arguments).toEqual({ regex: '(' });
  });

  it('priority and variables can be set at any stage', () => {
    const built = scenario('late').expect(openai()).then().respondWithText('{{a}}').priority(3).variables({ a: '1' }).variables({ b: '2' }).build();
    expect(built.priority).toBe(3);
    expect(built.variables).toEqual({ a: '1', b: '2' });
  });

  it('build() can be called again and results do not share state', () => {
    const b = scenario('twice').respondWithToolCalls([{ name: 'f', arguments: { a: 1 } }]);
    const one = b.build();
    const two = b.build();
    (one.steps[0].respond.toolCalls![0].arguments as Record<string, unknown>).a = 2;
    expect(two.steps[0].respond.toolCalls![0].arguments).toStrictEqual({ a: 1 });
  });
});
