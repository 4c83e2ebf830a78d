/**
 * The Cohere v2 adapter (`cohere-ai`'s `CohereClientV2`): `POST /v2/chat` (JSON, or SSE events
 * when `stream` is true) and `POST /v2/embed` on `api.cohere.com` (and the older `api.cohere.ai`),
 * and the model listing `GET /v1/models[/{name}]`. Chat and embed paths are its own, so the shared
 * real port routes them by path alone; `/v1/models` there is Cohere's when the SDK's header names it.
 */
import type { IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest, StreamErrorContext } from '../adapter.ts';
import { jsonOrStream } from '../common/rendered.ts';
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { isCohereModelsRoute, renderCohereModels } from './models.ts';
import { parseCohereChat, parseCohereEmbed } from './parse.ts';
import { cohereReader } from './reader.ts';
import { cohereStreamErrorFrames, cohereTemplateKey, renderCohereChat, renderCohereEmbed, renderCohereError, renderCohereStream } from './render.ts';
import type { ToolCallIdShape } from '../common/ids.ts';

const CHAT = '/v2/chat';
const EMBED = '/v2/embed';

/** Cohere v2's tool call ids: the tool's name, `_`, 12 of [a-z0-9] (the SDK's wire tests: `query_daily_sales_report_hgxxmkby3wta`). */
const COHERE_TOOL_CALL_IDS: ToolCallIdShape = { prefix: (toolName) => `${toolName}_`, length: 12, alphabet: 'lower' };

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
    toolCallIds: () => COHERE_TOOL_CALL_IDS,
    // Response ids are random UUIDs (v4: the SDK's own fixtures' `29f14a5a-11de-4cae-9800-…`).
    responseIds: () => 'uuid',
    parse: (req: IncomingRequest) => (req.path === EMBED ? parseCohereEmbed(req) : parseCohereChat(req)),
    render(response: CanonicalResponse, request: CanonicalRequest): RenderedResponse {
      const headers = { ...response.headers };
      if (request.provider === 'embeddings') return { status: 200, headers, json: renderCohereEmbed(response, request) };
      return jsonOrStream(response, request, headers, () => renderCohereChat(response, request), () => renderCohereStream(response, request));
    },
    templateKey: cohereTemplateKey,
    renderError: renderCohereError,
    renderStreamError: (error: CanonicalStreamError, { response, request }: StreamErrorContext) => cohereStreamErrorFrames(error, response, request),
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => renderCohereModels(req, catalog, renderCohereError),
    reader: cohereReader,
  };
}
