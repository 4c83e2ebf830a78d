import { isDeepStrictEqual } from 'node:util';
import { textMatches } from '../../scenario/match.ts';
import type { ArgumentsMatch, ValueMatch } from './schema.ts';

/**
 * Matching a tool call's arguments (and a client's answers) against a scenario's constraints.
 * The result is the list of constraints that failed, phrased for a person
 * (`arguments.city: expected "Paris", got "Lyon"`), so near misses explain themselves.
 */

const SHOWN = 60;

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

function describe(match: ValueMatch): string {
  if (match === null || typeof match !== 'object') return JSON.stringify(match);
  if ('equals' in match) return show(match.equals);
  if ('contains' in match) return `to contain ${JSON.stringify(match.contains)}`;
  if ('exists' in match) return match.exists ? 'to be present' : 'to be absent';
  return `to match /${match.regex}/${match.flags ?? ''}`;
}

/**
 * Does `value` satisfy the constraint? Text constraints apply to strings only.
 * @example
 *   valueMatches({ contains: 'bug' }, 'a bug report') // true
 */
export function valueMatches(match: ValueMatch, value: unknown, present = value !== undefined): boolean {
  if (match === null || typeof match !== 'object') return value === match;
  if ('exists' in match) return match.exists === present;
  if ('equals' in match) return isDeepStrictEqual(value, match.equals);
  if (typeof value !== 'string') return false;
  return textMatches(match, value);
}

/** One step of a JSON path: a key or an index. */
type Segment = string | number;

const SEGMENT = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\])/;

/**
 * Parses `$.a.b[0]['c d']` into its segments; null when it is not such a path.
 * @example
 *   parseJsonPath('$.filter.labels[0]') // ['filter', 'labels', 0]
 */
export function parseJsonPath(path: string): Segment[] | null {
  if (!path.startsWith('$')) return null;
  const out: Segment[] = [];
  let rest = path.slice(1);
  while (rest) {
    const m = SEGMENT.exec(rest);
    if (!m) return null;
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push((m[3] ?? m[4]).replace(/\\(.)/g, '$1'));
    rest = rest.slice(m[0].length);
  }
  return out;
}

/** The value at a parsed path, and whether it is there at all. */
export function valueAtPath(root: unknown, segments: Segment[]): { present: boolean; value: unknown } {
  let cur: unknown = root;
  for (const s of segments) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, s)) return { present: false, value: undefined };
    cur = (cur as Record<string | number, unknown>)[s];
  }
  return { present: true, value: cur };
}

/**
 * The JSON-path constraints `value` fails (used for arguments and for client answers).
 * @example
 *   pathFailures({ '$.action': 'accept' }, { action: 'decline' }, 'response') // ['response $.action: expected "accept", got "decline"']
 */
export function pathFailures(paths: Record<string, ValueMatch>, value: unknown, label: string): string[] {
  const failed: string[] = [];
  for (const [path, wanted] of Object.entries(paths)) {
    const segments = parseJsonPath(path);
    if (!segments) {
      failed.push(`${label} ${path}: not a JSON path ($.key, $.list[0], $['odd key'])`);
      continue;
    }
    const { present, value: got } = valueAtPath(value, segments);
    if (!valueMatches(wanted, got, present)) failed.push(`${label} ${path}: expected ${describe(wanted)}, got ${show(got)}`);
  }
  return failed;
}

/**
 * The constraints of `match` that the call's arguments fail; empty when it matches.
 * @example
 *   argumentFailures({ arguments: { city: 'Paris' } }, { city: 'Lyon' }) // ['arguments.city: expected "Paris", got "Lyon"']
 */
export function argumentFailures(match: ArgumentsMatch | undefined, args: Record<string, unknown>): string[] {
  if (!match) return [];
  const failed: string[] = [];
  for (const [name, wanted] of Object.entries(match.arguments ?? {})) {
    const present = Object.hasOwn(args, name);
    if (!valueMatches(wanted, args[name], present)) failed.push(`arguments.${name}: expected ${describe(wanted)}, got ${show(args[name])}`);
  }
  if (match.argumentsEqual && !isDeepStrictEqual(args, match.argumentsEqual)) {
    failed.push(`argumentsEqual: expected ${show(match.argumentsEqual)}, got ${show(args)}`);
  }
  if (match.jsonPath) failed.push(...pathFailures(match.jsonPath, args, 'jsonPath'));
  return failed;
}
