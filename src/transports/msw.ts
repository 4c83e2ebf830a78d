/**
 * MSW request handlers over a MockLLM: the three providers' default hosts plus any base URL
 * given. They compose with the user's own handlers: put them in the same `setupServer(...)`.
 */
import { http, type RequestHandler } from 'msw';
import type { HandleOptions } from './handle.ts';
import { PROVIDER_ORIGIN_PATTERNS, PROVIDER_ORIGINS } from '../providers/origins.ts';

/** Anything that answers Fetch requests like a MockLLM. */
export interface HandlesRequests {
  handle(request: Request, options?: HandleOptions): Promise<Response>;
}

export interface MockLLMHandlersOptions {
  /**
   * More base URLs to answer (a gateway, a self-hosted endpoint, a local port), without the
   * API version: `https://gateway.example/openai` serves `https://gateway.example/openai/v1/...`.
   */
  baseUrls?: string[];
  /** Also answer the providers' default hosts (default true). */
  defaultHosts?: boolean;
}

/**
 * The answer when no mock is active: a 404 the SDKs do not retry (`x-should-retry: false`),
 * saying what to do, rather than MSW's generic 500.
 */
function noMockResponse(request: Request): Response {
  const message = `ghostwire: no mock LLM is active for ${request.method} ${request.url} (call useMockLLM() in this test)`;
  return new Response(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'no_active_mock' } }), {
    status: 404,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
  });
}

/**
 * Handlers that resolve the mock per request (how `useMockLLM` routes each test to its own mock).
 * When `resolve` finds none the request fails with that message: a matched MSW handler that
 * returns nothing would pass the request through to the real network.
 */
export function mockLLMHandlersFor(resolve: () => HandlesRequests | undefined, options: MockLLMHandlersOptions = {}): RequestHandler[] {
  const bases = [...(options.defaultHosts === false ? [] : [...PROVIDER_ORIGINS, ...PROVIDER_ORIGIN_PATTERNS]), ...(options.baseUrls ?? [])];
  return bases.map((base) => {
    // A host pattern (`bedrock-runtime.*.amazonaws.com`) is an MSW wildcard, not a parseable origin.
    const url = base.includes('*') ? { origin: base, pathname: '' } : new URL(base);
    const prefix = url.pathname.replace(/\/+$/, '');
    return http.all(`${url.origin}${prefix}/*`, ({ request }) => {
      const mock = resolve();
      if (!mock) return noMockResponse(request);
      const path = new URL(request.url).pathname.slice(prefix.length) || '/';
      return mock.handle(request, { path });
    });
  });
}

/**
 * MSW handlers answering the providers' default hosts (and `baseUrls`) from a MockLLM.
 * @example
 *   const mock = createMockLLM({ scenarios });
 *   const server = setupServer(...mockLLMHandlers(mock), ...myOwnHandlers);
 *   server.listen({ onUnhandledRequest: 'error' });
 */
export function mockLLMHandlers(mock: HandlesRequests, options: MockLLMHandlersOptions = {}): RequestHandler[] {
  return mockLLMHandlersFor(() => mock, options);
}
