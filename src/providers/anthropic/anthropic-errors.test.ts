import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';

function setup(scenarios: ScenarioInput[], maxRetries = 0) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new Anthropic({ apiKey: 'sk-ant-test', fetch, maxRetries });
  return { mock, client, exchanges };
}

describe('Anthropic Messages: errors', () => {
  const cases = [
    [400, Anthropic.BadRequestError, 'invalid_request_error'],
    [401, Anthropic.AuthenticationError, 'authentication_error'],
    [403, Anthropic.PermissionDeniedError, 'permission_error'],
    [404, Anthropic.NotFoundError, 'not_found_error'],
    [413, Anthropic.ContentTooLargeError, 'request_too_large'],
    [429, Anthropic.RateLimitError, 'rate_limit_error'],
    [500, Anthropic.InternalServerError, 'api_error'],
    [529, Anthropic.OverloadedError, 'overloaded_error'],
  ] as const;

  it.each(cases)('status %i → %o with error.type %s and request-id', async (status, ErrorClass, type) => {
    const { client } = setup([{ name: 'err', steps: [{ respond: { error: { status, message: `boom ${status}` } } }] }]);
    const err = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.type).toBe(type);
    expect(apiError.apiMessage).toBe(`boom ${status}`);
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type, message: `boom ${status}` } });
  });

  it('retries a 529 after retry-after-ms and then succeeds', async () => {
    const { client, exchanges } = setup(
      [
        {
          name: 'busy',
          steps: [
            { respond: { error: { status: 529, message: 'Overloaded', headers: { 'retry-after-ms': '20' } } } },
            { respond: { text: 'finally' } },
          ],
        },
      ],
      2,
    );
    const started = performance.now();
    const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(message.content[0]).toMatchObject({ text: 'finally' });
    expect(exchanges.map((e) => e.status)).toEqual([529, 200]);
    expect(exchanges[0].headers.get('retry-after-ms')).toBe('20');
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  // A missing x-api-key (401), invalid JSON (400) and an unknown route (404) are conformance cases (conformance.test.ts).
  it('rejects a missing anthropic-version (400)', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'x' } }] }] });
    const body = JSON.stringify({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] });
    const noVersion = await mock.handle(new Request('https://api.anthropic.com/v1/messages', { method: 'POST', body, headers: { 'x-api-key': 'k' } }));
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
  });

  it.each([
    ['missing max_tokens', { model: 'm', messages: [] }, 'max_tokens: Field required'],
    ['missing messages', { model: 'm', max_tokens: 5 }, 'messages: Field required'],
    ['no messages', { model: 'm', max_tokens: 5, messages: [] }, 'messages: at least one message is required'],
    ['system not text blocks', { model: 'm', max_tokens: 5, system: [{ type: 'image' }], messages: [{ role: 'user', content: 'x' }] }, 'system.0: Input should be a text block'],
    ['wrong max_tokens type', { model: 'm', max_tokens: 'ten', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Input should be a valid integer'],
    ['bad role', { model: 'm', max_tokens: 5, messages: [{ role: 'bot', content: 'x' }] }, "messages.0.role: Input should be"],
    ['tool_result without id', { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }, 'messages.0.content.0.tool_use_id: Field required'],
  ])('%s → 400 BadRequestError naming the field, and the mock keeps serving', async (_name, body, message) => {
    const { client } = setup([{ name: 'ok', steps: [{ respond: { text: 'still here' } }] }]);
    const err = await client.messages.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).apiMessage).toContain(message);
    const ok = await client.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(ok.content[0]).toMatchObject({ text: 'still here' });
  });

  it('answers an unmatched request with a 404 not_found_error carrying near misses in error.details', async () => {
    const { client } = setup([{ name: 'only-gpt', steps: [{ match: { model: 'gpt-4o' }, respond: { text: 'x' } }] }]);
    const err = await client.messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.apiMessage).toContain('only-gpt#0');
    expect(apiError.details).toMatchObject({ nearMisses: [{ step: { scenario: 'only-gpt', index: 0 } }] });
  });
});
