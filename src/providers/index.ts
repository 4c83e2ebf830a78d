/**
 * The providers folder's public face: the adapter seam, the built-in adapters (one per wire API)
 * and the registry that lists them in routing order.
 */
export { BadRequestError } from './adapter.ts';
export type { DirectAnswer, IncomingRequest, ProviderAdapter, RenderedResponse } from './adapter.ts';
export { defaultAdapters, findAdapter } from './registry.ts';
export { openAIChatAdapter } from './openai-chat.ts';
export { openAIResponsesAdapter } from './openai-responses.ts';
export type { ResponsesAdapterOptions } from './openai-responses.ts';
export { anthropicAdapter } from './anthropic.ts';
export { geminiAdapter } from './gemini.ts';
export { openAIEmbeddingsAdapter } from './openai-embeddings.ts';
export { geminiEmbeddingsAdapter } from './gemini-embeddings.ts';
export { modelsRequest } from './models-list.ts';
export { PROVIDER_ORIGINS } from './origins.ts';
export type { ModelsProvider, ModelsRequest } from './models-list.ts';
