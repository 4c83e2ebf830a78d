type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

const FORMAT_EXAMPLES: Record<string, string> = {
  date: '2024-01-31',
  'date-time': '2024-01-31T12:00:00Z',
  time: '12:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': 'https://example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
};

/**
 * Builds a value that satisfies a JSON Schema, for the example call in a tool's
 * instructions: `const`, `enum`, `default` and `examples` win; objects get their
 * required properties (or the first property when none is required); numbers
 * respect bounds and `multipleOf`; strings respect formats and length bounds;
 * `$ref` into `$defs`/`definitions` is followed. Patterns are not solved: common
 * sample strings are tried against them.
 *
 * @example
 * exampleFromSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }) // { city: 'example' }
 */
export function exampleFromSchema(schema: unknown, root: unknown = schema, depth = 0, name = 'example'): unknown {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return name;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') return exampleFromSchema(resolveRef(s.$ref, root), root, depth + 1, name);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const first = branches.find((b) => (b as Schema)?.type !== 'null') ?? branches[0];
      return exampleFromSchema({ ...withoutKey(s, key), ...(first as Schema) }, root, depth + 1, name);
    }
  }
  if (Array.isArray(s.allOf)) {
    const merged = (s.allOf as Schema[]).reduce<Schema>((acc, part) => mergeSchemas(acc, part), withoutKey(s, 'allOf'));
    return exampleFromSchema(merged, root, depth + 1, name);
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) {
    case 'object':
      return objectExample(s, root, depth);
    case 'array':
      return arrayExample(s, root, depth, name);
    case 'integer':
      return numberExample(s, true);
    case 'number':
      return numberExample(s, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringExample(s, name);
    default:
      return name;
  }
}

function objectExample(s: Schema, root: unknown, depth: number): Record<string, unknown> {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const keys = required.length > 0 ? required : Object.keys(properties).slice(0, 1);
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = exampleFromSchema(properties[key] ?? {}, root, depth + 1, key);
  const min = typeof s.minProperties === 'number' ? s.minProperties : 0;
  for (const key of Object.keys(properties)) {
    if (Object.keys(out).length >= min) break;
    if (!(key in out)) out[key] = exampleFromSchema(properties[key], root, depth + 1, key);
  }
  return out;
}

function arrayExample(s: Schema, root: unknown, depth: number, name: string): unknown[] {
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
  const out = prefix.map((item) => exampleFromSchema(item, root, depth + 1, name));
  const min = typeof s.minItems === 'number' ? s.minItems : 1;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const items = typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items) ? s.items : {};
  const unique = s.uniqueItems === true;
  while (out.length < Math.min(Math.max(min, 1), max)) {
    const value = exampleFromSchema(items, root, depth + 1, name);
    out.push(unique && typeof value === 'string' ? `${value}${out.length || ''}` : unique && typeof value === 'number' ? value + out.length : value);
  }
  return out;
}

function numberExample(s: Schema, integer: boolean): number {
  const step = typeof s.multipleOf === 'number' ? s.multipleOf : integer ? 1 : undefined;
  // Exclusive bounds move one step (or one unit) inside the range.
  const nudge = step ?? 1;
  const low = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + nudge : undefined;
  const high = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - nudge : undefined;
  let value = low ?? (high !== undefined ? Math.min(high, 1) : 1);
  if (step) value = Math.ceil(value / step) * step;
  return value;
}

// Tried in order against a `pattern`; patterns are not solved, but common ones accept one of these.
const PATTERN_CANDIDATES = ['example', 'abc', 'ABC', 'a1', '123', '1', 'a', 'A', 'example-1', 'abc_123', '2024-01-31', 'user@example.com', 'https://example.com'];

function stringExample(s: Schema, name: string): string {
  let value = typeof s.format === 'string' && FORMAT_EXAMPLES[s.format] ? FORMAT_EXAMPLES[s.format] : name;
  if (typeof s.pattern === 'string') value = patternExample(s.pattern, [value, ...PATTERN_CANDIDATES]) ?? value;
  if (typeof s.minLength === 'number' && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
  if (typeof s.maxLength === 'number' && value.length > s.maxLength) value = value.slice(0, s.maxLength);
  return value;
}

function patternExample(pattern: string, candidates: string[]): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  return candidates.find((c) => re.test(c));
}

function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    node = (node as Schema | undefined)?.[decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node ?? {};
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  return {
    ...a,
    ...b,
    properties: { ...((a.properties as object) ?? {}), ...((b.properties as object) ?? {}) },
    required: [...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])],
  };
}

function withoutKey(s: Schema, key: string): Schema {
  const copy = { ...s };
  delete copy[key];
  return copy;
}
