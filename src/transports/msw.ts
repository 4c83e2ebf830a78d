/**
 * MSW request handlers over a MockLLM: the three providers' default hosts plus any base URL
 * given. They compose with the user's own handlers: put them in the same `setupServer(...)`.
 */
import { http, type RequestHandler } from 'msw';
import type { HandleOptions } from './handle.ts';
import { isProviderPatternHost, PROVIDER_ORIGINS } from '../providers/origins.ts';
import { MockLLM } from './mock-llm.ts';
import { realtimeRoute, type RealtimeRoute } from './msw-realtime.ts';
import { answerUpgrade, isWsPackageUpgrade } from './ws-client-bridge.ts';

/**
 * A WebSocket upgrade made through node:http (clients on the `ws` package: the openai SDK's
 * OpenAIRealtimeWS, @google/genai on Node) arrives at MSW as an HTTP request: answered with a 101 and
 * carried by ws-client-bridge.ts when `realtime` answers its URL, undefined otherwise.
 * @example const upgraded = realtimeUpgrade(request, route.realtime); if (upgraded) return upgraded;
 */
export function realtimeUpgrade(request: Request, realtime: RealtimeRoute | undefined): Response | undefined {
  if (!realtime || !isWsPackageUpgrade(request)) return undefined;
  const path = realtime.pathFor(new URL(request.url));
  return path === undefined ? undefined : answerUpgrade(request, realtime, path);
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
  /** Its realtime (WebSocket) side, when the mock is a MockLLM. */
  realtime?: RealtimeRoute;
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
  // HTTP and realtime (WebSocket) traffic of the same hosts: one route.
  const realtime = mock instanceof MockLLM ? realtimeRoute(mock, options) : undefined;
  return {
    claims: (request) => find(request) !== undefined,
    handle: (request) => {
      const upgraded = realtimeUpgrade(request, realtime);
      if (upgraded) return Promise.resolve(upgraded);
      return mock.handle(request, { path: find(request) ?? new URL(request.url).pathname });
    },
    ...(realtime ? { realtime } : {}),
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

export { mockLLMRealtimeHandlers } from './msw-realtime.ts';
export { realtimeRoute };
export type { RealtimeRoute } from './msw-realtime.ts';
