/**
 * The Gemini adapter: `POST /{v1,v1beta}/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`, plus Gemini's model listing.
 */
import type { IncomingRequest, ProviderAdapter, RenderedResponse } from './adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../scenario/canonical.ts';
import { geminiRoute, parseGeminiRequest } from './gemini-parse.ts';
import { renderGeminiResponse, renderGeminiStream, renderGoogleError } from './gemini-render.ts';
import { modelsRequest, renderGeminiModels } from './models-list.ts';
import { jsonOrSse } from './rendered.ts';

const GENERATE_METHODS = new Set(['generateContent', 'streamGenerateContent']);

/**
 * The presence check Google's API does: an `x-goog-api-key` header or a `?key=` query parameter
 * (or OAuth `Authorization: Bearer`, as Vertex-style clients send).
 * @example
 *   googleAuthError(req) // null when `x-goog-api-key` is present
 */
export function googleAuthError(req: IncomingRequest): CanonicalError | null {
  const key = req.headers.get('x-goog-api-key')?.trim() || req.url.searchParams.get('key')?.trim();
  if (key || /^Bearer\s+\S+/i.test(req.headers.get('authorization') ?? '')) return null;
  return {
    status: 403,
    message:
      'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.',
    headers: {},
  };
}

/**
 * Creates the adapter serving the Gemini Developer API as `@google/genai` calls it
 * (v1 by default, v1beta for older clients).
 * @example
 *   geminiAdapter().routes('POST', '/v1/models/gemini-2.5-flash:generateContent'); // true
 */
export function geminiAdapter(): ProviderAdapter {
  return {
    id: 'gemini',
    routes(method: string, path: string): boolean {
      if (method !== 'POST') return false;
      const route = geminiRoute(path);
      return route !== null && GENERATE_METHODS.has(route.method);
    },
    authenticate: (req: IncomingRequest) => googleAuthError(req),
    parse: (req: IncomingRequest) => parseGeminiRequest(req),
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse =>
      jsonOrSse(response, request, { ...response.headers }, () => renderGeminiResponse(response), () => renderGeminiStream(response)),
    renderError: (error: CanonicalError): RenderedResponse => renderGoogleError(error),
    /** `GET /{v1,v1beta}/models[/{model}]` from a Gemini client; null for anyone else's listing. */
    listModels(req: IncomingRequest, models: readonly string[]): RenderedResponse | null {
      const listing = modelsRequest(req);
      if (listing?.provider !== 'gemini') return null;
      const denied = googleAuthError(req);
      if (denied) return renderGoogleError(denied);
      return renderGeminiModels(listing.id, models, req.path.split('/')[1]);
    },
  };
}
