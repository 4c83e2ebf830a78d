import type { ErrorObject } from 'ajv';
import { pyPformat, pyRepr, pyStr } from './python-repr.ts';

/**
 * Python jsonschema's wording for validation errors, from ajv's ErrorObjects.
 * ROLL's MCPTool puts `str(ValidationError)` into the observation: the chosen
 * error's message, then "Failed validating 'kw' in schema[...]" with the
 * subschema, then "On instance[...]" with the value, each pretty-printed as
 * Python does. ajv (with allErrors) finds the same errors; this file picks the
 * one jsonschema's `best_match` would pick and words it the same way.
 */

type Json = unknown;
type Segment = string | number;

/** An ajv error located in the schema and the instance, grouped the way jsonschema nests them. */
interface Located {
  error: ErrorObject;
  /** ajv's schema path: where to read the failing keyword's subschema. */
  lookupPath: string[];
  /** The same place as jsonschema names it: through the `$ref` site (the reference itself transparent), indices as numbers. */
  path: Segment[];
  instancePath: Segment[];
  /** Errors of the anyOf/oneOf branches under this one (jsonschema's `context`). */
  context: Located[];
}

const WEAK = new Set(['anyOf', 'oneOf']);
const INDEXED = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);

/**
 * The `str()` of the ValidationError that `jsonschema.validate` raises for these errors,
 * or undefined when there are none.
 *
 * @example
 * jsonschemaErrorText(validate.errors, schema, { action: 'up' })
 * // "'up' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['action']:\n    {'type': 'integer'}\n\nOn instance['action']:\n    'up'"
 */
export function jsonschemaErrorText(errors: readonly ErrorObject[], schema: Json, instance: Json): string | undefined {
  const best = bestMatch(locate(errors, schema, instance), schema, instance);
  if (!best) return undefined;
  return describe(best.located, best.base, schema, instance);
}

function locate(errors: readonly ErrorObject[], schema: Json, instance: Json): Located[] {
  // jsonschema reports extra properties in one error; ajv reports one per property.
  const merged: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue; // jsonschema reports only the then/else errors
    if (error.keyword === 'additionalProperties' && merged.some((e) => e.keyword === 'additionalProperties' && e.schemaPath === error.schemaPath && e.instancePath === error.instancePath)) continue;
    merged.push(error);
  }
  const all: Located[] = merged.map((error) => {
    const lookupPath = pointer(error.schemaPath);
    const instancePath = instanceSegments(error.instancePath, instance);
    return { error, lookupPath, path: numbered(throughRefs(lookupPath, schema, instancePath.length)), instancePath, context: [] };
  });
  const top: Located[] = [];
  for (const item of all) {
    const parent = all.find((p) => p !== item && WEAK.has(p.error.keyword) && isBranchOf(item.path, p.path));
    if (parent) parent.context.push(item);
    else top.push(item);
  }
  return top;
}

function isBranchOf(path: Segment[], weakPath: Segment[]): boolean {
  return path.length > weakPath.length + 1 && weakPath.every((s, i) => path[i] === s) && typeof path[weakPath.length] === 'number';
}

