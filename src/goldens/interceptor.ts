import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';

/** Answers a request, or returns undefined to leave it to whoever else handles it (or the network). */
export type GoldenHandler = (request: Request) => Promise<Response | undefined>;

/**
 * How a session hooks into request interception. `install` starts routing requests to the handler and
 * returns the function that stops it.
 */
export interface Interceptor {
  install(handler: GoldenHandler): () => void;
}

/**
 * A private MSW server for the session (programmatic use outside Vitest fixtures). Inside Vitest the
 * `golden` fixture shares the worker's MSW server instead: two listening MSW servers fight over the
 * same globals, and closing one breaks the other.
 * @example session.intercept(ownMswServer())
 */
export function ownMswServer(): Interceptor {
  return {
    install(handler) {
      const server = setupServer(http.all('*', async ({ request }) => (await handler(request)) ?? passthrough()));
      server.listen({ onUnhandledFrame: 'error' });
      return () => server.close();
    },
  };
}
