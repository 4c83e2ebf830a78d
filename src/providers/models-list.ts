/**
 * Model listing (`GET /v1/models`, `GET /v1/models/{id}`, Gemini's `GET /v1beta/models`) in each
 * provider's own shape, over the model names the scenarios mention. All three APIs share the
 * `/v1/models` path, so the request's headers say whose listing it is.
 */
import type { IncomingRequest, RenderedResponse } from './adapter.ts';
import { mintAnthropicRequestId, renderAnthropicError } from './anthropic-render.ts';
import { renderGoogleError } from './gemini-render.ts';
import { renderOpenAIError } from './openai-chat-error.ts';

export type ModelsProvider = 'openai' | 'anthropic' | 'gemini';

/** A listing request: whose shape, and the model id for a retrieve (null for the list). */
export interface ModelsRequest {
  provider: ModelsProvider;
  id: string | null;
}

const MODELS_PATH = /^\/(v1|v1beta|v1alpha)\/models(?:\/([^/:]+))?\/?$/;

/**
 * Which provider a `GET .../models[/{id}]` request is for, or null when it is not a listing request.
 * Anthropic clients send `anthropic-version`/`x-api-key`, Gemini clients `x-goog-api-key` or `?key=`
 * (or use `/v1beta`); everything else is OpenAI.
 * @example
 *   modelsRequest(req) // { provider: 'anthropic', id: null } for the Anthropic SDK's models.list()
 */
export function modelsRequest(req: IncomingRequest): ModelsRequest | null {
  if (req.method !== 'GET') return null;
  const match = MODELS_PATH.exec(req.path);
  if (!match) return null;
  const id = match[2] === undefined ? null : decodeURIComponent(match[2]);
  const h = req.headers;
  if (h.has('anthropic-version') || h.has('x-api-key')) return match[1] === 'v1' ? { provider: 'anthropic', id } : null;
  if (h.has('x-goog-api-key') || req.url.searchParams.has('key') || match[1] !== 'v1') return { provider: 'gemini', id };
  return { provider: 'openai', id };
}

function unique(models: readonly string[]): string[] {
  return [...new Set(models.filter((m) => m.length > 0))];
}

/** A fixed timestamp: listings must not change between runs (goldens compare them). */
const CREATED = 1_700_000_000;

function ownedBy(id: string): string {
  if (id.startsWith('ft:')) return 'user';
  return /^(gpt|o\d|text-embedding|chatgpt|dall-e|whisper|tts)/.test(id) ? 'openai' : 'system';
}

/**
 * OpenAI's `{ object: 'list', data: Model[] }`, or one `Model`, or a 404 `model_not_found`.
 * @example
 *   renderOpenAIModels(null, ['gpt-4o']).json // { object: 'list', data: [{ id: 'gpt-4o', object: 'model', ... }] }
 */
export function renderOpenAIModels(id: string | null, models: readonly string[]): RenderedResponse {
  const data = unique(models).map((m) => ({ id: m, object: 'model', created: CREATED, owned_by: ownedBy(m) }));
  if (id === null) return { status: 200, headers: {}, json: { object: 'list', data } };
  const found = data.find((m) => m.id === id);
  if (found) return { status: 200, headers: {}, json: found };
  return renderOpenAIError({
    status: 404,
    message: `The model '${id}' does not exist`,
    type: 'invalid_request_error',
    param: 'model',
    code: 'model_not_found',
    headers: {},
  });
}

function displayName(id: string): string {
  return id
    .split(/[-_]/)
    .filter((w) => !/^\d{8}$/.test(w))
    .map((w) => (w.length > 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/**
 * Anthropic's `{ data: ModelInfo[], has_more, first_id, last_id }`, or one `ModelInfo`, or a 404.
 * @example
 *   renderAnthropicModels(null, ['claude-sonnet-4-5']).json // { data: [{ type: 'model', id: 'claude-sonnet-4-5', ... }], has_more: false, ... }
 */
export function renderAnthropicModels(id: string | null, models: readonly string[]): RenderedResponse {
  const data = unique(models).map((m) => ({
    type: 'model',
    id: m,
    display_name: displayName(m),
    created_at: new Date(CREATED * 1000).toISOString(),
    deprecated_at: null,
    retires_at: null,
    lifecycle: 'active',
    line: null,
    capabilities: null,
    max_input_tokens: null,
    max_tokens: null,
  }));
  const headers = { 'request-id': mintAnthropicRequestId() };
  if (id === null) {
    const json = { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    return { status: 200, headers, json };
  }
  const found = data.find((m) => m.id === id);
  if (found) return { status: 200, headers, json: found };
  return renderAnthropicError({ status: 404, message: `model: ${id}`, type: 'not_found_error', headers: {} });
}

/**
 * Gemini's `{ models: Model[] }` (names as `models/{id}`), or one `Model`, or a 404 `NOT_FOUND`.
 * @example
 *   renderGeminiModels(null, ['gemini-2.5-flash']).json // { models: [{ name: 'models/gemini-2.5-flash', ... }] }
 */
export function renderGeminiModels(id: string | null, models: readonly string[], apiVersion = 'v1beta'): RenderedResponse {
  const data = unique(models).map((m) => {
    const bare = m.replace(/^models\//, '');
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
  });
  if (id === null) return { status: 200, headers: {}, json: { models: data } };
  const bare = id.replace(/^models\//, '');
  const found = data.find((m) => m.name === `models/${bare}`);
  if (found) return { status: 200, headers: {}, json: found };
  return renderGoogleError({
    status: 404,
    message: `models/${bare} is not found for API version ${apiVersion}, or is not supported for this method.`,
    headers: {},
  });
}
