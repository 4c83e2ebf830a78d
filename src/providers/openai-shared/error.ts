/**
 * OpenAI's error shape, `{ error: { message, type, param, code } }`, shared by every OpenAI
 * wire API (Chat Completions, Responses, embeddings, models).
 */
import type { RenderedResponse } from '../adapter.ts';
import type { CanonicalError, CanonicalStreamError } from '../../scenario/canonical.ts';

/** The `type` the API sends for a status when the step names none. */
export function openAIErrorType(status: number, code?: string | null): string {
  if (status === 429) return code === 'insufficient_quota' ? 'insufficient_quota' : 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The `code` the API sends for a status when the step names none. */
function defaultCode(status: number): string | null {
  if (status === 429) return 'rate_limit_exceeded';
  return null;
}

/**
 * The error body as the API sends it. `details` (near misses of a no-match) go under `error.details`:
 * the schema allows extra members and the SDK exposes the whole object as `err.error`.
 * @example
 *   openAIErrorBody({ status: 429, message: 'slow down', headers: {} })
 *   // { error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } }
 */
export function openAIErrorBody(error: CanonicalError): { error: Record<string, unknown> } {
  const code = error.code === undefined ? defaultCode(error.status) : error.code;
  const body: Record<string, unknown> = {
    message: error.message,
    type: error.type ?? openAIErrorType(error.status, code),
    param: error.param ?? null,
    code,
  };
  if (error.details !== undefined) body.details = error.details;
  return { error: body };
}

/**
 * The error object of a mid-stream failure, as in an error response's body: the status (a 500 when
 * the step gives none) picks the `type` and `code` the step leaves out.
 * @example
 *   openAIStreamErrorObject({ message: 'overloaded', status: 429 })
 *   // { message: 'overloaded', type: 'requests', param: null, code: 'rate_limit_exceeded' }
 */
export function openAIStreamErrorObject(error: CanonicalStreamError): Record<string, unknown> {
  return openAIErrorBody({ status: error.status ?? 500, message: error.message, type: error.type, headers: {} }).error;
}

/**
 * A rendered OpenAI error response with the step's headers (e.g. `retry-after`).
 * @example
 *   renderOpenAIError({ status: 401, message: 'no key', headers: {} }).status // 401
 */
export function renderOpenAIError(error: CanonicalError): RenderedResponse {
  return { status: error.status, headers: { ...error.headers }, json: openAIErrorBody(error) };
}

/** The API's answer to a request without a usable `Authorization: Bearer` header. */
export const OPENAI_MISSING_KEY_MESSAGE =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.";

const BEARER = /^\s*Bearer\s+\S/i;

/**
 * The presence check every OpenAI endpoint shares: a non-empty Bearer token.
 * @example
 *   openAIAuthError(req.headers) // null when `Authorization: Bearer sk-...` is present
 */
export function openAIAuthError(headers: Headers): CanonicalError | null {
  if (BEARER.test(headers.get('authorization') ?? '')) return null;
  return { status: 401, message: OPENAI_MISSING_KEY_MESSAGE, type: 'invalid_request_error', param: null, code: null, headers: {} };
}
