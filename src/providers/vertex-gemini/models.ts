/**
 * Vertex AI's model listing, as `@google/genai` with `vertexai: true` calls it: `models.list()` →
 * `GET /{v1,v1beta1}/publishers/google/models` → `{ publisherModels: PublisherModel[], nextPageToken? }`,
 * `models.get()` → `GET …/publishers/google/models/{id}` (names `publishers/google/models/{id}`), with
 * or without a `projects/{p}/locations/{l}/` prefix; tuned models (`list({ config: { queryBase: false } })`,
 * `GET …/projects/{p}/locations/{l}/models`): none, as a project without tuning jobs answers.
 */
import type { ModelCatalog, RenderedResponse, RouteRequest } from '../adapter.ts';
import { decodeSegment, listedModels, retrievable } from '../common/models.ts';
import { GOOGLE_JSON_HEADERS, renderGoogleError } from '../gemini/render.ts';

const PREFIX = String.raw`^\/(v1|v1beta1)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?`;
const PUBLISHER_MODELS = new RegExp(`${PREFIX}publishers\\/google\\/models(?:\\/([^/:]+))?\\/?$`);
const TUNED_MODELS = /^\/(v1|v1beta1)\/projects\/[^/]+\/locations\/[^/]+\/models(?:\/([^/:]+))?\/?$/;

/** Is this one of Vertex's model-listing routes? */
export const isVertexModelsRoute = (req: RouteRequest): boolean => req.method === 'GET' && (PUBLISHER_MODELS.test(req.path) || TUNED_MODELS.test(req.path));

/** A Google publisher model as the listing shows it (the fields `@google/genai` reads, and the resource's own). */
function publisherModel(id: string): Record<string, unknown> {
  return {
    name: `publishers/google/models/${id}`,
    versionId: '001',
    openSourceCategory: 'PROPRIETARY',
    launchStage: 'GA',
    versionState: 'VERSION_STATE_STABLE',
    publisherModelTemplate: `projects/{project}/locations/{location}/publishers/google/models/${id}`,
  };
}

const notFound = (name: string): RenderedResponse => renderGoogleError({ status: 404, message: `Publisher Model \`${name}\` is not found.`, headers: {} });

/**
 * The listing for a request on Vertex's model routes, or null for any other route.
 * @example
 *   renderVertexModels(req, catalog)?.json // { publisherModels: [{ name: 'publishers/google/models/gemini-2.5-flash', ... }] }
 */
export function renderVertexModels(req: RouteRequest, catalog: ModelCatalog): RenderedResponse | null {
  if (req.method !== 'GET') return null;
  const tuned = TUNED_MODELS.exec(req.path);
  if (tuned) {
    if (tuned[2] === undefined) return { status: 200, headers: { ...GOOGLE_JSON_HEADERS }, json: {} };
    return renderGoogleError({ status: 404, message: `The Model does not exist.`, headers: {} });
  }
  const match = PUBLISHER_MODELS.exec(req.path);
  if (!match) return null;
  if (match[2] !== undefined) {
    const id = decodeSegment(match[2]) ?? match[2];
    return retrievable(catalog, id, ['vertex-gemini', 'embeddings']) ? { status: 200, headers: { ...GOOGLE_JSON_HEADERS }, json: publisherModel(id) } : notFound(`publishers/google/models/${id}`);
  }
  const names = listedModels(catalog);
  const query = req.url.searchParams;
  const size = query.has('pageSize') ? Number(query.get('pageSize')) : names.length;
  const offset = Number(query.get('pageToken') || '0');
  if (!Number.isInteger(size) || size < 0 || !Number.isInteger(offset) || offset < 0) {
    return renderGoogleError({ status: 400, message: `Invalid pageSize or pageToken: ${query.get('pageSize') ?? ''} ${query.get('pageToken') ?? ''}`.trim(), headers: {} });
  }
  // pageSize 0 means the server's default: everything, here. The token is the next page's offset.
  const end = size === 0 ? names.length : offset + size;
  const json: Record<string, unknown> = { publisherModels: names.slice(offset, end).map(publisherModel) };
  if (end < names.length) json.nextPageToken = String(end);
  return { status: 200, headers: { ...GOOGLE_JSON_HEADERS }, json };
}
