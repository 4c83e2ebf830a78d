import jsonpatch from 'fast-json-patch';
// The type by name: `jsonpatch.Operation` in the emitted .d.ts breaks users on moduleResolution "bundler",
// where the default import is the package's value object, not its namespace.
import type { Operation } from 'fast-json-patch';
import { Masker, isPlainObject } from './masks.ts';
import { pointerToPath } from './json-path.ts';
import { structuredValue } from './summary.ts';
import { fromPlaceholder, isPlaceholder, toPlaceholder, type MatcherFactory } from './placeholders.ts';

/** Equality used for property matchers (Vitest's `this.equals`, which understands asymmetric matchers). */
export type Equals = (a: unknown, b: unknown) => boolean;

export interface CompareOptions {
  masker?: Masker;
  /** `{ usage: { totalTokens: expect.any(Number) } }`: checked against the actual value, then left out of the comparison. */
  propertyMatchers?: Record<string, unknown>;
  equals?: Equals;
  /** Turns `"expect.any(Number)"`-style placeholders in the expected value into matchers (see placeholders.ts). */
  matchers?: MatcherFactory;
}

export interface CompareResult {
  pass: boolean;
  /** Readable JSON-patch diff from expected to actual (empty when equal). */
  diff: string;
  /** The raw patch operations, expected → actual. */
  operations: Operation[];
}

const MATCHED = '<matched by property matcher>';

/**
 * A JSON round trip: what would be stored in a golden (drops undefined and functions, Dates become strings).
 * @example toJsonValue({ a: undefined, d: new Date(0) }) // { d: '1970-01-01T00:00:00.000Z' }
 */
export function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null');
}

/**
 * Semantic comparison of an expected (golden) value and an actual value: masks applied to both,
 * property matchers checked, and a readable JSON-patch diff when they differ.
 * @example compareValues({ id: 'a', text: 'hi' }, { id: 'b', text: 'hi' }).pass // true: ids are masked
 */
export function compareValues(expected: unknown, actual: unknown, options: CompareOptions = {}): CompareResult {
  const masker = options.masker ?? new Masker();
  let left = masker.apply(toJsonValue(expected));
  let right = masker.apply(toJsonValue(actual));
  const lines: string[] = [];
  const checks = options.propertyMatchers ? leaves(options.propertyMatchers, []) : [];
  if (options.matchers) {
    for (const [path, text] of leaves(expected, [])) {
      const matcher = isPlaceholder(text) ? fromPlaceholder(text, options.matchers) : null;
      if (matcher !== null) checks.push([path, matcher]);
    }
  }
  if (checks.length > 0) {
    const equals = options.equals ?? ((a, b) => JSON.stringify(a) === JSON.stringify(b));
    for (const [path, matcher] of checks) {
      const got = get(actual, path);
      if (!equals(got, matcher)) {
        lines.push(`  ✗ ${pointerToPath(pointer(path))}: ${describe(got)} does not match ${describeMatcher(matcher)}`);
      }
      left = set(left, path, MATCHED);
      right = set(right, path, MATCHED);
    }
  }
  // A string (or any other scalar) is one value: fast-json-patch would walk a string's characters as keys.
  const whole = typeof left !== 'object' || left === null || typeof right !== 'object' || right === null;
  const operations: Operation[] = whole
    ? JSON.stringify(left) === JSON.stringify(right) ? [] : [{ op: 'replace', path: '', value: right }]
    : jsonpatch.compare(left as object, right as object);
  for (const op of operations) lines.push(renderOp(op, left));
  return { pass: lines.length === 0, diff: lines.join('\n'), operations };
}

/**
 * The value to store for a test that used property matchers: each matched location holds the matcher's
 * placeholder (`"expect.any(Number)"`) instead of this run's value, so the golden does not churn.
 * @example withPlaceholders({ n: 3 }, { n: expect.any(Number) }) // { n: 'expect.any(Number)' }
 */
export function withPlaceholders(value: unknown, propertyMatchers: Record<string, unknown> | undefined): unknown {
  if (!propertyMatchers) return value;
  let out = value;
  for (const [path, matcher] of leaves(propertyMatchers, [])) {
    const text = toPlaceholder(matcher);
    if (text !== null) out = set(out, path, text);
  }
  return out;
}

function renderOp(op: Operation, expected: unknown): string {
  const where = pointerToPath(op.path);
  switch (op.op) {
    case 'add':
      return `  + ${where}: ${describe(op.value)}`;
    case 'remove':
      return `  - ${where}: ${describe(safeGet(expected, op.path))}`;
    case 'replace': {
      const before = op.path === '' ? expected : safeGet(expected, op.path);
      const objects = typeof before === 'string' && typeof op.value === 'string' ? [structuredValue(before), structuredValue(op.value)] : [];
      if (objects.length === 2 && objects[0] !== undefined && objects[1] !== undefined) {
        // Two structured answers held as JSON text (a completion's `content`): the objects' changes, not two escaped strings.
        const inner = compareValues(objects[0], objects[1], { masker: new Masker({ defaults: false }) }).diff;
        return `  ~ ${where}: (JSON)\n${inner ? inner.replace(/^/gm, '  ') : '    (the same value, written differently)'}`;
      }
      if (typeof before === 'string' && typeof op.value === 'string' && (before.includes('\n') || op.value.includes('\n'))) {
        return `  ~ ${where}: (lines)\n${lineDiff(before, op.value)}`;
      }
      return `  ~ ${where}: ${describe(before)} → ${describe(op.value)}`;
    }
    default:
      return `  ${op.op} ${where}`;
  }
}

/** A line diff of two multi-line strings (longest common subsequence of lines), `-`/`+` for changed lines. */
function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  // Bounded work: very long texts are shown as whole old and new lines.
  if (a.length * b.length > 1_000_000) return [...a.map((l) => `    - ${l}`), ...b.map((l) => `    + ${l}`)].join('\n');
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`      ${a[i++]}`);
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1][j] >= common[i][j + 1])) out.push(`    - ${a[i++]}`);
    else out.push(`    + ${b[j++]}`);
  }
  return out.join('\n');
}

function safeGet(doc: unknown, ptr: string): unknown {
  try {
    return jsonpatch.getValueByPointer(doc, ptr);
  } catch {
    return undefined;
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return 'undefined';
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function describeMatcher(matcher: unknown): string {
  const m = matcher as { toString?: () => string; toAsymmetricMatcher?: () => string };
  if (m && typeof m.toAsymmetricMatcher === 'function') return m.toAsymmetricMatcher();
  if (m && typeof (matcher as { asymmetricMatch?: unknown }).asymmetricMatch === 'function') return String(m.toString?.());
  return describe(matcher);
}

function isAsymmetric(value: unknown): boolean {
  return !!value && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function';
}

function leaves(tree: unknown, path: Array<string | number>): Array<[Array<string | number>, unknown]> {
  if (isAsymmetric(tree) || !(isPlainObject(tree) || Array.isArray(tree))) return [[path, tree]];
  const out: Array<[Array<string | number>, unknown]> = [];
  const entries = Array.isArray(tree) ? tree.map((v, i) => [i, v] as const) : Object.entries(tree);
  for (const [k, v] of entries) out.push(...leaves(v, [...path, k]));
  return out;
}

function get(value: unknown, path: Array<string | number>): unknown {
  let cur: unknown = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

function set(value: unknown, path: Array<string | number>, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
  if (!(head in copy)) return value;
  copy[head] = set(copy[head], rest, leaf);
  return copy;
}

function pointer(path: Array<string | number>): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
