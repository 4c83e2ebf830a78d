import { http } from 'msw';
import { setupServer } from 'msw/node';

/**
 * A golden session's side of interception. `claims` is synchronous and reads no body (a request it
 * does not claim is left, untouched, to whoever else handles it); `handle` answers a claimed one.
 */
export interface GoldenHandler {
  claims(request: Request): boolean;
  handle(request: Request): Promise<Response>;
  /** During a replay every non-loopback request nothing else answers must fail rather than leave. */
  readonly sealsAll: boolean;
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
      const server = setupServer(http.all(({ request }) => handler.claims(request), ({ request }) => handler.handle(request)));
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
