/**
 * Anthropic's model listing: `GET /v1/models` → `{ data: ModelInfo[], has_more, first_id, last_id }`,
 * `GET /v1/models/{id}` → one `ModelInfo` or a 404 `not_found_error`.
 */
import type { ModelCatalog, RenderedResponse, RouteRequest } from '../adapter.ts';
import { decodeSegment, displayName, listedModels, MODELS_CREATED, retrievable } from '../common/models.ts';
import { mintAnthropicRequestId, renderAnthropicError } from './render.ts';

const MODELS_PATH = /^\/v1\/models(?:\/([^/]+))?\/?$/;

/** Is this Anthropic's model-listing route? */
export const isAnthropicModelsRoute = (req: RouteRequest): boolean => req.method === 'GET' && MODELS_PATH.test(req.path);

const info = (id: string) => ({
  type: 'model',
  id,
  display_name: displayName(id),
  created_at: new Date(MODELS_CREATED * 1000).toISOString(),
  deprecated_at: null,
  retires_at: null,
  lifecycle: 'active',
  line: null,
  capabilities: null,
  max_input_tokens: null,
  max_tokens: null,
});

/**
 * The listing for a request on Anthropic's models route, or null for any other route.
 * @example
 *   renderAnthropicModels(req, catalog)?.json // { data: [{ type: 'model', id: 'claude-sonnet-4-5', ... }], has_more: false, ... }
 */
export function renderAnthropicModels(req: RouteRequest, catalog: ModelCatalog): RenderedResponse | null {
  const match = req.method === 'GET' ? MODELS_PATH.exec(req.path) : null;
  if (!match) return null;
  const headers = { 'request-id': mintAnthropicRequestId() };
  if (match[1] === undefined) {
    const data = listedModels(catalog).map(info);
    return { status: 200, headers, json: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null } };
  }
  const id = decodeSegment(match[1]) ?? match[1];
  if (retrievable(catalog, id, ['anthropic'])) return { status: 200, headers, json: info(id) };
  return renderAnthropicError({ status: 404, message: `model: ${id}`, type: 'not_found_error', headers: {} });
}
