import type { RecordedRequest } from './schema.ts';
import { dropVolatile, type VolatileField } from '../providers/common/volatile-fields.ts';

/**
 * What identifies a request when replaying: method, the API it called and body, minus the ignored paths.
 * `url` is the provider API path (`/v1/chat/completions?x=1`) when an adapter recognises the request, so a
 * golden recorded through one base URL replays through any other; the full URL otherwise.
 */
export interface NormalizedRequest {
  method: string;
  url: string;
  body: unknown;
}

/** The API path of a request (without the origin or base prefix), null when no provider API serves it. */
export type ApiPathOf = (method: string, url: string, headers: Record<string, string>) => string | null;

/** The request fields of a request's API that change with every recording (its reader's `volatileRequest`). */
export type VolatileOf = (method: string, url: string, headers: Record<string, string>) => readonly VolatileField[];

/**
 * Normalizes a recorded (or incoming, already redacted) request for matching.
 * `ignorePaths` are JSON paths into the body (`$.user`, `$.metadata.*`, `$.messages[*].id`); `volatileOf`
 * names the fields the request's API mints anew in every answer (reasoning signatures, encrypted
 * content passed back), left out too so a re-recorded golden still matches.
 * @example normalizeRequest(rec, ['$.user'], (m, u) => new RecordedWires().apiPath(m, u))
 */
export function normalizeRequest(request: RecordedRequest, ignorePaths: readonly string[] = [], apiPathOf?: ApiPathOf, volatileOf?: VolatileOf): NormalizedRequest {
  const method = request.method.toUpperCase();
  const api = apiPathOf?.(method, request.url, request.headers) ?? null;
  const url = new URL(api ?? request.url, 'http://api.invalid');
  url.searchParams.sort();
  const body = dropPaths(dropVolatile(request.body, volatileOf?.(method, request.url, request.headers)), ignorePaths.map(compilePath));
  return { method, url: api === null ? url.toString() : `${url.pathname}${url.search}`, body };
}

type Segment = string | number | '*';

function compilePath(path: string): Segment[] {
  if (!path.startsWith('$')) throw new Error(`ignorePaths: "${path}" must be a JSON path starting with "$" (e.g. "$.user")`);
  const segments: Segment[] = [];
  const re = /\.([^.[\]]+)|\[(\d+|\*|"[^"]*")\]/g;
  let m: RegExpExecArray | null;
  let consumed = 1;
  while ((m = re.exec(path)) !== null) {
    if (m.index !== consumed) break;
    consumed = m.index + m[0].length;
    if (m[1] !== undefined) segments.push(m[1] === '*' ? '*' : m[1]);
    else if (m[2] === '*') segments.push('*');
    else if (m[2].startsWith('"')) segments.push(JSON.parse(m[2]) as string);
    else segments.push(Number(m[2]));
  }
  if (consumed !== path.length) throw new Error(`ignorePaths: cannot parse "${path}" after position ${consumed}`);
  return segments;
}

function dropPaths(value: unknown, paths: Segment[][]): unknown {
  let out = value;
  for (const path of paths) out = drop(out, path);
  return out;
}

function drop(value: unknown, path: Segment[]): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (head === '*') return rest.length === 0 ? [] : value.map((v) => drop(v, rest));
    if (typeof head !== 'number' || head >= value.length) return value;
    if (rest.length === 0) return value.filter((_, i) => i !== head);
    return value.map((v, i) => (i === head ? drop(v, rest) : v));
  }
  const obj = value as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(obj) : [String(head)];
  const copy: Record<string, unknown> = { ...obj };
  for (const key of keys) {
    if (!(key in copy)) continue;
    if (rest.length === 0) delete copy[key];
    else copy[key] = drop(copy[key], rest);
  }
  return copy;
}

/** Key-order-independent equality of two JSON values. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => k in bo && sameJson(ao[k], bo[k]));
}
