import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ParamsValidator } from './params-validator.ts';
import { exampleFromSchema } from './schema-example.ts';

const schemas: Array<[string, Record<string, unknown>]> = [
  ['required strings', { type: 'object', properties: { query: { type: 'string' }, lang: { type: 'string' } }, required: ['query'] }],
  ['formats and lengths', { type: 'object', properties: { when: { type: 'string', format: 'date' }, code: { type: 'string', minLength: 12, maxLength: 12 } }, required: ['when', 'code'] }],
  ['bounded numbers', { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 9 }, x: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 }, k: { type: 'integer', exclusiveMaximum: 0 } }, required: ['n', 'x', 'k'] }],
  ['enum and const', { type: 'object', properties: { unit: { enum: ['celsius', 'kelvin'] }, v: { const: 2 } }, required: ['unit', 'v'] }],
  ['arrays', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true } }, required: ['tags'] }],
  ['nested objects and $ref', { type: 'object', $defs: { P: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] } }, properties: { at: { $ref: '#/$defs/P' } }, required: ['at'], additionalProperties: false }],
  ['anyOf with null', { type: 'object', properties: { limit: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] } }, required: ['limit'] }],
  ['allOf', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] }],
  ['no required: first property shown', { type: 'object', properties: { verbose: { type: 'boolean' } } }],
  ['empty', { type: 'object' }],
  ['patterns', { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]+$' }, slug: { type: 'string', pattern: '^[a-z]+-[0-9]$' }, code: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['id', 'slug', 'code'] }],
];

describe('exampleFromSchema', () => {
  it.each(schemas)('%s: the example validates', (_name, schema) => {
    const example = exampleFromSchema(schema);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validate(schema, example), JSON.stringify({ example, errors: ajv.errors })).toBe(true);
  });

  it('prefers default and examples, and names strings after their property', () => {
    expect(exampleFromSchema({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer', default: 3 }, m: { type: 'string', examples: ['Paris'] } }, required: ['q', 'n', 'm'] })).toEqual({
      q: 'q',
      n: 3,
      m: 'Paris',
    });
  });
});

describe('ParamsValidator', () => {
  const v = new ParamsValidator();
  const schema = {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer' }, mode: { enum: ['fast', 'exact'] }, filter: { type: 'object', properties: { year: { type: 'integer' } }, required: ['year'] } },
    required: ['query'],
    additionalProperties: false,
  };

  it('accepts valid params', () => {
    expect(v.check(schema, { query: 'x', limit: 2 })).toBeUndefined();
  });

  it.each([
    [{}, "missing required param 'query'"],
    [{ query: 1 }, '"query" must be string'],
    [{ query: 'x', extra: 1 }, "params has unknown property 'extra'"],
    [{ query: 'x', mode: 'slow' }, '"mode" must be one of "fast", "exact"'],
    [{ query: 'x', filter: {} }, `"filter" is missing required property 'year'`],
    [{ query: 1, limit: 'a', mode: 'b', filter: 1, z: 1 }, /^.+; .+; .+ \(and 2 more\)$/],
  ])('%j → %s', (params, message) => {
    const problem = v.check(schema, params);
    if (typeof message === 'string') expect(problem).toBe(message);
    else expect(problem).toMatch(message);
  });

  it('reads 2020-12 schemas by $schema, and ignores a schema it cannot compile', () => {
    const modern = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(v.check(modern, ['a'] as never)).toBeUndefined();
    expect(v.check(modern, ['a', 'b'] as never)).toBe('params must NOT have more than 1 items');
    expect(v.check({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 })).toBeUndefined();
  });
});
