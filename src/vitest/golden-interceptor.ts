import { http, type HttpHandler } from 'msw';
import type { GoldenHandler, Interceptor } from '../goldens/interceptor.ts';
import { mswServer } from './use-mock-llm.ts';

interface Dispatch {
  handler: HttpHandler;
  current: GoldenHandler | null;
}

// One dispatching handler per process (like the worker's MSW server itself), found again by a
// registered symbol when test files re-evaluate this module.
const KEY = Symbol.for('ghostwire.goldens.dispatch');

function dispatch(): Dispatch {
  const holder = globalThis as unknown as Record<symbol, Dispatch | undefined>;
  const existing = holder[KEY];
  if (existing) return existing;
  const created: Dispatch = {
    current: null,
    // Returning undefined lets the request fall through to the other handlers (useMockLLM's).
    handler: http.all('*', async ({ request }) => (created.current ? created.current(request) : undefined)),
  };
  holder[KEY] = created;
  return created;
}

/**
 * Starts the worker's MSW server with the goldens dispatcher installed and inert (no session active),
 * so clients constructed later at module level capture the intercepted `fetch`.
 * @example primeWorkerInterceptor() // in a setup file
 */
export function primeWorkerInterceptor(): void {
  const d = dispatch();
  const server = mswServer();
  if (!server.listHandlers().includes(d.handler)) server.use(d.handler);
}

/**
 * The `golden` fixture's interceptor: the worker's shared MSW server (the one `useMockLLM` uses), so
 * goldens and mock LLMs coexist in one test run; a golden session takes precedence for the hosts it
 * intercepts while it is active.
 * @example await session.intercept(workerMswInterceptor())
 */
export function workerMswInterceptor(): Interceptor {
  return {
    install(handler) {
      const d = dispatch();
      if (d.current) {
        throw new Error('ghostwire: another golden is intercepting right now — the golden fixture does not support test.concurrent');
      }
      d.current = handler;
      const server = mswServer();
      // Runtime handlers vanish with a server.boundary (mockLLMScope) or resetHandlers(): add it back when gone.
      if (!server.listHandlers().includes(d.handler)) server.use(d.handler);
      return () => {
        if (d.current === handler) d.current = null;
      };
    },
  };
}
