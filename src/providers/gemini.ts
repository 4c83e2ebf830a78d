/**
 * The Gemini adapter: `POST /{v1,v1beta}/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse` and `:countTokens`, plus Gemini's model listing.
 */
import type { DirectAnswer, IncomingRequest, ProviderAdapter, RenderedResponse } from './adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../scenario/canonical.ts';
import { estimateInputTokens } from '../scenario/tokens.ts';
import { geminiRoute, googleInvalid, parseGeminiRequest } from './gemini-parse.ts';
import { isObject, parseJsonObject } from './wire-json.ts';
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
 * `models/{model}:countTokens` → `{ totalTokens, promptTokensDetails }`, the engine's estimate for the
 * same contents. The body holds `contents`, or a whole `generateContentRequest` (system instruction
 * and tools included), as the API accepts either.
 */
function countTokens(req: IncomingRequest): DirectAnswer {
  const body = parseJsonObject(req.bodyText);
  const inner = body.generateContentRequest ?? body.generate_content_request;
  if (inner !== undefined && !isObject(inner)) throw googleInvalid('generate_content_request', 'a GenerateContentRequest object', inner);
  const request = parseGeminiRequest({ ...req, bodyText: inner === undefined ? req.bodyText : JSON.stringify(inner) });
  const totalTokens = estimateInputTokens(request);
  const json = { totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] };
  return { rendered: { status: 200, headers: {}, json }, request };
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
      return route !== null && (GENERATE_METHODS.has(route.method) || route.method === 'countTokens');
    },
    authenticate: (req: IncomingRequest) => googleAuthError(req),
    // endsWith, not the route regex again: generate requests pass here too.
    answerWithoutStep: (req: IncomingRequest): DirectAnswer | null => (req.path.endsWith(':countTokens') ? countTokens(req) : null),
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
