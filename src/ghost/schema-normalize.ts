// JSON Schema normalization per provider: MCP servers emit full JSON Schema (often draft 2020-12 from zod);
// each provider's function-calling API accepts a different subset and rejects the request otherwise.
import type { ProviderName } from './tool-names.ts';

type Schema = Record<string, unknown>;

export interface NormalizeOptions {
  /** OpenAI strict mode: every object closed and fully required, optional fields made nullable. */
  strict?: boolean;
}

/** Keywords Gemini's `Schema` (OpenAPI 3.0 subset) understands; anything else is dropped. */
const GEMINI_KEYS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);
/** Keywords OpenAI strict mode rejects. */
const OPENAI_STRICT_DROP = new Set(['default', 'examples', '$comment', 'contentMediaType', 'contentEncoding']);
const REF_DEPTH_LIMIT = 8;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local `#/$defs/x` or `#/definitions/x` reference against the root schema. */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isObject(node) ? node : undefined;
}

/** Inlines local $refs (cutting recursion at a depth limit) and merges allOf; shared by every provider. */
function inline(node: unknown, root: Schema, depth: number): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, root, depth));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    const target = resolveRef(root, node.$ref);
    const { $ref: _ref, ...rest } = node;
    if (!target || depth >= REF_DEPTH_LIMIT) {
      return { type: 'object', description: `${String(node.description ?? '')} (recursive or unresolved ${node.$ref})`.trim() };
    }
    return inline({ ...target, ...rest }, root, depth + 1);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs' || key === 'definitions') continue;
    out[key] = key === 'properties' && isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, root, depth)]))
      : inline(value, root, depth);
  }
  if (Array.isArray(out.allOf)) {
    const parts = out.allOf.filter(isObject);
    delete out.allOf;
    for (const part of parts) mergeInto(out, part);
  }
  return out;
}

function mergeInto(target: Schema, part: Schema): void {
  for (const [key, value] of Object.entries(part)) {
    if (key === 'properties' && isObject(value)) target.properties = { ...(isObject(target.properties) ? target.properties : {}), ...value };
    else if (key === 'required' && Array.isArray(value)) target.required = [...new Set([...(Array.isArray(target.required) ? target.required : []), ...value])];
    else if (!(key in target)) target[key] = value;
  }
}

function typesOf(node: Schema): string[] {
  return Array.isArray(node.type) ? node.type.map(String) : typeof node.type === 'string' ? [node.type] : [];
}

function appendDescription(node: Schema, note: string): void {
  node.description = node.description ? `${String(node.description)} (${note})` : note;
}

/** Gemini: OpenAPI 3.0 subset — nullable instead of type arrays, anyOf not inside items, string enums only. */
function toGemini(input: unknown, inItems = false): unknown {
  if (!isObject(input)) return input;
  const node: Schema = { ...input };
  if ('const' in node && !('enum' in node)) node.enum = [node.const];
  if (Array.isArray(node.oneOf) && !node.anyOf) node.anyOf = node.oneOf;
  if (typeof node.exclusiveMinimum === 'number' && node.minimum === undefined) node.minimum = node.exclusiveMinimum;
  if (typeof node.exclusiveMaximum === 'number' && node.maximum === undefined) node.maximum = node.exclusiveMaximum;
  const types = typesOf(node);
  if (types.length > 0) {
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length < types.length) node.nullable = true;
    node.type = nonNull[0] ?? 'string';
    if (nonNull.length > 1) appendDescription(node, `may also be ${nonNull.slice(1).join(' or ')}`);
  }
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.filter(isObject);
    const nonNull = branches.filter((b) => typesOf(b).join() !== 'null');
    if (nonNull.length < branches.length) node.nullable = true;
    // Gemini refuses anyOf inside array items and single-branch unions: collapse to the first real branch.
    if (inItems || nonNull.length <= 1) {
      delete node.anyOf;
      const first = nonNull[0];
      if (first) for (const [k, v] of Object.entries(first)) if (!(k in node)) node[k] = v;
      if (nonNull.length > 1) appendDescription(node, `one of: ${nonNull.map((b) => typesOf(b).join('|') || 'object').join(', ')}`);
      return toGemini(node, false);
    }
    node.anyOf = nonNull.map((b) => toGemini(b));
  }
  if (Array.isArray(node.enum)) {
    if (node.enum.every((v) => typeof v === 'string')) node.type = 'string';
    else {
      appendDescription(node, `allowed values: ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`);
      delete node.enum;
    }
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!GEMINI_KEYS.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toGemini(v)]));
    } else if (key === 'items') out.items = toGemini(Array.isArray(value) ? value[0] : value, true);
    else if (key === 'format' && out.type === 'string' && !['enum', 'date-time'].includes(String(value))) continue;
    else out[key] = value;
  }
  if (out.type === 'array' && !isObject(out.items)) out.items = { type: 'string' };
  // Gemini rejects an OBJECT with an empty `properties` map; an open object without it is accepted.
  if (isObject(out.properties) && Object.keys(out.properties).length === 0) delete out.properties;
  if (Array.isArray(out.required) && isObject(out.properties)) {
    const props = out.properties;
    out.required = out.required.filter((r) => typeof r === 'string' && r in props);
  } else delete out.required;
  return out;
}

