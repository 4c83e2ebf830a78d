/**
 * The success answer the chat adapters share: a JSON body, or stream frames carrying the step's
 * pacing, as the request's `stream` says.
 */
import type { Framing, RenderedResponse } from '../adapter.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/**
 * A 200 with `json()` for a plain request or `frames()` for a streaming one; only the chosen shape is built.
 * @example
 *   return jsonOrStream(response, request, headers, () => renderGeminiResponse(response), () => renderGeminiStream(response));
 */
export function jsonOrStream(
  response: CanonicalResponse,
  request: CanonicalRequest,
  headers: Record<string, string>,
  json: () => unknown,
  frames: () => Array<string | Uint8Array>,
  framing: Framing = 'sse',
): RenderedResponse {
  if (!request.stream) return { status: 200, headers, json: json() };
  const { chunkDelayMs, disconnectAfterChunks } = response.stream;
  return { status: 200, headers, stream: { framing, frames: frames(), timing: { chunkDelayMs, disconnectAfterChunks } } };
}
