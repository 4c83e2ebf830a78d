/**
 * The success answer the chat adapters share: a JSON body, or SSE frames carrying the step's
 * pacing, as the request's `stream` says.
 */
import type { RenderedResponse } from './adapter.ts';
import type { CanonicalRequest, CanonicalResponse } from '../scenario/canonical.ts';

/**
 * A 200 with `json()` for a plain request or `sse()` for a streaming one; only the chosen shape is built.
 * @example
 *   return jsonOrSse(response, request, headers, () => renderGeminiResponse(response), () => renderGeminiStream(response));
 */
export function jsonOrSse(
  response: CanonicalResponse,
  request: CanonicalRequest,
  headers: Record<string, string>,
  json: () => unknown,
  sse: () => string[],
): RenderedResponse {
  if (!request.stream) return { status: 200, headers, json: json() };
  const { chunkDelayMs, disconnectAfterChunks } = response.stream;
  return { status: 200, headers, sse: sse(), stream: { chunkDelayMs, disconnectAfterChunks } };
}
