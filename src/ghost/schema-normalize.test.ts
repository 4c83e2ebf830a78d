import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropNullOptionals, normalizeSchema, strictCompatible } from './schema-normalize.ts';

const GEMINI_KEYS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);

/** Every key Gemini would see, at every depth (property names excluded). */
function schemaKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => schemaKeys(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      out.add(k);
      if (k === 'properties') Object.values(v as object).forEach((p) => schemaKeys(p, out));
      else schemaKeys(v, out);
    }
  }
  return out;
}

const Address = z.object({ street: z.string(), city: z.string() });
const zodSchema = z.toJSONSchema(
  z.object({
    name: z.string().min(1),
    age: z.number().int().optional(),
    tags: z.array(z.union([z.string(), z.number()])),
    home: Address,
    work: Address.optional(),
    mode: z.literal('fast'),
    level: z.union([z.literal(1), z.literal(2)]),
    nickname: z.string().nullable(),
    extra: z.record(z.string(), z.string()).optional(),
  }),
  { reused: 'ref' },
) as Record<string, unknown>;

describe('normalizeSchema for gemini', () => {
  const out = normalizeSchema(zodSchema, 'gemini') as any;

  it('keeps only keywords Gemini accepts, at every depth', () => {
    expect(zodSchema.$schema).toBeDefined();
    for (const key of schemaKeys(out)) expect(GEMINI_KEYS).toContain(key);
  });

  it('inlines $ref targets', () => {
    expect(JSON.stringify(zodSchema)).toContain('$ref');
    expect(out.properties.home).toMatchObject({ type: 'object', properties: { street: { type: 'string' } } });
    expect(out.properties.work.properties.city.type).toBe('string');
  });

  it('collapses anyOf inside array items to one branch and says so', () => {
    expect(out.properties.tags.items.anyOf).toBeUndefined();
    expect(out.properties.tags.items.type).toBe('string');
    expect(out.properties.tags.items.description).toMatch(/one of|may also be/);
  });

  it('turns const into a string enum, null unions into nullable, and non-string enums into descriptions', () => {
    expect(out.properties.mode).toMatchObject({ type: 'string', enum: ['fast'] });
    expect(out.properties.nickname).toMatchObject({ type: 'string', nullable: true });
    expect(out.properties.level.enum).toBeUndefined();
    expect(JSON.stringify(out.properties.level)).toMatch(/1/);
    expect(out.required).toEqual(expect.arrayContaining(['name', 'tags', 'home']));
  });

  it('cuts recursive references instead of looping', () => {
    const recursive = { type: 'object', properties: { node: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } } };
    const result = JSON.stringify(normalizeSchema(recursive, 'gemini'));
    expect(result).toMatch(/recursive or unresolved/);
    expect(result).not.toContain('$ref');
  });

  it('drops an empty properties map but keeps the object type', () => {
    expect(normalizeSchema({ type: 'object', properties: {}, additionalProperties: false, $schema: 'x' }, 'gemini')).toEqual({ type: 'object' });
  });
});

describe('normalizeSchema for openai and anthropic', () => {
  it('always yields an object root with properties', () => {
    for (const provider of ['openai', 'anthropic'] as const) {
      expect(normalizeSchema(undefined, provider)).toEqual({ type: 'object', properties: {} });
      expect(normalizeSchema({ properties: { a: { type: 'string' } } }, provider)).toMatchObject({ type: 'object' });
    }
  });

  it('openai strict closes every object, requires every property and makes optional ones nullable', () => {
    const { extra: _extra, ...props } = zodSchema.properties as Record<string, unknown>;
    const strict = normalizeSchema({ ...zodSchema, properties: props }, 'openai', { strict: true }) as any;
    expect(strict.additionalProperties).toBe(false);
    expect(strict.required).toEqual(Object.keys(strict.properties));
    expect(strict.properties.age.type).toEqual(['integer', 'null']);
    expect(strict.properties.work.anyOf ?? strict.properties.work.type).toBeDefined();
    expect(strict.properties.home.additionalProperties).toBe(false);
    expect(strict.properties.home.required).toEqual(['street', 'city']);
  });

  it('strictCompatible refuses maps and open nested objects', () => {
    expect(strictCompatible(zodSchema)).toBe(false);
    expect(strictCompatible({ type: 'object', properties: { a: { type: 'string' } } })).toBe(true);
    expect(strictCompatible({ type: 'object', properties: { a: { type: 'object' } } })).toBe(false);
  });

  it('dropNullOptionals removes nulls the strict schema made the model send for optional fields', () => {
    expect(dropNullOptionals({ a: 1, b: null, c: null }, { required: ['c'] })).toEqual({ a: 1, c: null });
  });
});
