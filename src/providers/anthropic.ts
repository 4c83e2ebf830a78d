/**
 * The Anthropic Messages adapter: `POST /v1/messages` (JSON or SSE), `POST /v1/messages/count_tokens`
 * and Anthropic's model listing.
 */
import type { DirectAnswer, IncomingRequest, ProviderAdapter, RenderedResponse } from './adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse } from '../scenario/canonical.ts';
import { estimateInputTokens } from '../scenario/tokens.ts';
import { parseAnthropicRequest } from './anthropic-parse.ts';
import {
  mintAnthropicRequestId,
  renderAnthropicError,
  renderAnthropicMessage,
  renderAnthropicStream,
} from './anthropic-render.ts';
import { modelsRequest, renderAnthropicModels } from './models-list.ts';
import { jsonOrSse } from './rendered.ts';

const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

function authError(status: number, type: string, message: string): CanonicalError {
  return { status, type, message, headers: {} };
}

/**
 * Creates the adapter serving Anthropic's Messages API as `@anthropic-ai/sdk` calls it.
 * @example
 *   const adapter = anthropicAdapter();
 *   adapter.routes('POST', '/v1/messages'); // true
 */
export function anthropicAdapter(): ProviderAdapter {
  const authenticate = (req: IncomingRequest): CanonicalError | null => {
    const key = req.headers.get('x-api-key')?.trim();
    const bearer = /^Bearer\s+\S+/i.test(req.headers.get('authorization') ?? '');
    if (!key && !bearer) return authError(401, 'authentication_error', 'x-api-key header is required');
    if (!req.headers.get('anthropic-version')?.trim()) {
      return authError(400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    return null;
  };
  return {
    id: 'anthropic',
    routes: (method: string, path: string) =>
      method === 'POST' && (path === '/v1/messages' || path === '/v1/messages/' || path === COUNT_TOKENS_PATH),
    authenticate,
    /** `POST /v1/messages/count_tokens` → `{ input_tokens }`, the engine's estimate for the same request. */
    answerWithoutStep(req: IncomingRequest): DirectAnswer | null {
      if (req.path !== COUNT_TOKENS_PATH) return null;
      const request = parseAnthropicRequest(req, { countTokens: true });
      const json = { input_tokens: estimateInputTokens(request) };
      return { rendered: { status: 200, headers: { 'request-id': mintAnthropicRequestId() }, json }, request };
    },
    parse: (req: IncomingRequest) => parseAnthropicRequest(req),
    render(response: CanonicalResponse, request: CanonicalRequest): RenderedResponse {
      const headers = { 'request-id': mintAnthropicRequestId(), ...response.headers };
      return jsonOrSse(response, request, headers, () => renderAnthropicMessage(response, request), () => renderAnthropicStream(response, request));
    },
    renderError: (error: CanonicalError): RenderedResponse => renderAnthropicError(error),
    /** `GET /v1/models[/{id}]` from an Anthropic client; null for anyone else's listing. */
    listModels(req: IncomingRequest, models: readonly string[]): RenderedResponse | null {
      const listing = modelsRequest(req);
      if (listing?.provider !== 'anthropic') return null;
      const denied = authenticate(req);
      if (denied) return renderAnthropicError(denied);
      return renderAnthropicModels(listing.id, models);
    },
  };
}
