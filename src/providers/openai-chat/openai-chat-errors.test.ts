import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { validateOpenAI } from '../testing/openapi.ts';

function setup(scenarios: ScenarioInput[], options: { maxRetries?: number; apiKey?: string } = {}) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new OpenAI({ apiKey: options.apiKey ?? 'sk-test', fetch, maxRetries: options.maxRetries ?? 0 });
  return { mock, client, exchanges };
}

const ask = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

describe('OpenAI Chat Completions: errors', () => {
  const cases: [number, new (...args: any[]) => Error, string][] = [
    [400, OpenAI.BadRequestError, 'invalid_request_error'],
    [401, OpenAI.AuthenticationError, 'invalid_request_error'],
    [403, OpenAI.PermissionDeniedError, 'invalid_request_error'],
    [404, OpenAI.NotFoundError, 'invalid_request_error'],
    [409, OpenAI.ConflictError, 'invalid_request_error'],
    [422, OpenAI.UnprocessableEntityError, 'invalid_request_error'],
    [429, OpenAI.RateLimitError, 'requests'],
    [500, OpenAI.InternalServerError, 'server_error'],
    [503, OpenAI.InternalServerError, 'server_error'],
  ];
  for (const [status, ErrorClass, type] of cases) {
    it(`maps an injected ${status} to ${ErrorClass.name} with OpenAI's error body`, async () => {
      const { client, exchanges } = setup([{ name: 'e', steps: [{ respond: { error: { status, message: `boom ${status}` } } }] }]);
      const err = await ask(client).catch((e) => e);
      expect(err).toBeInstanceOf(ErrorClass);
      expect(err.status).toBe(status);
      expect(err.type).toBe(type);
      expect(err.message).toBe(`${status} boom ${status}`);
      expect(err.requestID).toMatch(/^req_[0-9a-f]{32}$/);
      const body = JSON.parse(await exchanges[0].body);
      expect(validateOpenAI('ErrorResponse', body)).toEqual([]);
    });
  }

  it('keeps a step-given type and code, and maps insufficient_quota', async () => {
    const { client } = setup([{ name: 'q', steps: [
      { respond: { error: { status: 429, message: 'quota', code: 'insufficient_quota' } } },
      { respond: { error: { status: 400, message: 'ctx', type: 'invalid_request_error', code: 'context_length_exceeded' } } },
    ] }]);
    const quota = await ask(client).catch((e) => e);
    expect([quota.type, quota.code]).toEqual(['insufficient_quota', 'insufficient_quota']);
    const ctx = await ask(client).catch((e) => e);
    expect([ctx.type, ctx.code]).toEqual(['invalid_request_error', 'context_length_exceeded']);
  });

  it('honors retry-after: the SDK retries and succeeds; the journal holds both requests', async () => {
    const { client, mock } = setup([{ name: 'r', steps: [
      { respond: { error: { status: 429, message: 'slow down', headers: { 'retry-after': '0.05' } } } },
      { respond: { text: 'finally' } },
    ] }], { maxRetries: 2 });
    const c = await ask(client);
    expect(c.choices[0].message.content).toBe('finally');
    expect(mock.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(mock.requests[1].startedAt - mock.requests[0].startedAt).toBeGreaterThanOrEqual(40);
  });

  // A missing Authorization header (401, step not consumed) is a conformance case (conformance.test.ts).
  it('names the closest steps when nothing matches (404 with near misses)', async () => {
    const { client, mock } = setup([{ name: 'weather', steps: [{ match: { model: 'gpt-4o', lastMessage: { content: { contains: 'weather' } } }, respond: { text: 'sunny' } }] }]);
    const err = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather?' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.message).toContain('model: expected "gpt-4o", got "gpt-4o-mini"');
    expect(err.error.details.nearMisses[0]).toEqual({ step: { scenario: 'weather', index: 0 }, failed: ['model: expected "gpt-4o", got "gpt-4o-mini"'] });
    expect(mock.requests[0].nearMisses).toHaveLength(1);
  });

  it('rejects a tool message that answers no tool call, as the API does', async () => {
    const { client, mock } = setup([{ name: 'a', steps: [{ respond: { text: 'x' } }] }]);
    const err = await client.chat.completions.create({
      model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_9', content: 'r' }],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.param).toBe('messages.[1].role');
    expect(mock.unconsumed()).toHaveLength(1);
  });

  it('rejects tool calls left without results', async () => {
    const { client } = setup([{ name: 'a', steps: [{ respond: { text: 'x' } }] }]);
    const err = await client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'user', content: 'and?' },
      ],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toMatch(/did not have response messages: call_1/);
  });
});

describe('OpenAI Chat Completions: mis-shaped bodies', () => {
  const mock = createMockLLM({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'x' }, consume: false }] }] });
  const post = async (body: string) => {
    const res = await mock.handle(new Request('https://api.openai.com/v1/chat/completions', {
      method: 'POST', headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' }, body,
    }));
    const json = await res.json();
    return { status: res.status, json, error: json.error };
  };

  it.each([
    ['not json', '{', null, /could not parse the JSON body/],
    ['no model', '{"messages":[{"role":"user","content":"x"}]}', null, /must provide a model/],
    ['no messages', '{"model":"m"}', 'messages', /Missing required parameter: 'messages'/],
    ['empty messages', '{"model":"m","messages":[]}', 'messages', /empty array/],
    ['bad role', '{"model":"m","messages":[{"role":"robot","content":"x"}]}', 'messages[0].role', /Invalid value: 'robot'/],
    ['bad content', '{"model":"m","messages":[{"role":"user","content":5}]}', 'messages[0].content', /expected a string or an array of content parts, but got a number/],
    ['tool without id', '{"model":"m","messages":[{"role":"tool","content":"x"}]}', 'messages[0].tool_call_id', /Missing required parameter/],
    ['bad tools', '{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function"}]}', 'tools[0].function', /Missing/],
    ['stream_options without stream', '{"model":"m","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}', 'stream_options', /only allowed when 'stream' is enabled/],
  ])('%s → 400 naming the parameter', async (_name, body, param, message) => {
    const { status, json, error } = await post(body);
    expect(status).toBe(400);
    expect(validateOpenAI('ErrorResponse', json)).toEqual([]);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it('parses content parts, developer messages and legacy functions into the canonical request', async () => {
    const { status, json } = await post(JSON.stringify({
      model: 'm',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'be brief' }] },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:,' } }, { type: 'text', text: 'here' }] },
      ],
      functions: [{ name: 'legacy_fn' }],
      temperature: 0.2,
    }));
    expect(status).toBe(200);
    expect(json.choices[0].message.content).toBe('x');
    const canonical = mock.requests.at(-1)!.request!;
    expect(canonical.messages).toEqual([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'look\nhere' }]);
    expect(canonical.tools.map((t) => t.name)).toEqual(['legacy_fn']);
    expect(canonical.params).toEqual({ temperature: 0.2 });
  });
});
