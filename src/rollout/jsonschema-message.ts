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
  schemaPath: string[];
  instancePath: Segment[];
  /** Errors of the anyOf/oneOf branches under this one (jsonschema's `context`). */
  context: Located[];
}

const WEAK = new Set(['anyOf', 'oneOf']);

/**
 * The `str()` of the ValidationError that `jsonschema.validate` raises for these errors,
 * or undefined when there are none.
 *
 * @example
 * jsonschemaErrorText(validate.errors, schema, { action: 'up' })
 * // "'up' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['action']:\n    {'type': 'integer'}\n\nOn instance['action']:\n    'up'"
 */
export function jsonschemaErrorText(errors: readonly ErrorObject[], schema: Json, instance: Json): string | undefined {
  const best = bestMatch(locate(errors, instance), schema);
  if (!best) return undefined;
  return describe(best.located, best.base, schema, instance);
}

function locate(errors: readonly ErrorObject[], instance: Json): Located[] {
  // jsonschema reports extra properties in one error; ajv reports one per property.
  const merged: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue; // jsonschema reports only the then/else errors
    if (error.keyword === 'additionalProperties' && merged.some((e) => e.keyword === 'additionalProperties' && e.schemaPath === error.schemaPath && e.instancePath === error.instancePath)) continue;
    merged.push(error);
  }
  const all = merged.map((error) => ({ error, schemaPath: pointer(error.schemaPath), instancePath: instanceSegments(error.instancePath, instance), context: [] as Located[] }));
  const top: Located[] = [];
  for (const item of all) {
    const parent = all.find((p) => p !== item && WEAK.has(p.error.keyword) && isBranchOf(item.schemaPath, p.schemaPath));
    if (parent) parent.context.push(item);
    else top.push(item);
  }
  return top;
}

function isBranchOf(path: string[], weakPath: string[]): boolean {
  return path.length > weakPath.length + 1 && weakPath.every((s, i) => path[i] === s) && /^\d+$/.test(path[weakPath.length]);
}

function pointer(schemaPath: string): string[] {
  return schemaPath.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));
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

/** jsonschema's `relevance` key: shallow errors first, weak keywords (anyOf, oneOf) last. */
function relevance(item: Located, base: number): [number, number] {
  return [-(item.instancePath.length - base), WEAK.has(item.error.keyword) ? 0 : 1];
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The order jsonschema meets errors in: schema keywords in the schema's own key order. */
function visitOrder(item: Located, schema: Json): number[] {
  const order: number[] = [];
  let node = schema;
  for (const segment of item.schemaPath) {
    if (Array.isArray(node)) {
      order.push(Number(segment));
      node = node[Number(segment)];
    } else if (typeof node === 'object' && node !== null) {
      order.push(Object.keys(node).indexOf(segment));
      node = (node as Record<string, unknown>)[segment];
    }
  }
  if (item.error.keyword === 'required' && Array.isArray(node)) order.push(node.indexOf((item.error.params as { missingProperty?: string }).missingProperty));
  return order;
}

function bestMatch(top: Located[], schema: Json): { located: Located; base: { schema: number; instance: number } } | undefined {
  const sorted = [...top].sort((a, b) => compareKeys(visitOrder(a, schema), visitOrder(b, schema)));
  let best: Located | undefined;
  for (const item of sorted) if (!best || compareKeys(relevance(item, 0), relevance(best, 0)) > 0) best = item;
  if (!best) return undefined;
  let base = { schema: 0, instance: 0 };
  // Descend into anyOf/oneOf branches while one branch error is strictly the least relevant (jsonschema's rule).
  while (best.context.length > 0) {
    const inner = { schema: best.schemaPath.length + 1, instance: best.instancePath.length };
    const ranked = [...best.context]
      .sort((a, b) => compareKeys(visitOrder(a, schema), visitOrder(b, schema)))
      .sort((a, b) => compareKeys(relevance(a, inner.instance), relevance(b, inner.instance)));
    if (ranked.length >= 2 && compareKeys(relevance(ranked[0], inner.instance), relevance(ranked[1], inner.instance)) === 0) break;
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
  const parent = at(schema, item.schemaPath.slice(0, -1)) as Record<string, unknown>;
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
  const keywordPath = item.schemaPath.slice(base.schema);
  const subschema = at(schema, item.schemaPath.slice(0, -1));
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
