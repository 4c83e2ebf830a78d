/**
 * The 400 messages OpenAI's API words for a mis-typed or missing parameter, shared by the Chat
 * Completions and Responses parsers so both read exactly as the real API does.
 */
import { BadRequestError } from '../adapter.ts';
import { typeName } from '../common/wire-json.ts';

/**
 * `Invalid type for 'messages[0].content': expected a string, but got a number instead.`
 * @example
 *   throw invalidType('model', 'a string', 42);
 */
export function invalidType(param: string, expected: string, got: unknown): BadRequestError {
  return new BadRequestError(`Invalid type for '${param}': expected ${expected}, but got ${typeName(got)} instead.`, param);
}

/**
 * `Missing required parameter: 'messages'.`, with the code the live API sends (`missing_required_parameter`).
 * @example
 *   throw missing('messages');
 */
export function missing(param: string): BadRequestError {
  return new BadRequestError(`Missing required parameter: '${param}'.`, param, { code: 'missing_required_parameter' });
}
