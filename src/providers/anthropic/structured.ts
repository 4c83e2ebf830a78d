/**
 * Structured outputs on the Messages API: `output_config.format` (`{ type: 'json_schema', schema }`,
 * what `messages.parse()` and `zodOutputFormat()` send), the beta's older top-level
 * `output_format` (the SDK still maps it), and `tool_choice: { type: 'tool', name }`, the forced
 * tool through which older code asks for an object.
 */
import { BadRequestError } from '../adapter.ts';
import type { CanonicalRequest } from '../../scenario/canonical.ts';
import { isObject, typeName, type Json } from '../common/wire-json.ts';

function format(value: unknown, path: string): CanonicalRequest['responseFormat'] {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new BadRequestError(`${path}: Input should be an object, got ${typeName(value)}`, path);
  if (value.type !== 'json_schema') throw new BadRequestError(`${path}.type: Input should be 'json_schema'`, `${path}.type`);
  if (!isObject(value.schema)) throw new BadRequestError(`${path}.schema: Field required`, `${path}.schema`);
  return { name: null, schema: value.schema };
}

/**
 * The structured-output fields of a Messages body, canonical.
 * @example
 *   structuredOf({ output_config: { format: { type: 'json_schema', schema } } }) // { responseFormat: { name: null, schema } }
 */
export function structuredOf(body: Json): Pick<CanonicalRequest, 'responseFormat' | 'forcedTool'> {
  const out: Pick<CanonicalRequest, 'responseFormat' | 'forcedTool'> = {};
  const config = body.output_config;
  const responseFormat = format(isObject(config) ? config.format : undefined, 'output_config.format') ?? format(body.output_format, 'output_format');
  if (responseFormat) out.responseFormat = responseFormat;
  const choice = body.tool_choice;
  if (isObject(choice) && choice.type === 'tool' && typeof choice.name === 'string') out.forcedTool = choice.name;
  return out;
}
