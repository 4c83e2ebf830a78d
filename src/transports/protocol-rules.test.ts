import { describe, expect, it } from 'vitest';
import type { ProviderAdapter } from '../providers/adapter.ts';
import { defaultAdapters } from '../providers/registry.ts';
import { scenario } from '../scenario/builder.ts';
import { createMockLLM } from './mock-llm.ts';

// The core's half of the protocol rules: an adapter finds violations in parse, the core refuses with the
// first one's error unless the mock or a scenario turns the rules off. (Each provider's own rules are
// tested in its folder, through its SDK.) Here an adapter that flags every request stands in.
function flagging(): ProviderAdapter[] {
  return defaultAdapters().map((adapter) =>
    adapter.id !== 'openai'
      ? adapter
      : {
          ...adapter,
          parse: (req, state) => ({
            ...adapter.parse(req, state),
            violations: [{ rule: 'test.always', doc: 'https://example.test/doc', error: { status: 400, message: 'refused by rule', type: 'invalid_request_error', headers: {} } }],
          }),
        },
  );
}

const post = () =>
  new Request('https://api.openai.com/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('protocol rules in the core', () => {
  it("refuses a request an adapter flags, in the provider's error shape, and journals the rule", async () => {
    const mock = createMockLLM({ adapters: flagging(), scenarios: [scenario('a').respondWithText('ok')] });
    const res = await mock.handle(post());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'refused by rule', type: 'invalid_request_error' } });
    expect(mock.requests[0]).toMatchObject({ status: 400, step: null, violation: { rule: 'test.always', doc: 'https://example.test/doc' } });
    expect(mock.unconsumed()).toHaveLength(1);
  });

  it('answers instead when the mock turns the rules off', async () => {
    const mock = createMockLLM({ adapters: flagging(), protocolRules: false, scenarios: [scenario('a').respondWithText('ok')] });
    const res = await mock.handle(post());
    expect(res.status).toBe(200);
    expect(mock.requests[0].violation).toBeUndefined();
  });

  it('answers instead while a scenario in play turns them off', async () => {
    const mock = createMockLLM({ adapters: flagging(), scenarios: [scenario('a').protocolRules(false).respondWithText('ok')] });
    expect((await mock.handle(post())).status).toBe(200);
  });

  it('journals the reasoning an answer carried, and a scenario authoring error with its listeners told', async () => {
    const mock = createMockLLM({ scenarios: [scenario('r').respondWithReasoning('thinking hard').respondWithText('ok').expect({}).then().respondWithGeneratedJson()] });
    const heard: string[] = [];
    mock.onAuthoringError((m) => heard.push(m));
    await mock.handle(post());
    expect(mock.requests[0].reasoning).toEqual({ text: 'thinking hard', redacted: false });
    const res = await mock.handle(post());
    expect(res.status).toBe(400);
    expect(heard).toEqual([expect.stringContaining('r#1: respond.json.$generate needs a request that sends a JSON Schema')]);
    expect(mock.requests[1].authoringError).toBe(heard[0]);
  });
});
