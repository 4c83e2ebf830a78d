/**
 * The Mistral adapter (`@mistralai/mistralai`): `POST /v1/chat/completions` (JSON or SSE),
 * `POST /v1/embeddings` and `GET /v1/models[/{id}]` on `api.mistral.ai`. The paths are OpenAI's, so
 * on a shared host (the real port) a request is Mistral's when its client says so: the SDK's
 * user-agent (`mistral-client-typescript/…`).
 */
import type { IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest, StreamErrorContext } from '../adapter.ts';
import { mintRequestId } from '../common/ids.ts';
import { decodeSegment, listedModels, MODELS_CREATED, retrievable } from '../common/models.ts';
import { jsonOrStream } from '../common/rendered.ts';
import { mistralReader as reader } from './reader.ts';
import { base64Vector } from '../openai-embeddings/index.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { parseMistralChat, parseMistralEmbeddings } from './parse.ts';
import { mistralStreamErrorFrames, renderMistralChunks, renderMistralCompletion, renderMistralEmbeddings, renderMistralError } from './render.ts';
import { isMistralToolId, MistralToolIds } from './tool-ids.ts';
import type { ResponseIdShape, ToolCallIdShape } from '../common/ids.ts';

const CHAT = new Set(['/v1/chat/completions', '/chat/completions']);
const EMBEDDINGS = new Set(['/v1/embeddings', '/embeddings']);
const MODELS_PATH = /^(?:\/v1)?\/models(?:\/([^/]+))?\/?$/;

const modelCard = (id: string) => ({
  id,
  object: 'model',
  created: MODELS_CREATED,
  owned_by: 'mistralai',
  capabilities: { completion_chat: !/embed/.test(id), function_calling: !/embed/.test(id) },
  name: id,
  description: `ghostwire mock of ${id}`,
  max_context_length: 131_072,
  aliases: [],
  deprecation: null,
  default_model_temperature: 0.3,
  type: 'base',
});

function listModels(req: IncomingRequest, catalog: ModelCatalog, error: (e: CanonicalError) => RenderedResponse): RenderedResponse | null {
  const match = req.method === 'GET' ? MODELS_PATH.exec(req.path) : null;
  if (!match) return null;
  if (match[1] === undefined) return { status: 200, headers: {}, json: { object: 'list', data: listedModels(catalog).map(modelCard) } };
  const id = decodeSegment(match[1]) ?? match[1];
  if (retrievable(catalog, id, ['mistral', 'embeddings'])) return { status: 200, headers: {}, json: modelCard(id) };
  return error({ status: 404, message: `Model '${id}' not found`, type: 'invalid_model', code: '1500', headers: {} });
}

/** Mistral's tool call ids: 9 of [A-Za-z0-9] (its API refuses any other in a request). */
const MISTRAL_TOOL_CALL_IDS: ToolCallIdShape = { prefix: '', length: 9 };
/** Completion ids: 32 hex digits, no prefix (the SDK's own test fixtures). */
const MISTRAL_RESPONSE_IDS: ResponseIdShape = { prefix: '', length: 32, alphabet: 'hex' };

/**
 * Creates the Mistral adapter. Its state is each mock's map of the tool-call ids it minted.
 * @example
 *   mistralAdapter().hosts // ['api.mistral.ai']
 */
export function mistralAdapter(): ProviderAdapter<MistralToolIds> & { id: 'mistral' } {
  const renderError = (error: CanonicalError): RenderedResponse => renderMistralError(error, mintRequestId().slice(4));
  return {
    id: 'mistral',
    hosts: ['api.mistral.ai'],
    credentials: { headers: ['authorization'], query: [] },
    framing: 'sse',
    routes: ({ method, path }: RouteRequest) => (method === 'POST' && (CHAT.has(path) || EMBEDDINGS.has(path))) || (method === 'GET' && MODELS_PATH.test(path)),
    /** The SDK's user-agent: `mistral-client-typescript/2.x` (older builds: `speakeasy-sdk/… @mistralai/mistralai`). */
    // Asked of every request on the paths Mistral shares with OpenAI: string tests, not a regex.
    recognizes: (req: RouteRequest) => {
      const agent = req.headers.get('user-agent') ?? '';
      return agent.startsWith('mistral-client-') || agent.includes('@mistralai/mistralai');
    },
    authenticate: (req: IncomingRequest) =>
      /^\s*Bearer\s+\S/i.test(req.headers.get('authorization') ?? '') ? null : { status: 401, message: 'Unauthorized', headers: {} },
    createState: () => new MistralToolIds(),
    toolCallIds: () => MISTRAL_TOOL_CALL_IDS,
    responseIds: () => MISTRAL_RESPONSE_IDS,
    parse: (req: IncomingRequest, ids: MistralToolIds) => (EMBEDDINGS.has(req.path) ? parseMistralEmbeddings(req) : parseMistralChat(req, ids)),
    render(response: CanonicalResponse, request: CanonicalRequest, ids: MistralToolIds): RenderedResponse {
      if (request.provider === 'embeddings') {
        const base64 = request.params.encoding_format === 'base64';
        return { status: 200, headers: { ...response.headers }, json: renderMistralEmbeddings(response, request, (v) => (base64 ? base64Vector(v) : v)) };
      }
      return jsonOrStream(response, request, { ...response.headers }, () => renderMistralCompletion(response, ids, request), () => renderMistralChunks(response, ids, request));
    },
    // What rendering reads of the request: the API (chat, or embeddings without vectors: answers with
    // vectors are rendered each time), the reasoning effort. A call id of another shape is mapped to one
    // in this mock's state: rendered each time.
    templateKey: (response: CanonicalResponse, request: CanonicalRequest): string | undefined =>
      response.toolCalls.every((c) => isMistralToolId(c.id))
        ? JSON.stringify([request.provider, (request.raw as { reasoning_effort?: unknown } | null)?.reasoning_effort ?? null])
        : undefined,
    renderError,
    renderStreamError: (_error: CanonicalStreamError, { response, request }: StreamErrorContext) => mistralStreamErrorFrames(response, request),
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => listModels(req, catalog, renderError),
    reader,
  };
}
