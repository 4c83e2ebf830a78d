import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { openAIModel, reasoningModel } from './reasoning-models.ts';
import { chatResponseFormat, forcedToolOf, responsesTextFormat } from './structured.ts';

describe('OpenAI model families', () => {
  it.each([
    ['o1', true],
    ['o3-mini', true],
    ['o4-mini-2025-04-16', true],
    ['gpt-5', true],
    ['gpt-5.1-codex-max', true],
    ['codex-mini-latest', true],
    ['deepseek-reasoner', true],
    ['my-deployment', true],
    ['gpt-oss-120b', true],
    ['gpt-4o', false],
    ['gpt-4.1-mini', false],
    ['ft:gpt-4o-mini:org::abc', false],
    ['gpt-5-chat-latest', false],
    ['chatgpt-4o-latest', false],
    ['gpt-3.5-turbo', false],
  ])('%s reasons: %s', (model, reasons) => {
    expect(reasoningModel(model)).toBe(reasons);
  });

  it('tells OpenAI’s own model names from an OpenAI-compatible server’s', () => {
    expect(['gpt-5-mini', 'o3', 'ft:gpt-4o:x', 'codex-mini-latest'].map(openAIModel)).toEqual([true, true, true, true]);
    expect(['deepseek-reasoner', 'Qwen/Qwen3-8B', 'qwen3-32b', 'gpt-oss-20b'].map(openAIModel)).toEqual([false, false, false, false]);
  });
});

describe('OpenAI structured-output fields', () => {
  it('reads both APIs’ formats and the forced tool', () => {
    expect(chatResponseFormat({ type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' }, strict: true } })).toEqual({ name: 'w', schema: { type: 'object' } });
    expect(chatResponseFormat({ type: 'json_object' })).toEqual({ name: null, schema: null });
    expect(chatResponseFormat({ type: 'text' })).toBeUndefined();
    expect(chatResponseFormat(undefined)).toBeUndefined();
    expect(responsesTextFormat({ format: { type: 'json_schema', name: 'w', schema: { type: 'object' } } })).toEqual({ name: 'w', schema: { type: 'object' } });
    expect(responsesTextFormat({ verbosity: 'low' })).toBeUndefined();
    expect(forcedToolOf({ type: 'function', function: { name: 'a' } })).toBe('a');
    expect(forcedToolOf({ type: 'function', name: 'b' })).toBe('b');
    expect(forcedToolOf({ name: 'legacy' })).toBe('legacy');
    expect(forcedToolOf('required')).toBeUndefined();
  });

  it.each([
    ['chat', '/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name'],
    ['chat', '/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema' } }, 'response_format.json_schema'],
    ['responses', '/v1/responses', { input: 'x', text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name'],
  ])('%s: a json_schema format without its name is a 400 naming %s', async (_api, path, body, param) => {
    const mock = createMockLLM({ scenarios: [scenario('a').respondWithText('x')] });
    const res = await mock.handle(
      new Request(`https://api.openai.com${path}`, { method: 'POST', headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', ...body }) }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ param, message: `Missing required parameter: '${param}'.`, type: 'invalid_request_error' });
  });
});
