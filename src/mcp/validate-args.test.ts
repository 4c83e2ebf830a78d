import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ArgumentValidator, formatArgumentIssues } from './validate-args.ts';

const schema = z.toJSONSchema(
  z.object({
    sql: z.string().min(3),
    limit: z.number().int().min(1).max(100).optional(),
    mode: z.enum(['fast', 'slow']).optional(),
    tags: z.array(z.string()).optional(),
    target: z.union([z.string(), z.object({ id: z.number() })]).optional(),
  }).strict(),
);

describe('ArgumentValidator', () => {
  const v = new ArgumentValidator();
  const messages = (args: unknown, s: unknown = schema): string => formatArgumentIssues(v.check(s, args));

  it('accepts arguments that fit', () => {
    expect(v.check(schema, { sql: 'SELECT 1', limit: 5, mode: 'fast', tags: ['a'], target: { id: 1 } })).toEqual([]);
  });

  it('returns structured issues naming the path, the keyword and the property', () => {
    expect(v.check(schema, {})).toEqual([{ pointer: '', path: [], keyword: 'required', message: "must have required property 'sql'", property: 'sql' }]);
    const [extra] = v.check(schema, { sql: 'abc', extra: 1 });
    expect(extra).toMatchObject({ keyword: 'additionalProperties', property: 'extra' });
    const [tag] = v.check(schema, { sql: 'abc', tags: ['a', 2] });
    expect(tag).toMatchObject({ pointer: '/tags/1', path: ['tags', '1'], keyword: 'type' });
    const [mode] = v.check(schema, { sql: 'abc', mode: 'warp' });
    expect(mode).toMatchObject({ keyword: 'enum', allowed: ['fast', 'slow'] });
  });

  it('renders one default message format', () => {
    expect(messages({})).toBe("(arguments) must have required property 'sql'");
    expect(messages({ sql: 5 })).toBe('"sql" must be string');
    expect(messages({ sql: 'x' })).toBe('"sql" must NOT have fewer than 3 characters');
    expect(messages({ sql: 'abc', limit: 1.5 })).toBe('"limit" must be integer');
    expect(messages({ sql: 'abc', limit: 500 })).toBe('"limit" must be <= 100');
    expect(messages({ sql: 'abc', mode: 'warp' })).toBe('"mode" must be equal to one of the allowed values: "fast", "slow"');
    expect(messages({ sql: 'abc', extra: 1 })).toBe("(arguments) must NOT have additional properties 'extra'");
  });

  it("honours the schema's own draft: 2020-12 prefixItems, draft-07 items arrays", () => {
    const s2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } } };
    expect(v.check(s2020, { pair: ['a', 1] })).toEqual([]);
    expect(v.check(s2020, { pair: [1, 'a'] }).map((i) => i.pointer)).toEqual(['/pair/0', '/pair/1']);
    const s07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } };
    expect(v.check(s07, { pair: [1] }).map((i) => i.pointer)).toEqual(['/pair/0']);
    const s2019 = { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } };
    expect(v.check(s2019, { a: 1 })[0]).toMatchObject({ keyword: 'dependentRequired' });
  });

  it('reads a schema naming no draft as draft-07 unless told otherwise (defaultDraft)', () => {
    const bare = { type: 'array', prefixItems: [{ type: 'string' }] };
    expect(v.check(bare, [1])).toEqual([]); // draft-07 knows no prefixItems
    const v2020 = new ArgumentValidator({ defaultDraft: '2020' });
    expect(v2020.check(bare, [1]).map((i) => `${i.pointer} ${i.keyword}`)).toEqual(['/0 type']);
    const declared07 = { ...bare, $schema: 'http://json-schema.org/draft-07/schema#' };
    expect(v2020.check(declared07, [1])).toEqual([]);
  });

  it("hands out ajv's ErrorObjects, every one and unmerged (allErrors)", () => {
    const errors = v.errors(schema, { sql: 1, extra: 1, more: 2 });
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual([' additionalProperties', ' additionalProperties', '/sql type']);
    expect(errors[0]).toMatchObject({ schemaPath: '#/additionalProperties', params: { additionalProperty: 'extra' } });
    expect(v.check(schema, { sql: 1, extra: 1, more: 2 })).toHaveLength(3);
  });

  it('lets everything through when the schema cannot be compiled (the server has the last word)', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
    expect(v.compiles(broken)).toBe(false);
    expect(v.check(broken, { a: 1 })).toEqual([]);
    expect(v.check(undefined, { a: 1 })).toEqual([]);
  });
});
