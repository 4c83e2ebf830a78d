import { describe, expect, it } from 'vitest';
import { compareValues, toJsonValue, withPlaceholders } from './compare.ts';
import { Masker } from './masks.ts';
import { compileKeys, resolveMode } from './config.ts';
import { normalizeRequest } from './normalize.ts';

describe('compareValues', () => {
  it('masks ids, timestamps and durations by default', () => {
    const expected = { id: 'run_1', callId: 'c1', startedAt: '2026-01-01T00:00:00Z', executionTimeMs: 12, answer: 'sunny' };
    const actual = { id: 'run_2', callId: 'c2', startedAt: '2026-11-21T10:11:12.345Z', executionTimeMs: 99, answer: 'sunny' };
    expect(compareValues(expected, actual).pass).toBe(true);
    expect(compareValues(expected, actual, { masker: new Masker({ defaults: false }) }).pass).toBe(false);
  });

  it('prints a readable JSON-patch diff (- golden, + actual) with JSON paths', () => {
    const result = compareValues(
      { finalResult: 'sunny', toolChain: [{ toolName: 'get_weather' }], summary: 'x' },
      { finalResult: 'rainy', toolChain: [{ toolName: 'get_weather' }, { toolName: 'get_time' }] },
    );
    expect(result.pass).toBe(false);
    expect(result.diff.split('\n').sort()).toEqual(
      ['  ~ $.finalResult: "sunny" → "rainy"', '  + $.toolChain[1]: {"toolName":"get_time"}', '  - $.summary: "x"'].sort(),
    );
  });

  it('configurable masks: extra keys (names or /regex/) and JSON paths with wildcards', () => {
    const masker = new Masker({ keys: compileKeys(['traceparent', '/^tmp_/']), paths: ['$.steps[*].result.rows'] });
    const a = { traceparent: 'a', tmp_dir: '/tmp/1', steps: [{ result: { rows: 3, ok: true } }] };
    const b = { traceparent: 'b', tmp_dir: '/tmp/2', steps: [{ result: { rows: 4, ok: true } }] };
    expect(compareValues(a, b, { masker }).pass).toBe(true);
    expect(compareValues(a, { ...b, steps: [{ result: { rows: 4, ok: false } }] }, { masker }).diff).toBe('  ~ $.steps[0].result.ok: true → false');
  });

  it('property matchers (asymmetric matchers) are checked, then left out of the comparison', () => {
    const equals = (a: unknown, b: unknown): boolean => (b as { asymmetricMatch?: (x: unknown) => boolean }).asymmetricMatch?.(a) ?? Object.is(a, b);
    const matchers = { usage: { totalTokens: expect.any(Number) }, model: expect.stringMatching(/^gpt-/) };
    const stored = { usage: { totalTokens: 10 }, model: 'gpt-4o', text: 'hi' };
    expect(compareValues(stored, { usage: { totalTokens: 12 }, model: 'gpt-4o-mini', text: 'hi' }, { propertyMatchers: matchers, equals }).pass).toBe(true);
    const bad = compareValues(stored, { usage: { totalTokens: 'many' }, model: 'gpt-4o', text: 'hi' }, { propertyMatchers: matchers, equals });
    expect(bad.pass).toBe(false);
    expect(bad.diff).toContain('$.usage.totalTokens: "many" does not match');
  });

  it('compares what a golden would store: undefined dropped, Dates as ISO strings', () => {
    expect(toJsonValue({ a: undefined, d: new Date(0) })).toEqual({ d: '1970-01-01T00:00:00.000Z' });
    expect(compareValues({ b: 1 }, { a: undefined, b: 1 }).pass).toBe(true);
  });
});

describe('modes', () => {
  it('CI forces replay; -u is update; GHOSTWIRE_RECORD=1 records, =missing records only missing goldens', () => {
    expect(resolveMode('replay', { CI: 'true', GHOSTWIRE_RECORD: '1' }, false)).toBe('replay');
    expect(resolveMode('record', { CI: '1' }, false)).toBe('replay');
    expect(resolveMode('replay', { CI: 'false', GHOSTWIRE_RECORD: '1' }, false)).toBe('record');
    expect(resolveMode('replay', { GHOSTWIRE_RECORD: 'missing' }, false)).toBe('record-missing');
    expect(resolveMode('replay', {}, true)).toBe('update');
    expect(resolveMode("record", {}, true)).toBe("record");
    expect(resolveMode('record-missing', {}, false)).toBe('record-missing');
  });
});

describe('request normalization', () => {
  const request = (body: unknown, url = 'https://api.openai.com/v1/chat/completions?b=2&a=1') => ({ method: 'post', url, headers: {}, body });

  it('sorts query parameters and drops ignored body paths (with wildcards)', () => {
    const n = normalizeRequest(request({ model: 'm', user: 'u1', messages: [{ role: 'user', content: 'x', name: 'n1' }] }), ['$.user', '$.messages[*].name']);
    expect(n).toEqual({ method: 'POST', url: 'https://api.openai.com/v1/chat/completions?a=1&b=2', body: { model: 'm', messages: [{ role: 'user', content: 'x' }] } });
  });

  it('rejects an ignore path that is not a JSON path, naming it', () => {
    expect(() => normalizeRequest(request({}), ['user'])).toThrowError(/ignorePaths: "user" must be a JSON path/);
  });
});

describe('matcher placeholders in stored values', () => {
  const equals = (a: unknown, b: unknown): boolean => ((b as { asymmetricMatch?: (x: unknown) => boolean }).asymmetricMatch ? (b as { asymmetricMatch: (x: unknown) => boolean }).asymmetricMatch(a) : Object.is(a, b));

  it('hand-written expect.* placeholders in a golden are compared as asymmetric matchers', () => {
    const stored = { calls: 'expect.any(Number)', id: 'expect.stringMatching(/^run_/)', text: 'expect.stringContaining("Paris")', extra: 'expect.anything()' };
    expect(compareValues(stored, { calls: 3, id: 'run_9', text: 'Sunny in Paris', extra: [1] }, { masker: new Masker({ defaults: false }), matchers: expect, equals }).pass).toBe(true);
    const bad = compareValues(stored, { calls: 'three', id: 'run_9', text: 'Sunny in Lyon', extra: 1 }, { masker: new Masker({ defaults: false }), matchers: expect, equals });
    expect(bad.diff).toContain('$.calls: "three" does not match');
    expect(bad.diff).toContain('$.text: "Sunny in Lyon" does not match');
  });

  it('property matchers are stored as placeholders, so the golden does not churn', () => {
    expect(withPlaceholders({ usage: { total: 12 }, model: 'gpt-4o', at: 5 }, { usage: { total: expect.any(Number) }, model: expect.stringMatching(/^gpt/), at: expect.anything() })).toEqual({
      usage: { total: 'expect.any(Number)' },
      model: 'expect.stringMatching(/^gpt/)',
      at: 'expect.anything()',
    });
  });
});
