/**
 * Bedrock's errors: a JSON `{ message }` body with the exception's name in `x-amzn-ErrorType`, which
 * is how the AWS SDK picks its own exception class (`ThrottlingException`, `ValidationException`, …).
 */
import { randomUUID } from 'node:crypto';
import type { RenderedResponse } from '../adapter.ts';
import type { CanonicalError } from '../../scenario/canonical.ts';

/** The exception Bedrock raises for each status, when the step names none. */
function exceptionFor(status: number): string {
  if (status === 400 || status === 413 || status === 422) return 'ValidationException';
  if (status === 401 || status === 403) return status === 401 ? 'UnrecognizedClientException' : 'AccessDeniedException';
  if (status === 404) return 'ResourceNotFoundException';
  if (status === 408) return 'ModelTimeoutException';
  if (status === 424) return 'ModelErrorException';
  if (status === 429) return 'ThrottlingException';
  if (status === 503) return 'ServiceUnavailableException';
  return 'InternalServerException';
}

/** Names that are AWS exceptions (`ThrottlingException`); other step types fall back to the status's. */
const isExceptionName = (type: string | undefined): type is string => type !== undefined && /^[A-Z][A-Za-z]*(Exception|Error)$/.test(type);

/**
 * Renders a canonical error as Bedrock does.
 * @example
 *   renderBedrockError({ status: 429, message: 'Too many requests', headers: {} }).headers['x-amzn-errortype'] // 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/'
 */
export function renderBedrockError(error: CanonicalError): RenderedResponse {
  const name = isExceptionName(error.type) ? error.type : exceptionFor(error.status);
  const json: Record<string, unknown> = { message: error.message };
  if (error.details !== undefined) json.details = error.details;
  return {
    status: error.status,
    headers: {
      'content-type': 'application/json',
      'x-amzn-requestid': randomUUID(),
      'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      ...error.headers,
    },
    json,
  };
}
