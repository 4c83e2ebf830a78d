/**
 * The Gemini embeddings adapter (provider id `embeddings`): `models/{m}:embedContent`
 * (`{ content }` → `{ embedding: { values } }`) and `models/{m}:batchEmbedContents`
 * (`{ requests: [...] }` → `{ embeddings: [{ values }] }`, what `@google/genai`'s embedContent calls).
 * `outputDimensionality` becomes the canonical `dimensions`; vectors come from the engine.
 */
import { BadRequestError, type IncomingRequest, type ProviderAdapter, type RenderedResponse, type RouteRequest } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { GOOGLE_AI_HOSTS, GOOGLE_CREDENTIALS, googleAuthError, googleClient } from '../gemini/index.ts';
import { geminiPathModel } from '../gemini/reader.ts';
import { EMPTY_ANSWER, errorMessage, type WireReader } from '../common/views.ts';
import { badModelEscape, geminiRoute, googleInvalid, partsText } from '../gemini/parse.ts';
import { GOOGLE_JSON_HEADERS, renderGoogleError } from '../gemini/render.ts';
import { headerRecord, isObject, parseJsonObject, restParams, type Json } from '../common/wire-json.ts';
import { embeddingModel } from '../common/embedding-models.ts';

const EMBED_METHODS = new Set(['embedContent', 'batchEmbedContents']);

/** The text of one EmbedContentRequest's `content` (its text parts joined). */
function contentText(content: unknown, path: string): string {
  if (content === undefined) throw new BadRequestError(`* ${path}: content is not specified`, path);
  return partsText(content, path);
}

/** The most requests one batchEmbedContents call may carry, as the API enforces. */
const MAX_BATCH = 100;

/** The requested size, bounded by the model's own (the API's 400 above it); the model's size when none is asked. */
function dimensionsOf(request: Json, path: string, model: string): number {
  const d = request.outputDimensionality ?? request.output_dimensionality;
  const { dimensions, maxDimensions } = embeddingModel(model);
  if (d === undefined || d === null) return dimensions;
  if (!Number.isInteger(d) || (d as number) < 1) throw googleInvalid(`${path}.output_dimensionality`, 'a positive integer', d);
  if ((d as number) > maxDimensions) {
    throw new BadRequestError(`* ${path}.output_dimensionality: ${d as number} is larger than the maximum of ${maxDimensions} for models/${model}`, `${path}.output_dimensionality`);
  }
  return d as number;
}

/**
 * Parses an embedContent or batchEmbedContents request.
 * @example
 *   parseGeminiEmbeddingsRequest(req).input // ['text one', 'text two'] for a batch of two
 */
export function parseGeminiEmbeddingsRequest(req: IncomingRequest): CanonicalRequest {
  const route = geminiRoute(req.path);
  if (!route || !EMBED_METHODS.has(route.method)) throw new BadRequestError(`Not a Gemini embeddings path: ${req.path}`);
  if (route.badEscape) throw badModelEscape(route);
  const body = parseJsonObject(req.bodyText);
  let input: string[];
  let dimensions: number;
  if (route.method === 'embedContent') {
    input = [contentText(body.content, 'content')];
    dimensions = dimensionsOf(body, 'request', route.model);
  } else {
    if (!Array.isArray(body.requests)) throw googleInvalid('requests', 'a list of EmbedContentRequest objects', body.requests);
    if (body.requests.length === 0) throw new BadRequestError('* BatchEmbedContentsRequest.requests: requests is empty', 'requests');
    if (body.requests.length > MAX_BATCH) {
      throw new BadRequestError(`* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH} requests can be in one batch`, 'requests');
    }
    input = body.requests.map((r: unknown, i) => {
      if (!isObject(r)) throw googleInvalid(`requests[${i}]`, 'an EmbedContentRequest object', r);
      return contentText(r.content, `requests[${i}].content`);
    });
    dimensions = dimensionsOf(body.requests[0] as Json, 'requests[0]', route.model);
  }
  const canonical: CanonicalRequest = {
    provider: 'embeddings',
    path: req.path,
    model: route.model,
    stream: false,
    messages: input.map((content) => ({ role: 'user', content })),
    tools: [],
    headers: headerRecord(req.headers),
    params: restParams(body, ['content', 'requests']),
    input,
    raw: body,
  };
  canonical.dimensions = dimensions;
  return canonical;
}

/**
 * The embedContent / batchEmbedContents response body for the request's method.
 * @example
 *   renderGeminiEmbeddings(response, request) // { embeddings: [{ values: [...] }], usageMetadata: {...} }
 */
export function renderGeminiEmbeddings(response: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const vectors = response.embeddings ?? [];
  const usageMetadata = { promptTokenCount: response.usage.inputTokens, totalTokenCount: response.usage.inputTokens };
  if (geminiRoute(request.path)?.method === 'embedContent') return { embedding: { values: vectors[0] ?? [] }, usageMetadata };
  return { embeddings: vectors.map((values) => ({ values })), usageMetadata };
}

/** Embeddings answers are vectors: only the model (from the path) and usage are read. */
const reader: WireReader = {
  conversational: false,
  model: (path) => geminiPathModel(path),
  messages: () => [],
  answer: (body: any) => {
    const meta = body?.usageMetadata;
    return { ...EMPTY_ANSWER, usage: meta ? { inputTokens: meta.promptTokenCount ?? 0, outputTokens: 0 } : null };
  },
  streamedAnswer: () => EMPTY_ANSWER,
  errorMessage,
};

/**
 * Creates the Gemini embeddings adapter.
 * @example
 *   geminiEmbeddingsAdapter().routes({ method: 'POST', path: '/v1beta/models/gemini-embedding-001:batchEmbedContents', url, headers }); // true
 */
export function geminiEmbeddingsAdapter(): ProviderAdapter & { id: 'embeddings' } {
  return {
    id: 'embeddings',
    hosts: GOOGLE_AI_HOSTS,
    credentials: GOOGLE_CREDENTIALS,
    framing: 'sse',
    routes(req: RouteRequest): boolean {
      const route = req.method === 'POST' ? geminiRoute(req.path) : null;
      return route !== null && EMBED_METHODS.has(route.method);
    },
    recognizes: googleClient,
    authenticate: (req: IncomingRequest) => googleAuthError(req),
    parse: (req: IncomingRequest) => parseGeminiEmbeddingsRequest(req),
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse => ({
      status: 200,
      headers: { ...GOOGLE_JSON_HEADERS, ...response.headers },
      json: renderGeminiEmbeddings(response, request),
    }),
    // No templateKey: embeddings answers are rendered each time (common/answer-templates.ts says why).
    renderError: (error: CanonicalError): RenderedResponse => renderGoogleError(error),
    reader,
  };
}
