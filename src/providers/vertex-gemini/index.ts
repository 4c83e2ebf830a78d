/**
 * Gemini on Vertex AI, as `@google/genai` calls it with `vertexai: true`:
 * `POST /{v1,v1beta1}/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent`,
 * `:streamGenerateContent?alt=sse` and `:countTokens`, or without `projects/…/locations/…` in
 * express mode (an API key). The body and answers are Gemini's, so the Gemini adapter parses and
 * renders; this one maps the path, checks Vertex's credentials and names the provider `vertex-gemini`.
 * Model listings (`models.list()`, `models.get()`) are answered in Vertex's publisher-model shape.
 */
import type { DirectAnswer, IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import { requestWith } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { geminiAdapter, renderGemini } from '../gemini/index.ts';
import { parseGeminiRequest } from '../gemini/parse.ts';
import type { GeminiThoughts } from '../gemini/thoughts.ts';
import { geminiStreamErrorFrame, renderGoogleError } from '../gemini/render.ts';
import { geminiReader } from '../gemini/reader.ts';
import { isVertexModelsRoute, renderVertexModels } from './models.ts';
import { VERTEX_CREDENTIALS, VERTEX_HOSTS, vertexAuthError, vertexRoute } from '../vertex-shared/index.ts';
import { GEMINI_RESPONSE_IDS, GEMINI_TOOL_CALL_IDS } from '../gemini/index.ts';

const METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens']);

/** The request as the Gemini adapter serves it: `/v1beta/models/{m}:{method}`. */
function asGemini(req: IncomingRequest): IncomingRequest {
  const route = vertexRoute(req.path)!;
  return requestWith(req, { path: `/v1beta/models/${route.model}:${route.method}` });
}

/**
 * Creates the Gemini-on-Vertex adapter.
 * @example
 *   vertexGeminiAdapter().routes({ method: 'POST', path: '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent', url, headers }); // true
 */
export function vertexGeminiAdapter(): ProviderAdapter<GeminiThoughts> & { id: 'vertex-gemini' } {
  const gemini = geminiAdapter();
  return {
    id: 'vertex-gemini',
    hosts: VERTEX_HOSTS,
    credentials: VERTEX_CREDENTIALS,
    framing: 'sse',
    routes(req: RouteRequest): boolean {
      const route = req.method === 'POST' ? vertexRoute(req.path) : null;
      return (route?.publisher === 'google' && METHODS.has(route.method)) || isVertexModelsRoute(req);
    },
    authenticate: vertexAuthError,
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => renderVertexModels(req, catalog),
    // Gemini's state, whatever it keeps, is this API's: made by it and handed through.
    createState: gemini.createState,
    mintedReplay: gemini.mintedReplay,
    answerWithoutStep: (req: IncomingRequest, state: GeminiThoughts): DirectAnswer | null => gemini.answerWithoutStep!(asGemini(req), state),
    toolCallIds: () => GEMINI_TOOL_CALL_IDS,
    responseIds: () => GEMINI_RESPONSE_IDS,
    // Vertex's thought-signature errors word it its own way (and point at its own docs).
    parse(req: IncomingRequest, thoughts: GeminiThoughts): CanonicalRequest {
      return { ...parseGeminiRequest(asGemini(req), thoughts, 'vertex'), provider: 'vertex-gemini', path: req.path };
    },
    render: (response: CanonicalResponse, request: CanonicalRequest, thoughts: GeminiThoughts): RenderedResponse => renderGemini(response, request, thoughts),
    // Gemini's rendering, so Gemini's key (answers carrying a signature are rendered each time).
    templateKey: gemini.templateKey,
    renderError: (error: CanonicalError): RenderedResponse => renderGoogleError(error),
    renderStreamError: (error: CanonicalStreamError) => [geminiStreamErrorFrame(error)],
    reader: geminiReader,
  };
}
