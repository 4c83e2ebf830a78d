import { http, type HttpHandler } from 'msw';
import type { GoldenHandler, Interceptor } from '../goldens/interceptor.ts';
import { mswServer } from './use-mock-llm.ts';
import { goldenSlots } from './golden-scope.ts';

interface Dispatch {
  handler: HttpHandler;
  /** Only for tests outside any golden slot (no goldenScope registered): one golden at a time. */
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
    // The session of the test that made the request (its slot), so concurrent tests each get their own.
    // Returning undefined lets the request fall through to the other handlers (useMockLLM's).
    handler: http.all('*', async ({ request }) => {
      const slot = goldenSlots().getStore();
      const handler = slot ? slot.handler : created.current;
      return handler ? handler(request) : undefined;
    }),
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
 * intercepts, for the requests of its own test (its golden slot), so `test.concurrent` tests each
 * record and replay their own traffic.
 * @example await session.intercept(workerMswInterceptor())
 */
export function workerMswInterceptor(): Interceptor {
  return {
    install(handler) {
      const d = dispatch();
      const server = mswServer();
      // Runtime handlers vanish with a server.boundary (mockLLMScope) or resetHandlers(): add it back when gone.
      if (!server.listHandlers().includes(d.handler)) server.use(d.handler);
      const slot = goldenSlots().getStore();
      if (slot) {
        slot.handler = handler;
        return () => {
          if (slot.handler === handler) slot.handler = null;
        };
      }
      // No slot: the test runs outside goldenScope() (registered by the goldens setup file), so requests
      // cannot be told apart by test; one golden at a time, and say how to get per-test routing.
      if (d.current) {
        throw new Error(
          'ghostwire: another golden is intercepting right now and this test runs outside a golden scope — ' +
            'import the golden fixture (or ghostwire/vitest, or the plugin\'s setup file) before the tests are defined, or call goldenScope() in a setup file, to run golden tests concurrently',
        );
      }
      d.current = handler;
      return () => {
        if (d.current === handler) d.current = null;
      };
    },
  };
}
