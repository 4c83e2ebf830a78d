/**
 * The Azure OpenAI adapter, as the `AzureOpenAI` client of `openai` calls it: Chat Completions and
 * embeddings under `/openai/deployments/{deployment}/…?api-version=…`, Responses at
 * `/openai/responses`, and the v1 form `/openai/v1/…`, on `{resource}.openai.azure.com` and
 * `{resource}.cognitiveservices.azure.com`. The key comes as `api-key` (or an Entra ID token as
 * `Authorization: Bearer`). The OpenAI adapters parse and render; this one maps paths, adds Azure's
 * content-filter annotations and answers errors in Azure's shape. Chat and Responses requests are
 * provider `azure-openai`; embeddings are `embeddings`, as every embeddings API.
 */
import type { DirectAnswer, IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, StreamErrorContext } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { openAIChatAdapter } from '../openai-chat/index.ts';
import { chatTemplateKey, renderChatChunks, renderChatCompletion } from '../openai-chat/render.ts';
import { openAIChatReader } from '../openai-chat/reader.ts';
import { openAIEmbeddingsAdapter } from '../openai-embeddings/index.ts';
import { openAIResponsesAdapter } from '../openai-responses/index.ts';
import type { ResponsesState } from '../openai-responses/state.ts';
import { openAIResponsesReader } from '../openai-responses/reader.ts';
import { jsonOrStream } from '../common/rendered.ts';
import { bodyModel, type WireReader } from '../common/views.ts';
import { asOpenAIRequest, AZURE_OPENAI_HOSTS, azureRoute, isAzureRoute, saysAzure, type AzureRoute } from './routes.ts';
import { AZURE_ACCESS_DENIED, azureChatFrames, renderAzureError, withContentFilters } from './render.ts';
import { OPENAI_CHAT_RESPONSE_IDS, OPENAI_TOOL_CALL_IDS, type RandomBytes } from '../common/ids.ts';


function authenticate(req: IncomingRequest): CanonicalError | null {
  if (req.headers.get('api-key')?.trim() || /^\s*Bearer\s+\S/i.test(req.headers.get('authorization') ?? '')) return null;
  return { status: 401, message: AZURE_ACCESS_DENIED, code: '401', headers: {} };
}

/** Recorded Azure traffic reads as the OpenAI API it speaks; the model comes from the deployment when the body names none. */
const reader: WireReader = {
  conversational: true,
  volatileRequest: openAIResponsesReader.volatileRequest,
  model: (path, body) => bodyModel(body) ?? azureRoute(path)?.deployment ?? null,
  messages: (body: any) => (Array.isArray(body?.messages) ? openAIChatReader.messages(body) : openAIResponsesReader.messages(body)),
  answer: (body: any) => (body?.object === 'response' ? openAIResponsesReader.answer(body) : openAIChatReader.answer(body)),
  streamedAnswer: (frames) =>
    frames.some((f) => typeof f === 'string' && f.startsWith('event: response.')) ? openAIResponsesReader.streamedAnswer(frames) : openAIChatReader.streamedAnswer(frames),
  errorMessage: openAIChatReader.errorMessage,
};

/**
 * Creates the Azure OpenAI adapter. Its state is its Responses API's: each mock's stored responses.
 * @example
 *   azureOpenAIAdapter().routes({ method: 'POST', path: '/openai/deployments/gpt-4o/chat/completions', url, headers }); // true
 */
export function azureOpenAIAdapter(): ProviderAdapter<ResponsesState> & { id: 'azure-openai' } {
  const chat = openAIChatAdapter();
  const responses = openAIResponsesAdapter();
  const embeddings = openAIEmbeddingsAdapter();
  // Only the Responses API keeps state; the others ignore what they are handed.
  const inner = (route: AzureRoute): Pick<ProviderAdapter<ResponsesState>, 'parse'> => (route.api === 'embeddings' ? embeddings : route.api === 'responses' ? responses : chat);
  return {
    id: 'azure-openai',
    hosts: AZURE_OPENAI_HOSTS,
    credentials: { headers: ['api-key', 'authorization'], query: [] },
    framing: 'sse',
    routes: isAzureRoute,
    /** Azure's key header or `api-version` query (an Entra token is a plain bearer). */
    recognizes: saysAzure,
    authenticate,
    createState: () => responses.createState!(),
    mintedReplay: responses.mintedReplay,
    listModels(req: IncomingRequest, catalog: ModelCatalog): RenderedResponse | null {
      const route = azureRoute(req.path);
      return route?.api === 'models' ? chat.listModels!(asOpenAIRequest(req, route), catalog) : null;
    },
    answerWithoutStep(req: IncomingRequest, store: ResponsesState): DirectAnswer | null {
      const route = azureRoute(req.path);
      if (route?.api !== 'responses' || req.method === 'POST') return null;
      return responses.answerWithoutStep!(asOpenAIRequest(req, route), store);
    },
    toolCallIds: () => OPENAI_TOOL_CALL_IDS,
    responseIds: () => OPENAI_CHAT_RESPONSE_IDS,
    parse(req: IncomingRequest, store: ResponsesState): CanonicalRequest {
      const route = azureRoute(req.path)!;
      const canonical = inner(route).parse(asOpenAIRequest(req, route), store);
      const provider = route.api === 'embeddings' ? 'embeddings' : 'azure-openai';
      return { ...canonical, provider, path: req.path };
    },
    render(response: CanonicalResponse, request: CanonicalRequest, store: ResponsesState, random?: RandomBytes): RenderedResponse {
      const route = azureRoute(request.path);
      // A request parsed elsewhere (no Azure path) renders as chat, the API most clients call.
      if (route !== null && route.api !== 'chat') return (route.api === 'embeddings' ? embeddings : responses).render(response, request, store, random);
      return jsonOrStream(
        response,
        request,
        { ...response.headers },
        () => withContentFilters(renderChatCompletion(response, request)),
        () => azureChatFrames(renderChatChunks(response, request).frames()),
      );
    },
    // Each API's own key (its rendering is that API's, content filters being fixed); `chat` beside Chat's.
    templateKey(response: CanonicalResponse, request: CanonicalRequest, state: ResponsesState): string | undefined {
      const route = azureRoute(request.path);
      if (route === null || route.api === 'chat') return `chat${chatTemplateKey(request)}`;
      const key = (route.api === 'embeddings' ? embeddings : responses).templateKey?.(response, request, state);
      return key === undefined ? undefined : `${route.api}${key}`;
    },
    templated(response: CanonicalResponse, request: CanonicalRequest, state: ResponsesState, random: RandomBytes): void {
      if (azureRoute(request.path)?.api === 'responses') responses.templated!(response, request, state, random);
    },
    renderError: (error: CanonicalError): RenderedResponse => renderAzureError(error),
    // Azure streams OpenAI's own error frames: Chat's `data: {"error":…}`, Responses' `error` event.
    renderStreamError(error: CanonicalStreamError, context: StreamErrorContext) {
      return (azureRoute(context.request.path)?.api === 'responses' ? responses : chat).renderStreamError!(error, context);
    },
    reader,
  };
}
