/**
 * MSW request handlers over a MockLLM: the three providers' default hosts plus any base URL
 * given. They compose with the user's own handlers: put them in the same `setupServer(...)`.
 */
import { http, type RequestHandler } from 'msw';
import type { HandleOptions } from './handle.ts';
import { isProviderPatternHost, PROVIDER_ORIGINS } from '../providers/origins.ts';
import { isRealtimePath } from './realtime.ts';

/**
 * What a WebSocket upgrade MSW hands over as an HTTP request gets: msw 3 completes the handshake
 * of clients on the `ws` package (the openai SDK's OpenAIRealtimeWS, @google/genai on Node) but
 * carries none of their frames, so instead of a socket that never answers, a 501 naming the ways
 * that work (docs/realtime.md).
 */
export function realtimeUpgradeRefusal(request: Request): string | undefined {
  if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket' || !isRealtimePath(new URL(request.url).pathname)) return undefined;
  return (
    `ghostwire: ${request.url.split('?')[0]} was opened with a WebSocket client on the \`ws\` package, whose frames MSW does not carry in-process. ` +
    "Use the SDK's global-WebSocket client (openai's OpenAIRealtimeWebSocket, @google/genai/web), or startMockLLMServer() from 'ghostwire/server' (see docs/realtime.md)."
  );
}

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

/** A mock's place on the wire: which requests it claims (by URL only, no body read) and how it answers. */
export interface MockRoute {
  claims(request: Request): boolean;
  handle(request: Request): Promise<Response>;
}

/** The base URLs a mock answers, as origin + path prefix. */
function basesOf(options: MockLLMHandlersOptions): Array<{ origin: string; prefix: string }> {
  return [...(options.defaultHosts === false ? [] : PROVIDER_ORIGINS), ...(options.baseUrls ?? [])].map((base) => {
    const url = new URL(base);
    return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
  });
}

/**
 * The route of one mock: the providers' default hosts and `baseUrls`, the path under the base handed
 * to the mock. How `useMockLLM` and the `mockLLM` fixture put a mock on the worker's MSW server.
 * @example const route = mockLLMRoute(mock, { baseUrls: ['http://gateway.test/openai'] })
 */
export function mockLLMRoute(mock: HandlesRequests, options: MockLLMHandlersOptions = {}): MockRoute {
  const bases = basesOf(options);
  const patterned = options.defaultHosts !== false;
  const find = (request: Request) => {
    const url = new URL(request.url);
    const base = bases.find(({ origin, prefix }) => url.origin === origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)));
    if (base) return url.pathname.slice(base.prefix.length) || '/';
    // Hosts named by a resource or region (`contoso.openai.azure.com`) have no single origin.
    return patterned && isProviderPatternHost(url.host) ? url.pathname : undefined;
  };
  return {
    claims: (request) => find(request) !== undefined,
    handle: (request) => {
      const refusal = realtimeUpgradeRefusal(request);
      if (refusal) return Promise.resolve(Response.json({ error: { message: refusal, type: 'invalid_request_error', param: null, code: 'ghostwire_ws_package' } }, { status: 501 }));
      return mock.handle(request, { path: find(request) ?? new URL(request.url).pathname });
    },
  };
}

/**
 * MSW handlers answering the providers' default hosts (and `baseUrls`) from a MockLLM. They match only
 * the mock's URLs, so the other handlers of the server (and its `onUnhandledRequest`) see the rest.
 * @example
 *   const mock = createMockLLM({ scenarios });
 *   const server = setupServer(...mockLLMHandlers(mock), ...myOwnHandlers);
 *   server.listen({ onUnhandledRequest: 'error' });
 */
export function mockLLMHandlers(mock: HandlesRequests, options: MockLLMHandlersOptions = {}): RequestHandler[] {
  const route = mockLLMRoute(mock, options);
  return [http.all(({ request }) => route.claims(request), ({ request }) => route.handle(request))];
}

export { mockLLMRealtimeHandlers, realtimeRoute } from './msw-realtime.ts';
export type { RealtimeRoute } from './msw-realtime.ts';
