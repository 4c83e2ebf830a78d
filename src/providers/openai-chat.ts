/**
 * The OpenAI Chat Completions adapter: `POST /v1/chat/completions`.
 * Parsing lives in openai-chat-parse.ts, rendering in openai-chat-render.ts, the error shape in
 * openai-chat-error.ts (shared with the other OpenAI APIs).
 */
import type { IncomingRequest, ProviderAdapter, RenderedResponse } from './adapter.ts';
import { openAIAuthError, renderOpenAIError } from './openai-chat-error.ts';
import { parseChatRequest } from './openai-chat-parse.ts';
import { ChunkCache, renderChat } from './openai-chat-render.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../scenario/canonical.ts';

/**
 * Creates the Chat Completions adapter.
 * @example
 *   const adapter = openAIChatAdapter();
 *   adapter.routes('POST', '/v1/chat/completions'); // true
 */
export function openAIChatAdapter(): ProviderAdapter {
  const chunks = new ChunkCache();
  return {
    id: 'openai',
    // Clients configured with a base URL without `/v1` (some proxies) post to /chat/completions.
    routes: (method: string, path: string) => method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions'),
    authenticate: (req: IncomingRequest) => openAIAuthError(req.headers),
    parse: (req: IncomingRequest) => parseChatRequest(req),
    render: (response: CanonicalResponse, request: CanonicalRequest): RenderedResponse => renderChat(response, request, chunks),
    renderError: (error: CanonicalError): RenderedResponse => renderOpenAIError(error),
  };
}
