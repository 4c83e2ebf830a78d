/**
 * Structured outputs in OpenAI's terms, shared by Chat Completions and Responses: the response
 * format a request asks for (Chat `response_format`, Responses `text.format`), the one tool its
 * `tool_choice` forces, and whether a function tool is `strict`. Both APIs take JSON Schema, so the
 * schema passes to the canonical request as sent.
 */
import type { CanonicalResponseFormat } from '../../scenario/canonical.ts';
import { isObject } from '../common/wire-json.ts';
import { invalidType, missing } from './invalid.ts';

/**
 * A format object (`{ type: 'json_schema', … }`) → the canonical format; undefined for free text.
 * `schemaOf` reads where the API keeps the name and schema: Chat nests them under `json_schema`,
 * Responses puts them beside `type`.
 */
function formatOf(format: unknown, param: string, nested: boolean): CanonicalResponseFormat | undefined {
  if (format === undefined || format === null) return undefined;
  if (!isObject(format)) throw invalidType(param, 'an object', format);
  if (format.type === undefined) throw missing(`${param}.type`);
  if (format.type === 'json_object') return { name: null, schema: null };
  if (format.type !== 'json_schema') return undefined;
  const holder = nested ? format.json_schema : format;
  const where = nested ? `${param}.json_schema` : param;
  if (holder === undefined) throw missing(where);
  if (!isObject(holder)) throw invalidType(where, 'an object', holder);
  if (typeof holder.name !== 'string') throw missing(`${where}.name`);
  return { name: holder.name, schema: holder.schema ?? null };
}

/**
 * Chat Completions' `response_format`: `json_schema` (name and schema under `json_schema`) or `json_object`.
 * @example
 *   chatResponseFormat({ type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } }) // { name: 'w', schema: { type: 'object' } }
 */
export function chatResponseFormat(value: unknown): CanonicalResponseFormat | undefined {
  return formatOf(value, 'response_format', true);
}

/**
 * The Responses API's `text.format`: `json_schema` (name and schema beside `type`) or `json_object`.
 * @example
 *   responsesTextFormat({ format: { type: 'json_object' } }) // { name: null, schema: null }
 */
export function responsesTextFormat(text: unknown): CanonicalResponseFormat | undefined {
  if (!isObject(text)) return undefined;
  return formatOf(text.format, 'text.format', false);
}

/**
 * The tool a `tool_choice` forces by name: Chat's `{ type: 'function', function: { name } }` (and
 * legacy `function_call: { name }`), Responses' `{ type: 'function', name }`.
 * @example
 *   forcedToolOf({ type: 'function', function: { name: 'extract' } }) // 'extract'
 */
export function forcedToolOf(choice: unknown): string | undefined {
  if (!isObject(choice)) return undefined;
  if (choice.type === 'function' && isObject(choice.function) && typeof choice.function.name === 'string') return choice.function.name;
  if (choice.type === 'function' && typeof choice.name === 'string') return choice.name;
  // Legacy `function_call: { name }` names the function with no type.
  if (choice.type === undefined && typeof choice.name === 'string') return choice.name;
  return undefined;
}
