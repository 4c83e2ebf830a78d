import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// How the pool tells a request that never reached the server (safe to re-send on a new session)
// from one whose fate is unknown (reported, never re-sent).

/**
 * Failures that prove the request was never handled (unknown session, nothing listening): a retry on a
 * new session cannot run the call twice.
 *
 * @example
 * isRetryableDrop(new StreamableHTTPError(404, 'Session not found')) // true
 */
export function isRetryableDrop(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  // The SSE transport reports an unknown session as a plain Error.
  if (/Error POSTing to endpoint \(HTTP 404\)/.test((error as Error)?.message ?? '')) return true;
  const text = `${(error as Error)?.message ?? ''} ${String((error as { cause?: { code?: string } })?.cause?.code ?? '')}`;
  return /ECONNREFUSED|Not connected/i.test(text);
}

/**
 * Failures that leave the session in doubt: drop it so the next use reconnects.
 *
 * @example
 * isConnectionFailure(new TypeError('fetch failed')) // true
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return true;
  const text = `${(error as Error)?.message ?? ''} ${String((error as { cause?: { code?: string } })?.cause?.code ?? '')}`;
  return /fetch failed|ECONNRESET|EPIPE|socket|terminated|SSE error/i.test(text);
}
