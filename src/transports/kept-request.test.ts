import { describe, expect, it } from 'vitest';
import { Redactor } from '../goldens/redact.ts';
import type { CanonicalRequest } from '../scenario/canonical.ts';
import type { JournalEntry } from '../scenario/selection.ts';
import { RequestKeeper } from './kept-request.ts';

const request = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  provider: 'openai',
  path: '/v1/chat/completions',
  model: 'gpt-4o',
  stream: false,
  messages: [{ role: 'user', content: 'hi sk-secret' }],
  tools: [],
  headers: { authorization: 'Bearer sk-secret', 'content-length': '80', 'content-type': 'application/json', host: '127.0.0.1:1' },
  params: {},
  raw: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi sk-secret' }] },
  ...over,
});

describe('RequestKeeper', () => {
  it('keeps what a reader saw before: the same keys in the same order, equal values, the auth header redacted', () => {
    const original = request({ params: { temperature: 0 }, tools: [{ name: 'weather', parameters: { type: 'object' } }] });
    const kept = new RequestKeeper(new Redactor()).keep(original);
    expect(Object.keys(kept)).toEqual(Object.keys(original));
    expect(kept).toStrictEqual({ ...original, headers: { ...original.headers, authorization: '[REDACTED]' } });
    expect(JSON.stringify(kept)).toBe(JSON.stringify({ ...original, headers: { ...original.headers, authorization: '[REDACTED]' } }));
  });

  it('shares one frozen empty tool list and parameter record between requests that have none', () => {
    const keeper = new RequestKeeper(new Redactor());
    const a = keeper.keep(request());
    const b = keeper.keep(request());
    expect(a.tools).toBe(b.tools);
    expect(a.params).toBe(b.params);
    expect(a.tools).toEqual([]);
    expect(a.params).toEqual({});
    expect(Object.isFrozen(a.tools) && Object.isFrozen(a.params)).toBe(true);
    // Lists with content stay the request's own.
    const tools = [{ name: 'weather' }];
    expect(keeper.keep(request({ tools })).tools).toBe(tools);
  });

  it('readies an entry: one frozen empty near-miss list for all, a request kept, a near miss list with content left alone', () => {
    const keeper = new RequestKeeper(new Redactor());
    const entry = (nearMisses: JournalEntry['nearMisses']): JournalEntry => ({
      requestId: 'req_1', method: 'POST', path: '/v1/chat/completions', provider: 'openai', request: request(), status: 200, step: null, nearMisses, startedAt: 0, durationMs: 0, bodyLength: 80,
    });
    const a = keeper.entry(entry([]));
    const b = keeper.entry(entry([]));
    expect(a.nearMisses).toBe(b.nearMisses);
    expect(Object.isFrozen(a.nearMisses) && a.nearMisses.length === 0).toBe(true);
    expect(a.request!.headers.authorization).toBe('[REDACTED]');
    expect(a.path).toBe('/v1/chat/completions');
    const misses = [{ step: { scenario: 's', index: 0 }, failed: ['model'] }];
    expect(keeper.entry(entry(misses)).nearMisses).toBe(misses);
  });

  it('redacts listed values in the body, messages and parameters, and leaves the request it was given alone', () => {
    const original = request({ params: { user: 'sk-secret' } });
    const kept = new RequestKeeper(new Redactor({ values: ['sk-secret'] })).keep(original);
    expect(JSON.stringify(kept)).not.toContain('sk-secret');
    expect(kept.messages[0].content).toBe('hi [REDACTED]');
    expect(kept.params).toEqual({ user: '[REDACTED]' });
    expect(original.headers.authorization).toBe('Bearer sk-secret');
    expect((original.raw as { messages: Array<{ content: string }> }).messages[0].content).toBe('hi sk-secret');
  });

  it('keeps every header value and path right past the point where its memo starts over, long ones too', () => {
    const keeper = new RequestKeeper(new Redactor());
    const long = 'x'.repeat(500);
    for (let i = 0; i < 600; i++) {
      const kept = keeper.keep(request({ path: `/v1/responses/resp_${i}`, headers: { 'x-n': `value-${i}`, host: 'h', 'user-agent': long } }));
      expect(kept.headers).toEqual({ 'x-n': `value-${i}`, host: 'h', 'user-agent': long });
      expect(kept.path).toBe(`/v1/responses/resp_${i}`);
    }
  });
});
