/**
 * Realtime WebSockets in-process, through MSW's WebSocket interception (`ws` handlers): connections
 * to the providers' realtime URLs (and the realtime paths under any `baseUrls`) become sessions of a
 * MockLLM. MSW intercepts clients built on the global `WebSocket` (the openai SDK's
 * OpenAIRealtimeWebSocket, browser code, @google/genai's web build); clients on the `ws` package
 * reach `mockLLMHandlers` as an upgrade request instead (ws-client-bridge.ts).
 */
import { ws, type WebSocketHandler } from 'msw';
import { isProviderPatternHost } from '../providers/origins.ts';
import { realtimeUrls } from '../providers/realtime-registry.ts';
import type { MockLLM } from './mock-llm.ts';
import type { MockLLMHandlersOptions } from './msw.ts';
import { isRealtimePath, openRealtime } from './realtime.ts';
import { enableWsClientBridge } from './ws-client-bridge.ts';

/** MSW's view of the client side of an intercepted connection (the part used here). */
export interface MswRealtimeClient {
  url: URL;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'close', listener: () => void): void;
}

/** Which realtime connections a mock answers (by URL) and how it takes one over. */
export interface RealtimeRoute {
  /** The path under the mock's base for a URL it answers, else undefined. */
  pathFor(url: URL): string | undefined;
  /**
   * Takes the connection over; `protocols` are the subprotocols the client asked for, `headers` its
   * upgrade request's (lower-cased; none for clients on the global WebSocket, which sends no custom ones).
   */
  connect(client: MswRealtimeClient, path: string, protocols: readonly string[], headers?: Record<string, string>): void;
}

const asHttp = (origin: string) => origin.replace(/^ws/, 'http');

/**
 * The realtime route of one mock: the providers' realtime URLs and the realtime paths under `baseUrls`.
 * @example const route = realtimeRoute(mock); route.pathFor(new URL('wss://api.openai.com/v1/realtime')) // '/v1/realtime'
 */
export function realtimeRoute(mock: MockLLM, options: MockLLMHandlersOptions = {}): RealtimeRoute {
  enableWsClientBridge();
  const defaults = options.defaultHosts === false ? [] : realtimeUrls().map((u) => new URL(u));
  const bases = [...defaults.map((u) => ({ origin: asHttp(u.origin), prefix: '' })), ...(options.baseUrls ?? []).map((b) => {
    const url = new URL(b);
    return { origin: asHttp(url.origin), prefix: url.pathname.replace(/\/+$/, '') };
  })];
  return {
    pathFor(url) {
      const origin = asHttp(url.origin);
      const base = bases.find((b) => b.origin === origin && url.pathname.startsWith(`${b.prefix}/`));
      const path = base ? url.pathname.slice(base.prefix.length) : options.defaultHosts !== false && isProviderPatternHost(url.host) ? url.pathname : undefined;
      return path !== undefined && isRealtimePath(path) ? path : undefined;
    },
    connect(client, path, _protocols, headers = {}) {
      const conn = openRealtime(mock, { url: new URL(client.url), path, headers }, {
        send: (data) => client.send(data),
        // MSW's client takes the application close codes (1000, 3000-4999) only.
        close: (code, reason) => client.close(code === 1000 ? 1000 : 4000 + (code % 1000), reason),
      })!;
      client.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as unknown;
        conn.receive(typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8'));
      });
      client.addEventListener('close', () => conn.closed());
    },
  };
}

/**
 * An MSW `ws` handler over a route, matching only the connections `pathFor` accepts (so the
 * server's other `ws` handlers see the rest).
 * @example setupServer(realtimeHandler((url) => route.pathFor(url) && route))
 */
export function realtimeHandler(find: (url: URL) => { route: RealtimeRoute; path: string } | undefined): WebSocketHandler {
  const handler = ws.link(/^wss?:\/\//).addEventListener('connection', ({ client, info }) => {
    const found = find(new URL(client.url));
    const protocols = info.protocols === undefined ? [] : typeof info.protocols === 'string' ? [info.protocols] : [...info.protocols];
    if (found) found.route.connect(client as unknown as MswRealtimeClient, found.path, protocols);
  });
  // Instance-level predicate: `ws.link` matches by URL pattern only; this one asks the route.
  (handler as unknown as { predicate: (args: { url: URL | string }) => boolean }).predicate = ({ url }) => find(new URL(url)) !== undefined;
  return handler;
}

/**
 * MSW `ws` handlers answering the providers' realtime URLs (OpenAI Realtime, Gemini Live) from a
 * MockLLM; put them in the same `setupServer(...)` as `mockLLMHandlers(mock)`.
 * @example
 *   const server = setupServer(...mockLLMHandlers(mock), ...mockLLMRealtimeHandlers(mock));
 */
export function mockLLMRealtimeHandlers(mock: MockLLM, options: MockLLMHandlersOptions = {}): WebSocketHandler[] {
  const route = realtimeRoute(mock, options);
  return [realtimeHandler((url) => {
    const path = route.pathFor(url);
    return path === undefined ? undefined : { route, path };
  })];
}