/** OpenAI strict: additionalProperties false everywhere, every property required, optional ones nullable. */
function toOpenAIStrict(input: unknown): unknown {
  if (!isObject(input)) return input;
  const out: Schema = {};
  for (const [key, value] of Object.entries(input)) {
    if (OPENAI_STRICT_DROP.has(key) || key === '$schema') continue;
    if (key === 'properties' || key === 'items' || key === 'anyOf') continue;
    out[key] = value;
  }
  if (Array.isArray(input.anyOf)) out.anyOf = input.anyOf.map(toOpenAIStrict);
  if (input.items !== undefined) out.items = toOpenAIStrict(input.items);
  if (typesOf(input).includes('object') || isObject(input.properties)) {
    const props = isObject(input.properties) ? input.properties : {};
    const required = new Set(Array.isArray(input.required) ? input.required.map(String) : []);
    out.properties = Object.fromEntries(
      Object.entries(props).filter(([, v]) => isObject(v)).map(([k, v]) => {
        const strict = toOpenAIStrict(v) as Schema;
        return [k, required.has(k) ? strict : makeNullable(strict)];
      }),
    );
    out.required = Object.keys(out.properties as Schema);
    out.additionalProperties = false;
  }
  return out;
}

function makeNullable(node: Schema): Schema {
  const types = typesOf(node);
  if (types.length > 0) return types.includes('null') ? node : { ...node, type: [...types, 'null'] };
  return { anyOf: [node, { type: 'null' }] };
}

/**
 * Whether a schema can be made strict: maps (object additionalProperties) and open nested objects cannot.
 * @example
 *   strictCompatible({ type: 'object', additionalProperties: { type: 'string' } }) // false
 */
export function strictCompatible(schema: unknown, isRoot = true): boolean {
  if (!isObject(schema)) return true;
  if (isObject(schema.additionalProperties) || schema.additionalProperties === true) return false;
  const props = isObject(schema.properties) ? schema.properties : undefined;
  const open = typesOf(schema).includes('object') && (!props || Object.keys(props).length === 0);
  if (!isRoot && open && schema.additionalProperties !== false) return false;
  const children = [
    ...(props ? Object.values(props) : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(schema.items !== undefined ? [schema.items] : []),
  ];
  return children.every((child) => strictCompatible(child, false));
}

/**
 * Normalizes an MCP tool's input schema for a provider's function declarations.
 * The root is always an object; `$ref`s are inlined and `allOf` merged for every provider.
 * @example
 * normalizeSchema({ $schema: '...', type: 'object', properties: {}, additionalProperties: false }, 'gemini');
 * // { type: 'object' }
 */
export function normalizeSchema(schema: unknown, provider: ProviderName, options: NormalizeOptions = {}): Schema {
  const root = isObject(schema) ? schema : {};
  const inlined = inline(root, root, 0) as Schema;
  const { $schema: _s, $id: _i, ...rest } = inlined;
  const base: Schema = { ...rest, type: 'object' };
  if (!isObject(base.properties)) base.properties = {};
  if (provider === 'gemini') return toGemini(base) as Schema;
  if (provider === 'openai' && options.strict) return toOpenAIStrict(base) as Schema;
  return base;
}

/**
 * Removes null values the model sent for properties the original schema did not require (OpenAI strict).
 * @example
 *   dropNullOptionals({ city: 'Paris', unit: null }, { required: ['city'] }) // { city: 'Paris' }
 */
export function dropNullOptionals(args: Record<string, unknown>, original: unknown): Record<string, unknown> {
  const required = new Set(isObject(original) && Array.isArray(original.required) ? original.required.map(String) : []);
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => v !== null || required.has(k)));
}
