/**
 * Cohere's model listing, as `cohere-ai`'s `models.list()` and `models.get()` call it (the v2
 * client shares them): `GET /v1/models` → `{ models: GetModelResponse[], next_page_token? }`, filtered
 * by `endpoint` (and `default_only`), paged by `page_size` / `page_token`; `GET /v1/models/{name}` →
 * one model or Cohere's 404.
 */
import type { ModelCatalog, RenderedResponse, RouteRequest } from '../adapter.ts';
import { decodeSegment, listedModels, retrievable } from '../common/models.ts';
import type { CanonicalError } from '../../scenario/canonical.ts';

const MODELS_PATH = /^\/v1\/models(?:\/([^/]+))?\/?$/;

/** The endpoints Cohere's `CompatibleEndpoint` names. */
const ENDPOINTS = ['chat', 'embed', 'classify', 'summarize', 'rerank', 'rate', 'generate'];

/** Is this Cohere's model-listing route? */
export const isCohereModelsRoute = (req: RouteRequest): boolean => req.method === 'GET' && MODELS_PATH.test(req.path);

/** The endpoints a model serves, read from its name as Cohere's families are named. */
function endpointsOf(name: string): string[] {
  if (/embed/i.test(name)) return ['embed', 'classify'];
  if (/rerank/i.test(name)) return ['rerank'];
  return ['generate', 'chat', 'summarize'];
}

function model(name: string): Record<string, unknown> {
  const endpoints = endpointsOf(name);
  const chat = endpoints.includes('chat');
  return {
    name,
    endpoints,
    finetuned: false,
    context_length: chat ? 256_000 : /rerank/i.test(name) ? 4096 : 512,
    tokenizer_url: `https://storage.googleapis.com/cohere-public/tokenizers/${name}.json`,
    default_endpoints: [],
    ...(chat ? { features: ['tools', 'strict_tools', 'json_mode', 'json_schema'] } : {}),
  };
}

/** A query number within bounds, or an error naming the parameter. */
function pageSize(raw: string | null): number | string {
  if (raw === null) return 20;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : `invalid request: page_size must be an integer between 1 and 1000, got '${raw}'`;
}

/**
 * The listing for a request on Cohere's models route, or null for any other route.
 * @example
 *   renderCohereModels(req, catalog, renderCohereError)?.json // { models: [{ name: 'command-a-03-2025', endpoints: ['generate', 'chat', 'summarize'], ... }] }
 */
export function renderCohereModels(req: RouteRequest, catalog: ModelCatalog, error: (e: CanonicalError) => RenderedResponse): RenderedResponse | null {
  const match = req.method === 'GET' ? MODELS_PATH.exec(req.path) : null;
  if (!match) return null;
  if (match[1] !== undefined) {
    const name = decodeSegment(match[1]) ?? match[1];
    if (retrievable(catalog, name, ['cohere', 'embeddings'])) return { status: 200, headers: {}, json: model(name) };
    return error({ status: 404, message: `model '${name}' not found, make sure the correct model ID was used and that you have access to the model.`, headers: {} });
  }
  const query = req.url.searchParams;
  const endpoint = query.get('endpoint');
  if (endpoint !== null && !ENDPOINTS.includes(endpoint)) return error({ status: 400, message: `invalid request: endpoint must be one of ${ENDPOINTS.join(', ')}, got '${endpoint}'`, headers: {} });
  const defaultOnly = query.get('default_only') === 'true';
  if (defaultOnly && endpoint === null) return error({ status: 400, message: 'invalid request: default_only is only valid when endpoint is provided', headers: {} });
  const size = pageSize(query.get('page_size'));
  if (typeof size === 'string') return error({ status: 400, message: size, headers: {} });
  let names = listedModels(catalog).filter((n) => endpoint === null || endpointsOf(n).includes(endpoint));
  if (defaultOnly) names = names.slice(0, 1);
  // The page token is the offset of the page's first model (Cohere's tokens are opaque: clients only echo them).
  const offset = Number(query.get('page_token') ?? '0');
  if (!Number.isInteger(offset) || offset < 0) return error({ status: 400, message: `invalid request: page_token '${query.get('page_token')}' is not valid`, headers: {} });
  const page = names.slice(offset, offset + size);
  const next = offset + size < names.length ? { next_page_token: String(offset + size) } : {};
  return { status: 200, headers: {}, json: { models: page.map(model), ...next } };
}
