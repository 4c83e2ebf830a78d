/**
 * The OpenAI Chat Completions adapter: `POST /v1/chat/completions` (with or without `/v1`), and
 * OpenAI's model listing. Parsing lives in parse.ts, rendering in render.ts, the error shape in
 * ../openai-shared (shared with the other OpenAI APIs).
 */
import type { IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import { openAIAuthError, openAIStreamErrorObject, renderOpenAIError } from '../openai-shared/error.ts';
import { OPENAI_CREDENTIALS, OPENAI_HOSTS } from '../openai-shared/hosts.ts';
import { isOpenAIModelsRoute, renderOpenAIModels } from '../openai-shared/models.ts';
import { parseChatRequest } from './parse.ts';
import { openAIChatReader } from './reader.ts';
import { chatTemplateKey, renderChat } from './render.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { sseFrame } from '../common/sse.ts';
import { OPENAI_CHAT_RESPONSE_IDS, OPENAI_TOOL_CALL_IDS } from '../common/ids.ts';
import { ToolListMemo } from '../common/tool-list-memo.ts';

/**
 * Creates the Chat Completions adapter.
 * @example
 *   const adapter = openAIChatAdapter();
 *   adapter.routes({ method: 'POST', path: '/v1/chat/completions', url, headers }); // true
 */
export function openAIChatAdapter(): ProviderAdapter & { id: 'openai' } {
  // The adapter's own: tool lists are shared by text, whichever mock of the server parses them.
  const tools = new ToolListMemo();
  return {
    id: 'openai',
    hosts: OPENAI_HOSTS,
    credentials: OPENAI_CREDENTIALS,
    framing: 'sse',
    // Clients configured with a base URL without `/v1` (some proxies) post to /chat/completions.
    routes: (req: RouteRequest) =>
      (req.method === 'POST' && (req.path === '/v1/chat/completions' || req.path === '/chat/completions')) || isOpenAIModelsRoute(req),
    authenticate: (req: IncomingRequest) => openAIAuthError(req.headers),
    toolCallIds: () => OPENAI_TOOL_CALL_IDS,
    responseIds: () => OPENAI_CHAT_RESPONSE_IDS,
    parse: (req: IncomingRequest) => parseChatRequest(req, tools),
    // The body, the path and the headers make the canonical request; no state is read.
    repeatableParse: true,
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse => renderChat(response, request),
    // Streams come from templates; a JSON answer is already assembled as text from fixed parts
    // (chatCompletionText), cheaper than keying a template (measured: 11 vs 22 µs an answer in-process).
    templateKey: (_response: CanonicalResponse, request: CanonicalRequest) => (request.stream ? chatTemplateKey(request) : undefined),
    renderError: (error: CanonicalError): RenderedResponse => renderOpenAIError(error),
    // A chunk carrying `error` instead of choices: the SDK's Stream throws it as an APIError.
    renderStreamError: (error: CanonicalStreamError) => [sseFrame({ error: openAIStreamErrorObject(error) })],
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => renderOpenAIModels(req, catalog),
    reader: openAIChatReader,
  };
}
