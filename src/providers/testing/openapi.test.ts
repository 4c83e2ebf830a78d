import { describe, expect, it } from 'vitest';
import { validateOpenAI } from './openapi.ts';

describe('validateOpenAI', () => {
  it('accepts a well-formed error body and rejects a mis-shaped one', () => {
    expect(validateOpenAI('ErrorResponse', { error: { message: 'x', type: 'invalid_request_error', param: null, code: null } })).toEqual([]);
    const errors = validateOpenAI('ErrorResponse', { error: { message: 'x' } });
    expect(errors.join('\n')).toMatch(/required/);
  });

  it('checks nested refs and nullable fields of a chat completion', () => {
    const body = {
      id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o',
      choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'hi', refusal: null, annotations: [] } }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    expect(validateOpenAI('CreateChatCompletionResponse', body)).toEqual([]);
    expect(validateOpenAI('CreateChatCompletionResponse', { ...body, choices: [{ ...body.choices[0], finish_reason: 'done' }] })).not.toEqual([]);
  });

  it('names an unknown schema', () => {
    expect(() => validateOpenAI('NoSuchSchema', {})).toThrow(/NoSuchSchema/);
  });
});
