import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../providers/adapter.ts';
import { assertNestingWithin, jsonDepthOver, MAX_JSON_DEPTH } from './json-depth.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('the nesting limit of JSON bodies', () => {
  it('catches the shortest JSON one level too deep, and lets the deepest allowed through', () => {
    expect(nested(MAX_JSON_DEPTH + 1)).toHaveLength(2 * (MAX_JSON_DEPTH + 1));
    expect(jsonDepthOver(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
    expect(() => assertNestingWithin(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toThrow(BadRequestError);
    expect(jsonDepthOver(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(0);
    expect(() => assertNestingWithin(nested(MAX_JSON_DEPTH))).not.toThrow();
  });

  it('skips texts too short to be JSON that deep: what is left of them fails to parse before anything walks it', () => {
    const unclosed = '['.repeat(2 * MAX_JSON_DEPTH + 1);
    expect(jsonDepthOver(unclosed, MAX_JSON_DEPTH)).toBe(0);
    expect(() => JSON.parse(unclosed)).toThrow(SyntaxError);
    // One character longer, the scan runs and reports it.
    expect(jsonDepthOver(`${unclosed}[`, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });

  it('counts no bracket inside a string, escaped quotes included', () => {
    const text = JSON.stringify({ s: `\\"${'['.repeat(600)}`, deep: JSON.parse(nested(3)) });
    // The object and the three arrays: 4 deep, whatever the string holds.
    expect(jsonDepthOver(text, 4)).toBe(0);
    expect(jsonDepthOver(text, 3)).toBe(4);
  });
});
