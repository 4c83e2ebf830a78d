/**
 * The Gemini adapter: `POST /{v1,v1beta}/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse` and `:countTokens`, plus Gemini's model listing.
 */
import type { DirectAnswer, IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import { requestWith } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { estimateInputTokens } from '../../scenario/tokens.ts';
import { geminiRoute, googleInvalid, parseGeminiRequest } from './parse.ts';
import { isObject, parseJsonObject } from '../common/wire-json.ts';
import {
  GOOGLE_JSON_HEADERS,
  GOOGLE_STREAM_HEADERS,
  geminiTemplateKey,
  geminiThinkingView,
  geminiThinks,
  renderGeminiResponse,
  renderGeminiStream,
  geminiStreamErrorFrame,
  renderGoogleError,
} from './render.ts';
import { GeminiThoughts } from './thoughts.ts';
import { geminiMintedReplay } from './minted-replay.ts';
import { isGeminiModelsRoute, renderGeminiModels } from './models.ts';
import { geminiReader } from './reader.ts';
import { jsonOrStream } from '../common/rendered.ts';
import { withReasoningUsage } from '../common/reasoning-usage.ts';
import type { ResponseIdShape, ToolCallIdShape } from '../common/ids.ts';
import { ToolListMemo } from '../common/tool-list-memo.ts';

const GENERATE_METHODS = new Set(['generateContent', 'streamGenerateContent']);

/** The host the Gemini Developer API answers on. */
export const GOOGLE_AI_HOSTS: readonly string[] = ['generativelanguage.googleapis.com'];

/** Google's clients send their key in `x-goog-api-key` or `?key=`, or an OAuth bearer token. */
export const GOOGLE_CREDENTIALS = { headers: ['x-goog-api-key', 'authorization'], query: ['key'] } as const;

/** Google's clients send their key in `x-goog-api-key` or `?key=`, and `x-goog-api-client`. */
export function googleClient(req: RouteRequest): boolean {
  return req.headers.has('x-goog-api-key') || req.headers.has('x-goog-api-client') || req.url.searchParams.has('key');
}

/**
 * The presence check Google's API does: an `x-goog-api-key` header or a `?key=` query parameter
 * (or OAuth `Authorization: Bearer`, as Vertex-style clients send).
 * @example
 *   googleAuthError(req) // null when `x-goog-api-key` is present
 */
export function googleAuthError(req: IncomingRequest): CanonicalError | null {
  const key = req.headers.get('x-goog-api-key')?.trim() || req.url.searchParams.get('key')?.trim();
  if (key || /^Bearer\s+\S+/i.test(req.headers.get('authorization') ?? '')) return null;
  return {
    status: 403,
    message:
      'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.',
    headers: {},
  };
}

/**
 * `models/{model}:countTokens` → `{ totalTokens, promptTokensDetails }`, the engine's estimate for the
 * same contents. The body holds `contents`, or a whole `generateContentRequest` (system instruction
 * and tools included), as the API accepts either.
 */
function countTokens(req: IncomingRequest): DirectAnswer {
  const body = parseJsonObject(req.bodyText);
  const inner = body.generateContentRequest ?? body.generate_content_request;
  if (inner !== undefined && !isObject(inner)) throw googleInvalid('generate_content_request', 'a GenerateContentRequest object', inner);
  const request = parseGeminiRequest(requestWith(req, { bodyText: inner === undefined ? req.bodyText : JSON.stringify(inner) }));
  const totalTokens = estimateInputTokens(request);
  const json = { totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] };
  return { rendered: { status: 200, headers: { ...GOOGLE_JSON_HEADERS }, json }, request };
}

/**
 * Gemini's function call ids: 8 of [a-z0-9] (`46ww9pp1`, as the API answers Gemini 3 models; the SDK's
 * `FunctionCall.id` is optional, and a client sends it back in `FunctionResponse.id`).
 */
export const GEMINI_TOOL_CALL_IDS: ToolCallIdShape = { prefix: '', length: 8, alphabet: 'lower' };

/** `responseId`: 22 of URL-safe base64, no prefix (an encoded event id, e.g. `UxQ6aM_sKbjFnvgPocrJaA`). */
export const GEMINI_RESPONSE_IDS: ResponseIdShape = { prefix: '', length: 22, alphabet: 'base64url' };

/**
 * A Gemini answer, JSON or SSE, with the thinking the request asks for (Vertex's answers too).
 * @example
 *   renderGemini(response, request, thoughts).status // 200
 */
export function renderGemini(answer: CanonicalResponse, request: CanonicalRequest, thoughts: GeminiThoughts | undefined): RenderedResponse {
  // No thoughts counted where the model does not think (thinkingBudget 0): candidates only.
  const response = withReasoningUsage(answer, geminiThinks(request));
  const view = geminiThinkingView(response, request, thoughts);
  const headers = { ...GOOGLE_JSON_HEADERS, ...(request.stream ? GOOGLE_STREAM_HEADERS : {}), ...response.headers };
  return jsonOrStream(response, request, headers, () => renderGeminiResponse(response, view), () => renderGeminiStream(response, view));
}

/**
 * Creates the adapter serving the Gemini Developer API as `@google/genai` calls it
 * (v1 by default, v1beta for older clients).
 * @example
 *   geminiAdapter().routes({ method: 'POST', path: '/v1/models/gemini-2.5-flash:generateContent', url, headers }); // true
 */
export function geminiAdapter(): ProviderAdapter<GeminiThoughts> & { id: 'gemini' } {
  // The adapter's own: tool lists are shared by text, whichever mock of the server parses them.
  const tools = new ToolListMemo();
  return {
    id: 'gemini',
    hosts: GOOGLE_AI_HOSTS,
    credentials: GOOGLE_CREDENTIALS,
    framing: 'sse',
    routes(req: RouteRequest): boolean {
      if (req.method !== 'POST') return isGeminiModelsRoute(req);
      const route = geminiRoute(req.path);
      return route !== null && (GENERATE_METHODS.has(route.method) || route.method === 'countTokens');
    },
    recognizes: googleClient,
    authenticate: (req: IncomingRequest) => googleAuthError(req),
    // endsWith, not the route regex again: generate requests pass here too.
    answerWithoutStep: (req: IncomingRequest): DirectAnswer | null => (req.path.endsWith(':countTokens') ? countTokens(req) : null),
    toolCallIds: () => GEMINI_TOOL_CALL_IDS,
    responseIds: () => GEMINI_RESPONSE_IDS,
    // Each mock's signing key: the thought signatures it mints, and checks when they come back.
    createState: () => new GeminiThoughts(),
    mintedReplay: geminiMintedReplay,
    parse: (req: IncomingRequest, thoughts: GeminiThoughts) => parseGeminiRequest(req, thoughts, 'gemini', tools),
    render: (response: CanonicalResponse, request: CanonicalRequest, thoughts: GeminiThoughts): RenderedResponse => renderGemini(response, request, thoughts),
    // The thinking settings; answers carrying a signature (sealed by this mock) are rendered each time.
    templateKey: geminiTemplateKey,
    renderError: (error: CanonicalError): RenderedResponse => renderGoogleError(error),
    renderStreamError: (error: CanonicalStreamError) => [geminiStreamErrorFrame(error)],
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => renderGeminiModels(req, catalog),
    reader: geminiReader,
  };
}
