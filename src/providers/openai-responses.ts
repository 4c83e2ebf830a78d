/**
 * The OpenAI Responses adapter: `POST /v1/responses` (a `response` object, or SSE events).
 * Parsing lives in openai-responses-parse.ts, rendering in openai-responses-render.ts; the error
 * shape is OpenAI's, shared with Chat Completions.
 */
import type { IncomingRequest, ProviderAdapter, RenderedResponse } from './adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../scenario/canonical.ts';
import { openAIAuthError, renderOpenAIError } from './openai-chat-error.ts';
import { parseResponsesRequest } from './openai-responses-parse.ts';
import { renderResponsesObject, renderResponsesStream } from './openai-responses-render.ts';
import { jsonOrSse } from './rendered.ts';

/**
 * Creates the Responses adapter.
 * @example
 *   openAIResponsesAdapter().routes('POST', '/v1/responses'); // true
 */
export function openAIResponsesAdapter(): ProviderAdapter {
  return {
    id: 'openai-responses',
    routes: (method: string, path: string) => method === 'POST' && (path === '/v1/responses' || path === '/responses'),
    authenticate: (req: IncomingRequest) => openAIAuthError(req.headers),
    parse: (req: IncomingRequest) => parseResponsesRequest(req),
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse =>
      jsonOrSse(response, request, { ...response.headers }, () => renderResponsesObject(response, request), () => renderResponsesStream(response, request)),
    renderError: (error: CanonicalError): RenderedResponse => renderOpenAIError(error),
  };
}
