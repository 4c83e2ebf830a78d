import type { z } from 'zod';
import type { JsonPath } from './json-locate.ts';

/**
 * Turns zod issues into plain sentences that name the JSON path and what was expected
 * (`steps[2].respond.toolCalls[0].name: expected a non-empty string, got ""`).
 */

export interface PathIssue {
  path: Array<string | number>;
  message: string;
}

type AnySchema = z.ZodType;
type Def = { type: string; [k: string]: any };

const def = (s: AnySchema): Def => (s as any)._zod.def as Def;

/** `steps[2].respond.toolCalls[0].name`; keys that are not identifiers are bracketed. */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out || '(top level)';
}

/** A short rendering of a value for "got ..." (strings quoted and cut, objects by kind). */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length ? `an object with ${keys.map((k) => JSON.stringify(k)).join(', ')}` : 'an empty object';
  }
  return String(value);
}

function unwrap(s: AnySchema): AnySchema {
  let cur = s;
  for (;;) {
    const d = def(cur);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'nullable' || d.type === 'prefault') cur = d.innerType;
    else if (d.type === 'pipe') cur = d.in;
    else return cur;
  }
}

/** What a schema accepts, in a few words (`a string`, `{ regex, flags? }`). */
function describeSchema(s: AnySchema): string {
  const d = def(unwrap(s));
  switch (d.type) {
    case 'string':
      return 'a string';
    case 'number':
    case 'int':
      return (unwrap(s) as any).format?.includes('int') || d.type === 'int' ? 'an integer' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'literal':
      return (d.values as unknown[]).map((v) => JSON.stringify(v)).join(' or ');
    case 'enum':
      return `one of ${Object.values(d.entries as Record<string, string>).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'array':
      return `an array of ${plural(describeSchema(d.element))}`;
    case 'record':
      return 'an object';
    case 'object': {
      const shape = d.shape as Record<string, AnySchema>;
      const keys = Object.entries(shape).map(([k, v]) => (v.safeParse(undefined).success ? `${k}?` : k));
      return `{ ${keys.join(', ')} }`;
    }
    case 'union':
      return orList((d.options as AnySchema[]).map(describeSchema));
    default:
      return d.type;
  }
}

function plural(what: string): string {
  return what.startsWith('a ') ? `${what.slice(2)}s` : what;
}

function orList(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The schema that validates the value at `path` below `root`, when it is plain to find. */
function schemaAt(root: AnySchema, path: JsonPath): AnySchema | undefined {
  let cur: AnySchema | undefined = root;
  for (const p of path) {
    if (!cur) return undefined;
    const d = def(unwrap(cur));
    if (d.type === 'object') cur = (d.shape as Record<string, AnySchema>)[String(p)];
    else if (d.type === 'array') cur = d.element;
    else if (d.type === 'record') cur = d.valueType;
    else return undefined;
  }
  return cur;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let cur: any = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[p];
  }
  return cur;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      prev = next;
    }
  }
  return row[b.length];
}

function suggest(word: string, options: string[]): string {
  let best: string | undefined;
  let bestD = Infinity;
  for (const o of options) {
    const d = editDistance(word, o);
    if (d < bestD) [best, bestD] = [o, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 3)) ? ` (did you mean "${best}"?)` : '';
}

function bound(origin: string, op: string, n: unknown): string {
  if (origin === 'string') return n === 1 && op === '>=' ? 'a non-empty string' : `a string with ${op} ${n} characters`;
  if (origin === 'array') return `an array with ${op} ${n} items`;
  // Whole numbers read better as ">= 1" than "> 0".
  if (origin === 'int' && op === '>' && typeof n === 'number') return `an integer >= ${n + 1}`;
  if (origin === 'int') return `an integer ${op} ${n}`;
  return `a number ${op} ${n}`;
}

/**
 * Explains every zod issue of `value` against `schema`, with full paths (prefixed by `prefix`).
 * @example
 *   const r = ScenarioSchema.safeParse(json);
 *   if (!r.success) explainIssues(ScenarioSchema, json, r.error.issues);
 */
export function explainIssues(
  schema: AnySchema,
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
  prefix: Array<string | number> = [],
): PathIssue[] {
  const out: PathIssue[] = [];
  for (const issue of issues) {
    const rel = issue.path as Array<string | number>;
    const path = [...prefix, ...rel];
    const got = valueAt(value, rel);
    switch (issue.code) {
      case 'invalid_type': {
        const expected = issue.expected === 'int' ? 'an integer' : expectedOf(schema, rel, issue.expected);
        out.push({ path, message: got === undefined ? `missing; expected ${expected}` : `expected ${expected}, got ${describeValue(got)}` });
        break;
      }
      case 'too_small':
        out.push({ path, message: `expected ${bound(originOf(schema, rel, issue.origin), issue.inclusive ? '>=' : '>', issue.minimum)}, got ${describeValue(got)}` });
        break;
      case 'too_big':
        out.push({ path, message: `expected ${bound(originOf(schema, rel, issue.origin), issue.inclusive ? '<=' : '<', issue.maximum)}, got ${describeValue(got)}` });
        break;
      case 'invalid_value': {
        const options = issue.values.map((v) => JSON.stringify(v));
        const hint = typeof got === 'string' ? suggest(got, issue.values.map(String)) : '';
        out.push({ path, message: `expected ${options.length === 1 ? options[0] : `one of ${options.join(', ')}`}, got ${describeValue(got)}${hint}` });
        break;
      }
      case 'unrecognized_keys': {
        const objSchema = schemaAt(schema, rel);
        const allowed = objSchema && def(unwrap(objSchema)).type === 'object' ? Object.keys(def(unwrap(objSchema)).shape) : [];
        for (const key of issue.keys) {
          const list = allowed.length ? `; allowed here: ${allowed.join(', ')}` : '';
          out.push({ path: [...path, key], message: `unknown key${suggest(key, allowed)}${list}` });
        }
        break;
      }
      case 'invalid_union':
        out.push(...explainUnion(schema, value, rel, issue.errors, prefix));
        break;
      default:
        out.push({ path, message: issue.message });
    }
  }
  return out;
}

/** zod reports integer bounds with origin "number"; the schema knows better. */
function originOf(schema: AnySchema, rel: JsonPath, origin: string): string {
  const s = schemaAt(schema, rel);
  return origin === 'number' && s && (unwrap(s) as any).format?.includes('int') ? 'int' : origin;
}

function expectedOf(schema: AnySchema, rel: JsonPath, fallback: string): string {
  const s = schemaAt(schema, rel);
  if (!s) return { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'an array' }[fallback] ?? fallback;
  const d = def(unwrap(s));
  if (d.type === 'object') return `an object ${describeSchema(s)}`;
  return describeSchema(s);
}

/**
 * A union failed. When the value is an object and one branch is an object sharing a key with it,
 * that branch was clearly meant: explain its issues. Otherwise say what the union accepts.
 */
function explainUnion(
  schema: AnySchema,
  value: unknown,
  rel: Array<string | number>,
  branchIssues: readonly (readonly z.core.$ZodIssue[])[],
  prefix: Array<string | number>,
): PathIssue[] {
  const unionSchema = schemaAt(schema, rel);
  const got = valueAt(value, rel);
  const options = unionSchema && def(unwrap(unionSchema)).type === 'union' ? (def(unwrap(unionSchema)).options as AnySchema[]) : [];
  if (got !== null && typeof got === 'object') {
    const keys = Object.keys(got);
    const meant = options.findIndex((o) => {
      const d = def(unwrap(o));
      return (d.type === 'object' && keys.some((k) => k in d.shape)) || (d.type === 'array' && Array.isArray(got));
    });
    if (meant >= 0 && branchIssues[meant]) return explainIssues(options[meant], got, branchIssues[meant], [...prefix, ...rel]);
  }
  const expected = unionSchema ? describeSchema(unionSchema) : 'a different value';
  let hint = '';
  if (got !== null && typeof got === 'object' && !Array.isArray(got)) {
    const known = options.flatMap((o) => (def(unwrap(o)).type === 'object' ? Object.keys(def(unwrap(o)).shape) : []));
    hint = Object.keys(got).map((k) => suggest(k, known)).find(Boolean) ?? '';
  }
  return [{ path: [...prefix, ...rel], message: `expected ${expected}, got ${describeValue(got)}${hint}` }];
}

function collectRegexIssues(value: unknown, path: Array<string | number>, out: PathIssue[]): void {
  if (Array.isArray(value)) return value.forEach((v, i) => collectRegexIssues(v, [...path, i], out));
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if (typeof obj.regex === 'string') {
    try {
      new RegExp(obj.regex, typeof obj.flags === 'string' ? obj.flags : undefined);
    } catch (err) {
      out.push({ path: [...path, 'regex'], message: `expected a valid regular expression: ${(err as Error).message}` });
    }
  }
  for (const [k, v] of Object.entries(obj)) if (k !== 'regex') collectRegexIssues(v, [...path, k], out);
}

/**
 * Regexes in the steps' `match` that do not compile (zod only knows they are strings). Only
 * `match` is searched: a `regex` key inside tool-call arguments is data, not a pattern.
 * @example
 *   regexIssues({ name: 'x', steps: [{ match: { model: { regex: '(' } }, respond: {} }] });
 *   // [{ path: ['steps', 0, 'match', 'model', 'regex'], message: 'expected a valid regular expression: ...' }]
 */
export function regexIssues(scenario: unknown, prefix: Array<string | number> = []): PathIssue[] {
  const out: PathIssue[] = [];
  const steps = (scenario as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return out;
  steps.forEach((step, i) => {
    const match = (step as { match?: unknown } | null)?.match;
    if (match !== undefined) collectRegexIssues(match, [...prefix, 'steps', i, 'match'], out);
  });
  return out;
}
