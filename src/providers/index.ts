/**
 * The providers folder's public face: the adapter seam, the built-in adapters (one folder per
 * wire API), the registry that lists them, the router that picks one per request, and the
 * readers goldens use on recorded traffic.
 */
export { BadRequestError, requestWith } from './adapter.ts';
export type { DirectAnswer, Framing, IncomingRequest, MintedReplay, ModelCatalog, ProviderAdapter, RenderedResponse, RenderedStream, RouteRequest, ServedAnswer, StreamErrorContext } from './adapter.ts';
export type { ToolCallIdShape } from './common/ids.ts';
export { defaultAdapters, providerCredentials, providerHostMatcher, providerOrigins, PROVIDER_IDS } from './registry.ts';
export type { ProviderId } from './registry.ts';
export { ProviderRouter } from './router.ts';
export type { RouteResult } from './router.ts';
export { RecordedWires } from './recorded.ts';
export type { RecordedWire } from './recorded.ts';
export type { AnswerView, MessageView, RecordedFrame, StreamErrorView, WireReader } from './common/views.ts';
export { dropVolatile, type VolatileField } from './common/volatile-fields.ts';
export { errorMessage } from './common/views.ts';
export { hostPattern } from './common/host-pattern.ts';
export { splitFrames, framingOfContentType } from './common/framing.ts';
export { embeddingModel } from './common/embedding-models.ts';
export { openAIChatAdapter } from './openai-chat/index.ts';
export { openAIResponsesAdapter } from './openai-responses/index.ts';
export type { ResponsesAdapterOptions } from './openai-responses/index.ts';
export { anthropicAdapter } from './anthropic/index.ts';
export { geminiAdapter } from './gemini/index.ts';
export { openAIEmbeddingsAdapter } from './openai-embeddings/index.ts';
export { geminiEmbeddingsAdapter } from './gemini-embeddings/index.ts';
export { azureOpenAIAdapter } from './azure-openai/index.ts';
export { vertexGeminiAdapter } from './vertex-gemini/index.ts';
export { vertexAnthropicAdapter } from './vertex-anthropic/index.ts';
export { vertexEmbeddingsAdapter } from './vertex-embeddings/index.ts';
export { PROVIDER_ORIGINS, PROVIDER_HOST_PATTERNS } from './origins.ts';
export { ProviderUpstreams, baseUrlEnv } from './upstream.ts';
export type { ProviderUpstream } from './upstream.ts';
export { openAIRealtimeAdapter } from './openai-realtime/index.ts';
export { geminiLiveAdapter } from './gemini-live/index.ts';
export { realtimeAdapters, realtimeAdapterFor, realtimeUrls } from './realtime-registry.ts';
export type { RealtimeAdapter, RealtimeError, RealtimeLink, RealtimeOpen, RealtimeSession } from './realtime-adapter.ts';
export type { ServedSeal } from './common/served-seal.ts';
