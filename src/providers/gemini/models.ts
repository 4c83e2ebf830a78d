/**
 * Gemini's model listing: `GET /{v1,v1beta,v1alpha}/models` → `{ models: Model[] }` (names as
 * `models/{id}`), `GET .../models/{id}` → one `Model` or a 404 `NOT_FOUND`.
 */
import type { ModelCatalog, RenderedResponse, RouteRequest } from '../adapter.ts';
import { decodeSegment, displayName, listedModels, retrievable } from '../common/models.ts';
import { GOOGLE_JSON_HEADERS, renderGoogleError } from './render.ts';

const MODELS_PATH = /^\/(v1|v1beta|v1alpha)\/models(?:\/([^/:]+))?\/?$/;

/** Is this Gemini's model-listing route? */
export const isGeminiModelsRoute = (req: RouteRequest): boolean => req.method === 'GET' && MODELS_PATH.test(req.path);

function model(id: string) {
  const bare = id.replace(/^models\//, '');
  const embedding = /embed/i.test(bare);
  return {
    name: `models/${bare}`,
    version: '001',
    displayName: displayName(bare),
    description: `ghostwire mock of ${bare}`,
    inputTokenLimit: embedding ? 2048 : 1_048_576,
    outputTokenLimit: embedding ? 1 : 65_536,
    supportedGenerationMethods: embedding ? ['embedContent', 'batchEmbedContents'] : ['generateContent', 'countTokens'],
  };
}

/**
 * The listing for a request on Gemini's models route, or null for any other route.
 * @example
 *   renderGeminiModels(req, catalog)?.json // { models: [{ name: 'models/gemini-2.5-flash', ... }] }
 */
export function renderGeminiModels(req: RouteRequest, catalog: ModelCatalog): RenderedResponse | null {
  const match = req.method === 'GET' ? MODELS_PATH.exec(req.path) : null;
  if (!match) return null;
  if (match[2] === undefined) return { status: 200, headers: { ...GOOGLE_JSON_HEADERS }, json: { models: listedModels(catalog).map(model) } };
  const bare = (decodeSegment(match[2]) ?? match[2]).replace(/^models\//, '');
  const embedding = /embed/i.test(bare);
  if (retrievable(catalog, bare, embedding ? ['embeddings'] : ['gemini'])) return { status: 200, headers: { ...GOOGLE_JSON_HEADERS }, json: model(bare) };
  return renderGoogleError({
    status: 404,
    message: `models/${bare} is not found for API version ${match[1]}, or is not supported for this method.`,
    headers: {},
  });
}
