/**
 * The OpenAI embeddings adapter (`POST /v1/embeddings`, provider id `embeddings`). Vectors come from the engine (`CanonicalResponse.embeddings`); this file only
 * speaks the wire: `input` in its four shapes, `dimensions`, and `encoding_format: base64`
 * (little-endian float32, which the `openai` SDK requests by default and decodes).
 */
import { BadRequestError, type IncomingRequest, type ProviderAdapter, type RenderedResponse, type RouteRequest } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { bodyModel, EMPTY_ANSWER, errorMessage, type WireReader } from '../common/views.ts';
import { OPENAI_CREDENTIALS, OPENAI_HOSTS } from '../openai-shared/hosts.ts';
import { openAIUsageView } from '../openai-chat/reader.ts';
import { openAIAuthError, renderOpenAIError } from '../openai-shared/error.ts';
import { headerRecord, parseJsonObject, restParams, typeName } from '../common/wire-json.ts';
import { embeddingModel } from '../common/embedding-models.ts';
import { invalidType, missing } from '../openai-shared/invalid.ts';

/** The most inputs one request may carry (the API's documented limit). */
const MAX_INPUTS = 2048;

/** The API's wording for an input list it rejects as a whole (too many items). */
const INVALID_INPUT = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

function invalidInput(got: unknown): BadRequestError {
  return new BadRequestError(
    `Invalid type for 'input': expected a string, an array of strings, an array of tokens or an array of token arrays, but got ${typeName(got)} instead.`,
    'input',
  );
}

const isTokens = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x));

/** `input` as texts: token arrays become their ids joined by spaces (stable, so vectors stay deterministic). */
function inputTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) {
    if (Array.isArray(input)) throw new BadRequestError("'input' : input must be a non-empty array.", 'input');
    throw invalidInput(input);
  }
  if (input.every((x) => typeof x === 'string')) return input;
  if (isTokens(input)) return [input.join(' ')];
  if (input.every(isTokens)) return input.map((t) => t.join(' '));
  throw invalidInput(input);
}

/**
 * Parses a `POST /v1/embeddings` request.
 * @example
 *   parseOpenAIEmbeddingsRequest(req).input // ['first text', 'second text']
 */
export function parseOpenAIEmbeddingsRequest(req: IncomingRequest): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  if (body.model === undefined) throw missing('model');
  if (typeof body.model !== 'string') throw invalidType('model', 'a string', body.model);
  if (body.input === undefined) throw missing('input');
  const input = inputTexts(body.input);
  if (input.length > MAX_INPUTS) throw new BadRequestError(INVALID_INPUT);
  const model = embeddingModel(body.model);
  const canonical: CanonicalRequest = {
    provider: 'embeddings',
    path: req.path,
    model: body.model,
    stream: false,
    messages: input.map((content) => ({ role: 'user', content })),
    tools: [],
    headers: headerRecord(req.headers),
    params: restParams(body, ['model', 'input', 'dimensions']),
    input,
    raw: body,
  };
  canonical.dimensions = model.dimensions;
  if (body.dimensions !== undefined && body.dimensions !== null) {
    // Bounded by the model, as the API does: a vector is never larger than the model's own.
    if (model.maxDimensions === 0) throw new BadRequestError('This model does not support specifying dimensions.');
    if (!Number.isInteger(body.dimensions) || (body.dimensions as number) < 1) {
      throw new BadRequestError(`Invalid 'dimensions': expected an integer of at least 1, but got ${JSON.stringify(body.dimensions)}.`, 'dimensions');
    }
    if ((body.dimensions as number) > model.maxDimensions) {
      throw new BadRequestError(
        `Invalid 'dimensions': ${body.dimensions as number} is greater than the maximum of ${model.maxDimensions} for the model '${body.model}'.`,
        'dimensions',
      );
    }
    canonical.dimensions = body.dimensions as number;
  }
  const format = body.encoding_format;
  if (format !== undefined && format !== null && format !== 'float' && format !== 'base64') {
    throw new BadRequestError(`Invalid value: '${String(format)}'. Supported values are: 'float' and 'base64'.`, 'encoding_format');
  }
  return canonical;
}

/**
 * A vector as the API's base64: little-endian float32 bytes.
 * @example
 *   base64Vector([1, 0]) // 'AACAPwAAAAA='
 */
export function base64Vector(vector: readonly number[]): string {
  // Written through a DataView so the bytes are little-endian whatever the platform's order.
  const view = new DataView(new ArrayBuffer(vector.length * 4));
  vector.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return Buffer.from(view.buffer).toString('base64');
}

/**
 * The `CreateEmbeddingResponse` body.
 * @example
 *   renderOpenAIEmbeddings(response, request).data[0].embedding // number[] or base64 string
 */
export function renderOpenAIEmbeddings(response: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const base64 = request.params.encoding_format === 'base64';
  const data = (response.embeddings ?? []).map((vector, index) => ({
    object: 'embedding',
    index,
    embedding: base64 ? base64Vector(vector) : vector,
  }));
  const tokens = response.usage.inputTokens;
  return { object: 'list', data, model: response.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** Embeddings answers are vectors, not conversation turns: only the model and usage are read. */
const reader: WireReader = {
  conversational: false,
  model: (_path, body) => bodyModel(body),
  messages: () => [],
  answer: (body: any) => ({ ...EMPTY_ANSWER, usage: openAIUsageView(body?.usage) }),
  streamedAnswer: () => EMPTY_ANSWER,
  errorMessage,
};

/**
 * Creates the OpenAI embeddings adapter.
 * @example
 *   openAIEmbeddingsAdapter().routes({ method: 'POST', path: '/v1/embeddings', url, headers }); // true
 */
export function openAIEmbeddingsAdapter(): ProviderAdapter & { id: 'embeddings' } {
  return {
    id: 'embeddings',
    hosts: OPENAI_HOSTS,
    credentials: OPENAI_CREDENTIALS,
    framing: 'sse',
    routes: ({ method, path }: RouteRequest) => method === 'POST' && (path === '/v1/embeddings' || path === '/embeddings'),
    authenticate: (req: IncomingRequest) => openAIAuthError(req.headers),
    parse: (req: IncomingRequest) => parseOpenAIEmbeddingsRequest(req),
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse => ({
      status: 200,
      headers: { ...response.headers },
      json: renderOpenAIEmbeddings(response, request),
    }),
    // No templateKey: embeddings answers are rendered each time (common/answer-templates.ts says why).
    renderError: (error: CanonicalError): RenderedResponse => renderOpenAIError(error),
    reader,
  };
}
