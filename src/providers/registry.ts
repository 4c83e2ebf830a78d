/**
 * The adapters the mock serves, in routing order: a request goes to the first adapter whose
 * `routes(method, path)` holds. Each provider adds one line here.
 */
import type { ProviderAdapter } from './adapter.ts';
import { anthropicAdapter } from './anthropic.ts';
import { geminiEmbeddingsAdapter } from './gemini-embeddings.ts';
import { geminiAdapter } from './gemini.ts';
import { openAIChatAdapter } from './openai-chat.ts';
import { openAIEmbeddingsAdapter } from './openai-embeddings.ts';
import { openAIResponsesAdapter } from './openai-responses.ts';

/**
 * A fresh list of every built-in adapter.
 * @example
 *   const adapter = defaultAdapters().find((a) => a.routes('POST', '/v1/chat/completions'));
 */
export function defaultAdapters(): ProviderAdapter[] {
  return [
    openAIChatAdapter(),
    openAIResponsesAdapter(),
    anthropicAdapter(),
    geminiAdapter(),
    openAIEmbeddingsAdapter(),
    geminiEmbeddingsAdapter(),
  ];
}

/**
 * The adapter that serves a method and path, or undefined.
 * @example
 *   findAdapter(defaultAdapters(), 'POST', '/v1/chat/completions')?.id // 'openai'
 */
export function findAdapter(adapters: readonly ProviderAdapter[], method: string, path: string): ProviderAdapter | undefined {
  return adapters.find((a) => a.routes(method, path));
}
