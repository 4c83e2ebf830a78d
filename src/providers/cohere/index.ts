/**
 * The Cohere v2 adapter (`cohere-ai`'s `CohereClientV2`): `POST /v2/chat` (JSON, or SSE events
 * when `stream` is true) and `POST /v2/embed` on `api.cohere.com` (and the older `api.cohere.ai`),
 * and the model listing `GET /v1/models[/{name}]`. Chat and embed paths are its own, so the shared
 * real port routes them by path alone; `/v1/models` there is Cohere's when the SDK's header names it.
 */
import type { IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import { jsonOrStream } from '../common/rendered.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { isCohereModelsRoute, renderCohereModels } from './models.ts';
import { parseCohereChat, parseCohereEmbed } from './parse.ts';
import { cohereReader } from './reader.ts';
import { renderCohereChat, renderCohereEmbed, renderCohereError, renderCohereStream } from './render.ts';

const CHAT = '/v2/chat';
const EMBED = '/v2/embed';

/**
 * Creates the Cohere v2 adapter.
 * @example
 *   cohereAdapter().hosts // ['api.cohere.com', 'api.cohere.ai']
 */
export function cohereAdapter(): ProviderAdapter & { id: 'cohere' } {
  return {
    id: 'cohere',
    hosts: ['api.cohere.com', 'api.cohere.ai'],
    credentials: { headers: ['authorization'], query: [] },
    framing: 'sse',
    routes: (req: RouteRequest) => (req.method === 'POST' && (req.path === CHAT || req.path === EMBED)) || isCohereModelsRoute(req),
    /** The SDK names itself in Fern's `X-Fern-SDK-Name` header. */
    recognizes: (req: RouteRequest) => req.headers.get('x-fern-sdk-name') === 'cohere-ai',
    authenticate: (req: IncomingRequest) =>
      /^\s*Bearer\s+\S/i.test(req.headers.get('authorization') ?? '') ? null : { status: 401, message: 'no api key supplied', headers: {} },
    parse: (req: IncomingRequest) => (req.path === EMBED ? parseCohereEmbed(req) : parseCohereChat(req)),
    render(response: CanonicalResponse, request: CanonicalRequest): RenderedResponse {
      const headers = { ...response.headers };
      if (request.provider === 'embeddings') return { status: 200, headers, json: renderCohereEmbed(response, request) };
      return jsonOrStream(response, request, headers, () => renderCohereChat(response), () => renderCohereStream(response));
    },
    renderError: renderCohereError,
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => renderCohereModels(req, catalog, renderCohereError),
    reader: cohereReader,
  };
}
