/**
 * OpenAI's model listing: `GET /v1/models` → `{ object: 'list', data: Model[] }` and
 * `GET /v1/models/{id}` → one `Model` or a 404 `model_not_found`, with or without `/v1`
 * (clients whose base URL carries the version, as Prism and gateways lay it out).
 */
import type { ModelCatalog, RenderedResponse, RouteRequest } from '../adapter.ts';
import { decodeSegment, listedModels, MODELS_CREATED, retrievable } from '../common/models.ts';
import type { ProviderId } from '../registry.ts';
import { renderOpenAIError } from './error.ts';

const MODELS_PATH = /^(?:\/v1)?\/models(?:\/([^/]+))?\/?$/;

/** The providers an OpenAI listing covers: every OpenAI wire API. */
const OPENAI_FAMILY: readonly ProviderId[] = ['openai', 'openai-responses', 'embeddings'];

/** Is this an OpenAI model-listing route? */
export const isOpenAIModelsRoute = (req: RouteRequest): boolean => req.method === 'GET' && MODELS_PATH.test(req.path);

function ownedBy(id: string): string {
  if (id.startsWith('ft:')) return 'user';
  return /^(gpt|o\d|text-embedding|chatgpt|dall-e|whisper|tts)/.test(id) ? 'openai' : 'system';
}

const model = (id: string) => ({ id, object: 'model', created: MODELS_CREATED, owned_by: ownedBy(id) });

function notFound(id: string): RenderedResponse {
  return renderOpenAIError({ status: 404, message: `The model '${id}' does not exist`, type: 'invalid_request_error', param: 'model', code: 'model_not_found', headers: {} });
}

/**
 * The listing for a request on an OpenAI models route, or null for any other route.
 * @example
 *   renderOpenAIModels(req, catalog)?.json // { object: 'list', data: [{ id: 'gpt-4o', object: 'model', ... }] }
 */
export function renderOpenAIModels(req: RouteRequest, catalog: ModelCatalog): RenderedResponse | null {
  if (req.method !== 'GET') return null;
  const match = MODELS_PATH.exec(req.path);
  if (!match) return null;
  if (match[1] === undefined) return { status: 200, headers: {}, json: { object: 'list', data: listedModels(catalog).map(model) } };
  const id = decodeSegment(match[1]);
  if (id === null) return notFound(match[1]);
  return retrievable(catalog, id, OPENAI_FAMILY) ? { status: 200, headers: {}, json: model(id) } : notFound(id);
}
