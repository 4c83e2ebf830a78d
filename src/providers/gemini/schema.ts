/**
 * Gemini's structured outputs and forced function calls, in canonical terms.
 *
 * A request asks for JSON with `generationConfig.responseMimeType: 'application/json'`, and for a
 * shape with `responseJsonSchema` (JSON Schema, as sent) or `responseSchema` (Google's OpenAPI 3.0
 * subset: uppercase `type`, `nullable`, `propertyOrdering`, int64 bounds as strings), which is
 * converted to JSON Schema so the engine checks and generates answers against one dialect.
 * `toolConfig.functionCallingConfig.mode: 'ANY'` forces a function call (one allowed name, or one
 * declared function, names the tool) and guarantees the arguments fit the declaration.
 * See https://ai.google.dev/gemini-api/docs/structured-output and /docs/function-calling.
 */
import type { CanonicalResponseFormat, CanonicalTool } from '../../scenario/canonical.ts';
import { isObject, type Json } from '../common/wire-json.ts';

/** OpenAPI-subset keywords that hold a count (int64, which proto JSON may send as a string). */
const COUNTS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
/** Keywords with no JSON Schema meaning (display order, examples) or only Google's (`format: enum`). */
const DROPPED = new Set(['propertyOrdering', 'example', 'nullable']);

/**
 * Google's OpenAPI-subset Schema → JSON Schema: types lowercased, `nullable` as a `null` type,
 * counts as numbers, `propertyOrdering` and `example` left out. A JSON Schema goes through unchanged.
 * @example
 *   openApiToJsonSchema({ type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } }, propertyOrdering: ['n'] })
 *   // { type: 'object', properties: { n: { type: ['integer', 'null'] } } }
 */
export function openApiToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiToJsonSchema);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'type' && typeof value === 'string') {
      const type = value.toLowerCase();
      if (type !== 'type_unspecified') out.type = type;
    } else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, openApiToJsonSchema(sub)]));
    } else if (key === 'items' || key === 'anyOf') {
      out[key] = openApiToJsonSchema(value);
    } else if (COUNTS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
      out[key] = Number(value);
    } else if (key === 'format' && value === 'enum') {
      // Google's marker for a string enum; the `enum` list says it all.
    } else {
      out[key] = value;
    }
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}

/**
 * The structured output a generate request asks for, or undefined for free text. JSON mode with no
 * schema has `schema: null`; Gemini schemas have no name.
 * @example
 *   geminiResponseFormat({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } }) // { name: null, schema: { type: 'object' } }
 */
export function geminiResponseFormat(generationConfig: unknown): CanonicalResponseFormat | undefined {
  if (!isObject(generationConfig)) return undefined;
  const mime = generationConfig.responseMimeType ?? generationConfig.response_mime_type;
  if (mime !== 'application/json') return undefined;
  const jsonSchema = generationConfig.responseJsonSchema ?? generationConfig.response_json_schema ?? generationConfig._responseJsonSchema;
  if (jsonSchema !== undefined && jsonSchema !== null) return { name: null, schema: jsonSchema };
  const openApi = generationConfig.responseSchema ?? generationConfig.response_schema;
  if (openApi !== undefined && openApi !== null) return { name: null, schema: openApiToJsonSchema(openApi) };
  return { name: null, schema: null };
}

/** The function-calling mode and allowed names of `toolConfig.functionCallingConfig`. */
function callingConfig(toolConfig: unknown): { mode: string; allowed: string[] } | null {
  const config = isObject(toolConfig) ? (toolConfig.functionCallingConfig ?? toolConfig.function_calling_config) : undefined;
  if (!isObject(config) || typeof config.mode !== 'string') return null;
  const names = config.allowedFunctionNames ?? config.allowed_function_names;
  return { mode: config.mode.toUpperCase(), allowed: Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [] };
}

/**
 * What `toolConfig` says about the tools: the one tool it forces (mode `ANY` with one allowed name,
 * or one declared function), and whether the arguments are guaranteed to fit the declarations
 * (`ANY` and `VALIDATED` "ensure function schema adherence"): the tools are then `strict`.
 * @example
 *   geminiToolChoice({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } }, tools) // { forcedTool: 'get_weather', strict: true }
 */
export function geminiToolChoice(toolConfig: unknown, tools: readonly CanonicalTool[]): { forcedTool?: string; strict: boolean } {
  const config = callingConfig(toolConfig);
  if (config === null) return { strict: false };
  const strict = config.mode === 'ANY' || config.mode === 'VALIDATED';
  if (config.mode !== 'ANY') return { strict };
  const candidates = config.allowed.length > 0 ? config.allowed : tools.map((t) => t.name);
  return candidates.length === 1 ? { forcedTool: candidates[0], strict } : { strict };
}