function pointer(schemaPath: string): string[] {
  return schemaPath.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** ajv names errors inside a `$ref` target by the target's path (`$defs/X/...`); jsonschema by the referencing site's. */
function throughRefs(path: string[], schema: Json, instanceDepth: number): string[] {
  if (path[0] !== '$defs' && path[0] !== 'definitions') return path;
  const target = `#/${path.slice(0, 2).map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const rest = path.slice(2);
  const candidates = refSites(schema, target).map((site) => [...throughRefs(site, schema, instanceDepth), ...rest]);
  return candidates.find((c) => consumed(c) === instanceDepth) ?? candidates[0] ?? path;
}

function refSites(schema: Json, target: string, at: string[] = [], out: string[][] = []): string[][] {
  if (typeof schema !== 'object' || schema === null) return out;
  if (!Array.isArray(schema) && (schema as Record<string, unknown>).$ref === target) out.push(at);
  for (const [key, value] of Object.entries(schema)) refSites(value, target, [...at, key], out);
  return out;
}

/** How many instance levels a schema path descends (properties/x, items, ...), its final keyword excluded. */
function consumed(path: readonly string[]): number {
  let depth = 0;
  for (let i = 0; i < path.length - 1; i++) {
    const s = path[i];
    if (s === 'properties' || s === 'patternProperties' || s === 'prefixItems') {
      depth++;
      i++;
    } else if (s === 'additionalProperties' || s === 'contains' || s === 'unevaluatedProperties' || s === 'unevaluatedItems') depth++;
    else if (s === 'items') {
      depth++;
      if (/^\d+$/.test(path[i + 1] ?? '')) i++;
    } else if (s === 'dependentSchemas' || s === 'dependencies' || s === '$defs' || s === 'definitions' || INDEXED.has(s)) i++;
  }
  return depth;
}

function numbered(path: string[]): Segment[] {
  return path.map((s, i) => (INDEXED.has(path[i - 1]) && /^\d+$/.test(s) ? Number(s) : s));
}

function instanceSegments(path: string, instance: Json): Segment[] {
  const segments: Segment[] = [];
  let node = instance;
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      segments.push(Number(key));
      node = node[Number(key)];
    } else {
      segments.push(key);
      node = (node as Record<string, unknown> | undefined)?.[key];
    }
  }
  return segments;
}

type Key = Array<number | boolean | Segment[]>;

/** jsonschema's `relevance`: (-len(path), path, not weak, strong, not matches_type), the path relative to the parent error. */
function relevance(item: Located, base: number, schema: Json, instance: Json): Key {
  const relative = item.instancePath.slice(base);
  return [-relative.length, relative, !WEAK.has(item.error.keyword), false, !matchesType(item, schema, instance)];
}

function compareKey(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    const d = Array.isArray(x) && Array.isArray(y) ? comparePaths(x, y) : Number(x) - Number(y);
    if (d !== 0) return d;
  }
  return 0;
}

function comparePaths(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** jsonschema's `_matches_type`: the instance has a type the failing subschema's `type` allows. */
function matchesType(item: Located, schema: Json, instance: Json): boolean {
  const sub = at(schema, item.lookupPath.slice(0, -1)) as Record<string, unknown> | undefined;
  const expected = sub?.type;
  if (expected === undefined) return false;
  const value = at(instance, item.instancePath);
  const is = (type: unknown): boolean => {
    switch (type) {
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'number':
        return typeof value === 'number';
      case 'string':
        return typeof value === 'string';
      case 'boolean':
        return typeof value === 'boolean';
      case 'null':
        return value === null;
      case 'array':
        return Array.isArray(value);
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      default:
        return false;
    }
  };
  return Array.isArray(expected) ? expected.some(is) : is(expected);
}

/** The order jsonschema meets errors in: schema keywords in the schema's own key order, `$ref`s followed. */
function visitOrder(item: Located, schema: Json): number[] {
  const order: number[] = [];
  let node = schema;
  for (const segment of item.path) {
    for (let hops = 0; hops < 8 && isRef(node) && !Object.hasOwn(node, String(segment)); hops++) node = at(schema, pointer(node.$ref));
    if (Array.isArray(node)) {
      order.push(Number(segment));
      node = node[Number(segment)];
    } else if (typeof node === 'object' && node !== null) {
      order.push(Object.keys(node).indexOf(String(segment)));
      node = (node as Record<string, unknown>)[String(segment)];
    }
  }
  if (item.error.keyword === 'required' && Array.isArray(node)) order.push(node.indexOf((item.error.params as { missingProperty?: string }).missingProperty));
  return order;
}

function isRef(node: Json): node is { $ref: string } {
  return typeof node === 'object' && node !== null && typeof (node as { $ref?: unknown }).$ref === 'string' && (node as { $ref: string }).$ref.startsWith('#');
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** jsonschema's `best_match`: the most relevant top-level error (first on ties), then down anyOf/oneOf context while one branch error is strictly least relevant. */
function bestMatch(top: Located[], schema: Json, instance: Json): { located: Located; base: { schema: number; instance: number } } | undefined {
  const inOrder = (items: Located[]) => [...items].sort((a, b) => compareOrder(visitOrder(a, schema), visitOrder(b, schema)));
  let best: Located | undefined;
  for (const item of inOrder(top)) if (!best || compareKey(relevance(item, 0, schema, instance), relevance(best, 0, schema, instance)) > 0) best = item;
  if (!best) return undefined;
  let base = { schema: 0, instance: 0 };
  while (best.context.length > 0) {
    const inner = { schema: best.path.length, instance: best.instancePath.length };
    const key = (item: Located) => relevance(item, inner.instance, schema, instance);
    const ranked = inOrder(best.context).sort((a, b) => compareKey(key(a), key(b)));
    if (ranked.length >= 2 && compareKey(key(ranked[0]), key(ranked[1])) === 0) break;
    best = ranked[0];
    base = inner;
  }
  return { located: best, base };
}

function at(root: Json, path: readonly Segment[]): Json {
  let node = root;
  for (const s of path) node = Array.isArray(node) ? node[Number(s)] : (node as Record<string, unknown> | undefined)?.[String(s)];
  return node;
}

function messageOf(item: Located, schema: Json, instance: Json): string {
  const { error } = item;
  const value = at(instance, item.instancePath);
  const parent = at(schema, item.lookupPath.slice(0, -1)) as Record<string, unknown>;
  const rule = parent?.[error.keyword];
  const params = error.params as Record<string, unknown>;
  const v = pyRepr(value);
  switch (error.keyword) {
    case 'type':
      return `${v} is not of type ${(Array.isArray(rule) ? rule : [rule]).map(pyRepr).join(', ')}`;
    case 'required':
      return `${pyRepr(params.missingProperty)} is a required property`;
    case 'additionalProperties': {
      const extras = Object.keys(value as object).filter((k) => !isDeclared(parent, k));
      return `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${extras.length === 1 ? 'was' : 'were'} unexpected)`;
    }
    case 'enum':
      return `${v} is not one of ${pyRepr(rule)}`;
    case 'const':
      return `${pyRepr(rule)} was expected`;
    case 'minimum':
      return `${v} is less than the minimum of ${pyRepr(rule)}`;
    case 'maximum':
      return `${v} is greater than the maximum of ${pyRepr(rule)}`;
    case 'exclusiveMinimum':
      return `${v} is less than or equal to the minimum of ${pyRepr(rule)}`;
    case 'exclusiveMaximum':
      return `${v} is greater than or equal to the maximum of ${pyRepr(rule)}`;
    case 'multipleOf':
      return `${v} is not a multiple of ${pyStr(rule)}`;
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return `${v} ${rule === 1 ? 'should be non-empty' : error.keyword === 'minProperties' ? 'does not have enough properties' : 'is too short'}`;
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      return `${v} ${rule === 0 ? 'is expected to be empty' : error.keyword === 'maxProperties' ? 'has too many properties' : 'is too long'}`;
    case 'pattern':
      return `${v} does not match ${pyRepr(rule)}`;
    case 'uniqueItems':
      return `${v} has non-unique elements`;
    case 'anyOf':
      return `${v} is not valid under any of the given schemas`;
    case 'oneOf': {
      const passing = params.passingSchemas as number[] | null | undefined;
      if (!Array.isArray(passing) || !Array.isArray(rule)) return `${v} is not valid under any of the given schemas`;
      const [first, ...more] = passing;
      return `${v} is valid under each of ${[...more, first].map((i) => pyRepr(rule[i])).join(', ')}`;
    }
    case 'not':
      return `${v} should not be valid under ${pyRepr(rule)}`;
    case 'dependencies':
    case 'dependentRequired':
      return `${pyRepr(params.missingProperty)} is a dependency of ${pyRepr(params.property)}`;
    default:
      return `${v} ${error.message ?? 'is invalid'}`;
  }
}

function isDeclared(schema: Record<string, unknown>, key: string): boolean {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties && Object.hasOwn(properties, key)) return true;
  const patterns = schema.patternProperties as Record<string, unknown> | undefined;
  return Object.keys(patterns ?? {}).some((p) => new RegExp(p, 'u').test(key));
}

function formatAsIndex(container: string, indices: readonly Segment[]): string {
  return indices.length === 0 ? container : `${container}[${indices.map(pyRepr).join('][')}]`;
}

function describe(item: Located, base: { schema: number; instance: number }, schema: Json, instance: Json): string {
  const keywordPath = item.path.slice(base.schema);
  const subschema = at(schema, item.lookupPath.slice(0, -1));
  const value = at(instance, item.instancePath);
  const pretty = (thing: Json) => pyPformat(thing).split('\n').join('\n    ');
  return [
    messageOf(item, schema, instance),
    '',
    `Failed validating ${pyRepr(item.error.keyword)} in ${formatAsIndex('schema', keywordPath.slice(0, -1))}:`,
    `    ${pretty(subschema)}`,
    '',
    `On ${formatAsIndex('instance', item.instancePath.slice(base.instance))}:`,
    `    ${pretty(value)}`,
  ].join('\n');
}
