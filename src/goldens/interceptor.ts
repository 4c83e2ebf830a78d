import { http } from 'msw';
import { setupServer } from 'msw/node';
import { realtimeHandler, type RealtimeRoute } from '../transports/msw-realtime.ts';
import { realtimeUpgrade } from '../transports/msw.ts';
import { enableWsClientBridge } from '../transports/ws-client-bridge.ts';

/**
 * A golden session's side of interception. `claims` is synchronous and reads no body (a request it
 * does not claim is left, untouched, to whoever else handles it); `handle` answers a claimed one.
 */
export interface GoldenHandler {
  claims(request: Request): boolean;
  handle(request: Request): Promise<Response>;
  /** During a replay every non-loopback request nothing else answers must fail rather than leave. */
  readonly sealsAll: boolean;
  /** Realtime (WebSocket) conversations: recorded or replayed. */
  readonly realtime?: RealtimeRoute;
}

/**
 * How a session hooks into request interception. `install` starts routing requests to the handler and
 * returns the function that stops it.
 */
export interface Interceptor {
  install(handler: GoldenHandler): () => void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * A private MSW server for the session (programmatic use outside Vitest). Inside Vitest the `golden`
 * fixture routes through the worker's one MSW server instead (see src/vitest/in-process.ts).
 * @example session.intercept(ownMswServer())
 */
export function ownMswServer(): Interceptor {
  return {
    install(handler) {
      const realtime = handler.realtime;
      if (realtime) enableWsClientBridge();
      const server = setupServer(
        http.all(({ request }) => handler.claims(request), ({ request }) => realtimeUpgrade(request, realtime) ?? handler.handle(request)),
        ...(realtime ? [realtimeHandler((url) => {
          const path = realtime.pathFor(url);
          return path === undefined ? undefined : { route: realtime, path };
        })] : []),
      );
      server.listen({
        // Local servers are part of the test; during a replay nothing else may leave the process.
        onUnhandledFrame({ frame, defaults }) {
          const request = (frame as { data?: { request?: Request } }).data?.request;
          const host = request ? new URL(request.url).hostname : '';
          if (handler.sealsAll && !LOOPBACK.has(host)) defaults.error();
        },
      });
      return () => server.close();
    },
  };
}
