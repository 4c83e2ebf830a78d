/**
 * Vertex AI text embeddings (provider id `embeddings`), as `@google/genai` with `vertexai: true`
 * calls them for `text-embedding-005`, `text-multilingual-embedding-002` and `gemini-embedding-001`:
 * `POST …/publishers/google/models/{m}:predict` with `{ instances: [{ content }], parameters:
 * { outputDimensionality } }`, answered as `{ predictions: [{ embeddings: { values, statistics } }] }`.
 * Sizes are each model's own (common/embedding-models.ts), a larger `outputDimensionality` a 400.
 */
import { BadRequestError, type IncomingRequest, type ProviderAdapter, type RenderedResponse, type RouteRequest } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { embeddingModel } from '../common/embedding-models.ts';
import { decodeSegment } from '../common/models.ts';
import { EMPTY_ANSWER, errorMessage, type WireReader } from '../common/views.ts';
import { headerRecord, isObject, parseJsonObject, restParams } from '../common/wire-json.ts';
import { geminiPathModel } from '../gemini/reader.ts';
import { googleInvalid, partsText } from '../gemini/parse.ts';
import { GOOGLE_JSON_HEADERS, renderGoogleError } from '../gemini/render.ts';
import { VERTEX_CREDENTIALS, VERTEX_HOSTS, vertexAuthError, vertexRoute } from '../vertex-shared/index.ts';

/** The most instances one predict call may carry (Vertex's limit for text embeddings). */
const MAX_INSTANCES = 250;

function instanceText(instance: unknown, i: number): string {
  if (!isObject(instance)) throw googleInvalid(`instances[${i}]`, 'an object with `content`', instance);
  const content = instance.content;
  if (typeof content === 'string') return content;
  if (content === undefined) throw new BadRequestError(`instances[${i}].content is required`, `instances[${i}].content`);
  return partsText(content, `instances[${i}].content`);
}

/**
 * Parses a `:predict` embeddings request.
 * @example
 *   parseVertexEmbeddings(req).dimensions // 768 for text-embedding-005
 */
export function parseVertexEmbeddings(req: IncomingRequest): CanonicalRequest {
  const route = vertexRoute(req.path)!;
  const model = decodeSegment(route.model);
  if (model === null) throw new BadRequestError(`Invalid resource name: the model "${route.model}" is not a valid URL-encoded name.`, 'model');
  const body = parseJsonObject(req.bodyText);
  if (!Array.isArray(body.instances) || body.instances.length === 0) throw googleInvalid('instances', 'a non-empty list of instances', body.instances);
  if (body.instances.length > MAX_INSTANCES) throw new BadRequestError(`instances: at most ${MAX_INSTANCES} instances are allowed per request`, 'instances');
  const input = body.instances.map(instanceText);
  const parameters = body.parameters === undefined ? {} : body.parameters;
  if (!isObject(parameters)) throw googleInvalid('parameters', 'an object', parameters);
  const { dimensions, maxDimensions } = embeddingModel(model);
  let size = dimensions;
  const asked = parameters.outputDimensionality ?? parameters.output_dimensionality;
  if (asked !== undefined && asked !== null) {
    if (!Number.isInteger(asked) || (asked as number) < 1) throw googleInvalid('parameters.outputDimensionality', 'a positive integer', asked);
    if ((asked as number) > maxDimensions) {
      throw new BadRequestError(`parameters.outputDimensionality: ${asked as number} is larger than the maximum of ${maxDimensions} for ${model}`, 'parameters.outputDimensionality');
    }
    size = asked as number;
  }
  const canonical: CanonicalRequest = {
    provider: 'embeddings',
    path: req.path,
    model,
    stream: false,
    messages: input.map((content) => ({ role: 'user', content })),
    tools: [],
    headers: headerRecord(req.headers),
    params: restParams(body, ['instances']),
    input,
    raw: body,
  };
  canonical.dimensions = size;
  return canonical;
}

/**
 * The predict answer: one prediction per instance, with its token count.
 * @example
 *   renderVertexEmbeddings(response, request).predictions[0].embeddings.values.length // 768
 */
export function renderVertexEmbeddings(response: CanonicalResponse, request: CanonicalRequest): { predictions: unknown[]; metadata: unknown } {
  const { tokens, billable } = inputCounts(request);
  const predictions = (response.embeddings ?? []).map((values, i) => ({
    embeddings: { statistics: { truncated: false, token_count: tokens[i] ?? 1 }, values },
  }));
  return { predictions, metadata: { billableCharacterCount: billable } };
}

/** What the answer says of the request's texts: each one's tokens (a quarter of its length, at least 1) and the billable characters (not whitespace). */
function inputCounts(request: CanonicalRequest): { tokens: number[]; billable: number } {
  const inputs = request.input ?? [];
  return { tokens: inputs.map((t) => Math.max(1, Math.ceil(t.length / 4))), billable: inputs.reduce((n, t) => n + t.replace(/\s/g, '').length, 0) };
}

const reader: WireReader = {
  conversational: false,
  model: (path) => geminiPathModel(path),
  messages: () => [],
  answer: () => EMPTY_ANSWER,
  streamedAnswer: () => EMPTY_ANSWER,
  errorMessage,
};

/**
 * Creates the Vertex AI embeddings adapter.
 * @example
 *   vertexEmbeddingsAdapter().routes({ method: 'POST', path: '/v1beta1/projects/p/locations/us-central1/publishers/google/models/text-embedding-005:predict', url, headers }); // true
 */
export function vertexEmbeddingsAdapter(): ProviderAdapter & { id: 'embeddings' } {
  return {
    id: 'embeddings',
    hosts: VERTEX_HOSTS,
    credentials: VERTEX_CREDENTIALS,
    framing: 'sse',
    routes(req: RouteRequest): boolean {
      const route = req.method === 'POST' ? vertexRoute(req.path) : null;
      return route?.publisher === 'google' && route.method === 'predict';
    },
    authenticate: vertexAuthError,
    parse: parseVertexEmbeddings,
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse => ({
      status: 200,
      headers: { ...GOOGLE_JSON_HEADERS, ...response.headers },
      json: renderVertexEmbeddings(response, request),
    }),
    // No templateKey: embeddings answers are rendered each time (common/answer-templates.ts says why).
    renderError: (error: CanonicalError): RenderedResponse => renderGoogleError(error),
    reader,
  };
}
