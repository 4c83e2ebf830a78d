/**
 * Small guards the Anthropic, Gemini, Responses and embeddings parsers share: reading a JSON body
 * and checking field types, so each 400 names the field path and what was expected.
 */
import { BadRequestError } from '../adapter.ts';
import type { ToolListMemo } from './tool-list-memo.ts';

export type Json = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How a value reads in an error message.
 * @example
 *   typeName([]) // 'an array'
 */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/**
 * Parses a request body that must be a JSON object; a BadRequestError otherwise. With a memo, a tool
 * list it has seen before is its shared, frozen value (tool-list-memo.ts).
 * @example
 *   const body = parseJsonObject(req.bodyText); // throws on '[1]' or 'not json'
 */
export function parseJsonObject(text: string, memo?: ToolListMemo): Json {
  let body: unknown;
  try {
    body = memo ? memo.parse(text) : JSON.parse(text);
  } catch (err) {
    throw new BadRequestError(`The request body is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(body)) throw new BadRequestError(`The request body must be a JSON object, got ${typeName(body)}.`);
  return body;
}

/**
 * Parses a JSON string of tool arguments; a string that is not JSON is kept as the string.
 * @example
 *   parseArguments('{"a":1}') // { a: 1 }
 */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Text for a value that should be shown as text: strings as they are, anything else as JSON.
 * @example
 *   asText({ temp: 21 }) // '{"temp":21}'
 */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** Headers that can give that record themselves (the real port's, over node's parsed headers). */
type RecordingHeaders = Headers & { toRecord?(): Record<string, string> | undefined };

/** Request headers as a plain record with lower-cased names. */
export function headerRecord(headers: Headers): Record<string, string> {
  const own = (headers as RecordingHeaders).toRecord?.();
  if (own !== undefined) return own;
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

/**
 * `params`: every body field except the ones the canonical request carries in its own fields.
 * A plain for-in loop: this runs on every request, and a rest pattern's generic copy is slow.
 * @example
 *   restParams({ model: 'gpt-4o', temperature: 0 }, ['model']) // { temperature: 0 }
 */
export function restParams(body: Json, taken: readonly string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const key in body) {
    if (taken.includes(key)) continue;
    // A "__proto__" key in the JSON is data, not the prototype.
    if (key === '__proto__') Object.defineProperty(params, key, { value: body[key], enumerable: true, writable: true, configurable: true });
    else params[key] = body[key];
  }
  return params;
}
