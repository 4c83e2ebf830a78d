/**
 * Bedrock's errors: a JSON `{ message }` body with the exception's name in `x-amzn-ErrorType`, which
 * is how the AWS SDK picks its own exception class (`ThrottlingException`, `ValidationException`, …).
 */
import { randomUUID } from 'node:crypto';
import type { RenderedResponse } from '../adapter.ts';
import type { CanonicalError, CanonicalStreamError } from '../../scenario/canonical.ts';
import { exceptionMessage } from './event-stream.ts';

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

/**
 * A stream that fails: an exception message naming a member of the operation's stream union
 * (ConverseStream's, or InvokeModelWithResponseStream's, which adds `modelTimeoutException`).
 * A step's type naming an exception (`ThrottlingException`) is used as is, else the status picks one
 * (a 500, `internalServerException`, when the step gives none); `ModelStreamErrorException`
 * carries the status as `originalStatusCode`.
 * @example
 *   bedrockStreamErrorFrame({ message: 'Too many tokens', status: 429 }, false) // a `throttlingException` message
 */
export function bedrockStreamErrorFrame(error: CanonicalStreamError, invoke: boolean): Uint8Array {
  const status = error.status ?? 500;
  let name = isExceptionName(error.type) ? error.type : exceptionFor(status);
  // Outside the stream's union the SDK would throw a bare Error: keep to its members.
  if (name === 'ModelTimeoutException' && !invoke) name = 'ModelStreamErrorException';
  if (!isExceptionName(error.type) && !STREAM_EXCEPTIONS.has(name)) name = status === 424 ? 'ModelStreamErrorException' : 'InternalServerException';
  const payload: Record<string, unknown> = { message: error.message };
  if (name === 'ModelStreamErrorException' && error.status !== undefined) payload.originalStatusCode = error.status;
  return exceptionMessage(name.charAt(0).toLowerCase() + name.slice(1), payload);
}

/** The exceptions a Bedrock runtime stream carries (InvokeModelWithResponseStream adds ModelTimeoutException). */
const STREAM_EXCEPTIONS = new Set(['InternalServerException', 'ModelStreamErrorException', 'ValidationException', 'ThrottlingException', 'ServiceUnavailableException', 'ModelTimeoutException']);
