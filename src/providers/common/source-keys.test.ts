import { expect, test } from 'vitest';
import { SourceKeys } from './source-keys.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

const request = (over: Partial<CanonicalRequest> = {}) => ({ model: 'gpt-4o', stream: true, path: '/v1/chat/completions', ...over }) as CanonicalRequest;
const response = (over: Partial<CanonicalResponse> = {}) =>
  ({ id: 'chatcmpl-0123456789abcdef', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 }, ...over }) as CanonicalResponse;

test('a step’s key is the same as one built afresh, whatever changed since its last request', () => {
  const keys = new SourceKeys();
  const step = {};
  const cases: [string, CanonicalResponse, CanonicalRequest][] = [
    ['[a]', response(), request()],
    ['[a]', response(), request()],
    ['[b]', response(), request()],
    ['[b]', response(), request({ model: 'gpt-4o-mini' })],
    ['[b]', response(), request({ model: 'gpt-4o-mini', stream: false })],
    ['[b]', response(), request({ model: 'gpt-4o-mini', stream: false, path: '/chat/completions' })],
    ['[b]', response({ usage: { inputTokens: 11, outputTokens: 5 } }), request()],
    ['[b]', response({ usage: { inputTokens: 11, outputTokens: 5, reasoningTokens: 2 } }), request()],
    ['[b]', response({ usage: { inputTokens: 11, outputTokens: 5 } }), request()],
    ['[b]', response({ id: 'short' }), request()],
    ['[b]', response({ id: 'other' }), request()],
    ['[b]', response({ toolCalls: [{ id: 'call_1', name: 'f', arguments: {} }] }), request()],
    ['[b]', response({ toolCalls: [{ id: 'call_2', name: 'f', arguments: {} }] }), request()],
  ];
  const seen = new Set<string>();
  for (const [adapterKey, res, req] of cases) {
    const key = keys.of(step, 'openai', adapterKey, res, req);
    expect(key).toBe(new SourceKeys().of(step, 'openai', adapterKey, res, req));
    seen.add(key);
  }
  expect(seen.size).toBe(cases.length - 2);
  // Another adapter, or another step, never shares a key.
  expect(keys.of(step, 'azure', '[b]', response(), request())).not.toBe(keys.of(step, 'openai', '[b]', response(), request()));
  expect(keys.of({}, 'openai', '[b]', response(), request())).not.toBe(keys.of(step, 'openai', '[b]', response(), request()));
});

test('ids long enough to be per-answer values do not change the key', () => {
  const keys = new SourceKeys();
  const step = {};
  const a = keys.of(step, 'openai', '[a]', response(), request());
  const b = keys.of(step, 'openai', '[a]', response({ id: 'chatcmpl-fedcba9876543210' }), request());
  expect(b).toBe(a);
});
