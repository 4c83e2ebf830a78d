import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateArgs } from './validate-args.ts';

const schema = z.toJSONSchema(
  z.object({
    sql: z.string().min(3),
    limit: z.number().int().min(1).max(100).optional(),
    mode: z.enum(['fast', 'slow']).optional(),
    tags: z.array(z.string()).optional(),
    target: z.union([z.string(), z.object({ id: z.number() })]).optional(),
  }).strict(),
);

describe('validateArgs', () => {
  it('accepts arguments that fit', () => {
    expect(validateArgs({ sql: 'SELECT 1', limit: 5, mode: 'fast', tags: ['a'], target: { id: 1 } }, schema)).toEqual([]);
  });

  it('names each violation with its path', () => {
    expect(validateArgs({}, schema)).toEqual(["(root) must have required property 'sql'"]);
    expect(validateArgs({ sql: 5 }, schema)).toEqual(['/sql must be string']);
    expect(validateArgs({ sql: 'x' }, schema)).toEqual(['/sql must NOT have fewer than 3 characters']);
    expect(validateArgs({ sql: 'abc', limit: 1.5 }, schema)).toEqual(['/limit must be integer']);
    expect(validateArgs({ sql: 'abc', limit: 500 }, schema)).toEqual(['/limit must be <= 100']);
    expect(validateArgs({ sql: 'abc', mode: 'warp' }, schema)[0]).toMatch(/^\/mode must be equal to one of the allowed values: "fast", "slow"/);
    expect(validateArgs({ sql: 'abc', tags: ['a', 2] }, schema)).toEqual(['/tags/1 must be string']);
    expect(validateArgs({ sql: 'abc', target: true }, schema)).toEqual(['/target must match a schema in anyOf']);
    expect(validateArgs({ sql: 'abc', extra: 1 }, schema)).toEqual(["(root) must NOT have additional property 'extra'"]);
  });

  it('ignores what it does not know and tolerates no schema', () => {
    expect(validateArgs({ a: 1 }, undefined)).toEqual([]);
    expect(validateArgs({ a: 'x' }, { type: 'object', properties: { a: { format: 'email', pattern: '^y' } } })).toEqual([]);
  });
});
