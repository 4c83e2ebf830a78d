/**
 * `useMockLLM(...)` inside a Vitest test: the providers' default hosts answer from a MockLLM
 * for the rest of that test, and only that test.
 *
 * How it is scoped: one MSW server per worker (started on first use) whose handlers look up the
 * calling test's mock in an AsyncLocalStorage, so requests made from a test — and from anything
 * it awaits — reach that test's mock. `mockLLMScope()` (call it in a setup file, or at the top of
 * a test file) wraps every test with `aroundEach` in its own slot and in `server.boundary()`:
 * exact per-test isolation under `test.concurrent`, and `mswServer().use(...)` scoped per test.
 * Without it, `useMockLLM` enters the slot itself (AsyncLocalStorage.enterWith) and clears it
 * when the test finishes — exact for sequential tests. The `mockLLM` fixture (mockLLMFixture)
 * closes its slot in its own teardown, so it is exact under `test.concurrent` either way.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { statSync } from 'node:fs';
import { http } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { aroundEach, inject, onTestFinished, TestRunner } from 'vitest';
import { loadScenarios } from '../scenario/loader.ts';
import type { Scenario } from '../scenario/schema.ts';
import { createMockLLM, MockLLM, type ScenarioList } from '../transports/mock-llm.ts';
import { mockLLMHandlersFor } from '../transports/msw.ts';

/** The mocks one test installed; closed once the test is over so late requests cannot reach them. */
interface Slot {
  mocks: { mock: MockLLM; bases: { origin: string; prefix: string }[] }[];
  closed: boolean;
}

interface WorkerMSW {
  server: SetupServer;
  slots: AsyncLocalStorage<Slot>;
  /** The plugin's default scenarios, read once per worker rather than once per test. */
  pluginScenarios?: { key: string; scenarios: Scenario[] };
}

// The worker's MSW server must be one per process, not one per module instance: with module
// isolation a test file re-evaluates this module, and two listening MSW servers would both
// intercept. So the instance lives on globalThis under a registered symbol.
const WORKER_KEY = Symbol.for('ghostwire.useMockLLM.worker');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function unhandledUrl(frame: unknown): URL | null {
  const request = (frame as { data?: { request?: Request; connection?: { client?: { url?: URL } } } }).data;
  if (request?.request) return new URL(request.request.url);
  if (request?.connection?.client?.url) return new URL(request.connection.client.url);
  return null;
}

function worker(): WorkerMSW {
  const holder = globalThis as unknown as Record<symbol, WorkerMSW | undefined>;
  const existing = holder[WORKER_KEY];
  if (existing) return existing;
  const slots = new AsyncLocalStorage<Slot>();
  const open = () => {
    const slot = slots.getStore();
    return slot && !slot.closed ? slot : undefined;
  };
  // The latest mock of the calling test answers the default hosts...
  const defaults = mockLLMHandlersFor(() => open()?.mocks.at(-1)?.mock);
  // ...and each mock its own extra base URLs, looked up per request (nothing piles up across tests).
  // A custom predicate, so URLs that are no mock's base stay unhandled (a matched handler that
  // answers nothing would let the request through to the network).
  const findBase = (request: Request) => {
    const url = new URL(request.url);
    for (const { mock, bases } of [...(open()?.mocks ?? [])].reverse()) {
      for (const { origin, prefix } of bases) {
        if (url.origin === origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
          return { mock, path: url.pathname.slice(prefix.length) || '/' };
        }
      }
    }
    return undefined;
  };
  const extra = http.all(
    ({ request }) => findBase(request) !== undefined,
    ({ request }) => {
      const found = findBase(request);
      if (!found) throw new Error(`ghostwire: the mock for ${request.url} is gone (its test has finished)`);
      return found.mock.handle(request, { path: found.path });
    },
  );
  const server = setupServer(...defaults, extra);
  server.listen({
    // No network in tests: anything unhandled fails, except loopback (tests' own servers on 127.0.0.1).
    onUnhandledFrame({ frame, defaults }) {
      const url = unhandledUrl(frame);
      if (url && LOOPBACK.has(url.hostname)) return;
      defaults.error();
      throw new Error(
        `ghostwire: unhandled request ${url ? url.href : ''} — no mock answers it` +
          ` (is useMockLLM() called in this test, and is the client's base URL a provider default or in baseUrls?)`,
      );
    },
  });
  const created: WorkerMSW = { server, slots };
  holder[WORKER_KEY] = created;
  return created;
}

/**
 * The worker's MSW server (started on first call), to add your own handlers next to the mock's.
 * Under `mockLLMScope()` each test's `use(...)` is scoped to that test.
 * @example
 *   mswServer().use(http.get('https://example.com/x', () => HttpResponse.json({ ok: true })));
 */
export function mswServer(): SetupServer {
  return worker().server;
}

/**
 * Wraps every test of the current file (or of every file, from a setup file) in its own mock slot
 * and MSW boundary. Needed for exact isolation under `test.concurrent`.
 * @example
 *   // vitest.setup.ts
 *   import { mockLLMScope } from 'ghostwire/vitest';
 *   mockLLMScope();
 */
export function mockLLMScope(): void {
  aroundEach(async (runTest) => {
    const { server, slots } = worker();
    const slot: Slot = { mocks: [], closed: false };
    try {
      await slots.run(slot, server.boundary(() => runTest()));
    } finally {
      slot.closed = true;
    }
  });
}

export interface UseMockLLMOptions {
  /** More base URLs this test's mock answers (besides the providers' default hosts). */
  baseUrls?: string[];
}

function toScenarios(input: ScenarioList | string): ScenarioList {
  if (typeof input !== 'string') return input;
  try {
    statSync(input);
  } catch {
    throw new Error(`useMockLLM: no scenario file or directory at ${JSON.stringify(input)}`);
  }
  return loadScenarios(input);
}

/**
 * Answers LLM requests made by this test from the given scenarios (objects, builders, or a file
 * or directory path); returns the MockLLM (journal, `assertAllConsumed()`, ...). Cleaned up
 * after the test. The latest call in a test wins.
 * @example
 *   test('agent answers', async () => {
 *     const mock = useMockLLM(scenario('hi').respondWithText('Hello'));
 *     expect(await myAgent('hi')).toBe('Hello');
 *     mock.assertAllConsumed();
 *   });
 */
export function useMockLLM(scenarios: ScenarioList | string, options: UseMockLLMOptions = {}): MockLLM {
  const mock = createMockLLM({ scenarios: toScenarios(scenarios) });
  const own = activate(mock, options.baseUrls);
  if (!own) return mock;
  // Not under mockLLMScope(): useMockLLM entered a slot for the rest of this test; close it when
  // the test ends. Vitest does not track concurrent tests in global hooks (onTestFinished could
  // close the slot when a neighbour ends), so concurrent tests need the scope; say so.
  if ((TestRunner.getCurrentTest() as { concurrent?: boolean } | undefined)?.concurrent) {
    own.closed = true;
    throw new Error('useMockLLM() in a test.concurrent test needs mockLLMScope() (call it in a setup file or at the top of the test file), or use the mockLLM fixture');
  }
  onTestFinished(() => {
    own.closed = true;
  });
  return mock;
}

/**
 * Makes `mock` answer for the calling test: joins the test's scope slot, or enters a new slot
 * for the rest of the current async context and returns it (the caller closes it).
 */
function activate(mock: MockLLM, baseUrls: string[] = []): Slot | null {
  const { slots } = worker();
  const bases = baseUrls.map((b) => {
    const url = new URL(b);
    return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
  });
  const scoped = slots.getStore();
  if (scoped && !scoped.closed) {
    scoped.mocks.push({ mock, bases });
    return null;
  }
  const slot: Slot = { mocks: [{ mock, bases }], closed: false };
  slots.enterWith(slot);
  return slot;
}

/** The scenarios the ghostwire plugin provides to every `mockLLM` fixture, loaded once per worker. */
function pluginScenarios(): Scenario[] {
  const paths = inject('ghostwireScenarios');
  if (!paths?.length) return [];
  const state = worker();
  const key = paths.join('\u0000');
  if (state.pluginScenarios?.key !== key) state.pluginScenarios = { key, scenarios: loadScenarios(paths) };
  return state.pluginScenarios.scenarios;
}

/**
 * The `mockLLM` test fixture: a MockLLM (empty, or with the plugin's `scenarios` / `MOCKLLM_SCENARIOS`) answering the providers' default hosts for this
 * test only (add scenarios with `mockLLM.use(...)`); safe under `test.concurrent` with or without
 * mockLLMScope(), since its teardown belongs to its own test. The composed `test` of
 * `ghostwire/vitest` registers it as `mockLLM`.
 * @example
 *   const test = base.extend({ mockLLM: mockLLMFixture });
 *   test('hi', async ({ mockLLM }) => { mockLLM.use(scenario('hi').respondWithText('Hello')); ... });
 */
export async function mockLLMFixture({}: object, use: (mock: MockLLM) => Promise<void>): Promise<void> {
  const mock = createMockLLM({ scenarios: pluginScenarios() });
  const own = activate(mock);
  try {
    await use(mock);
  } finally {
    if (own) own.closed = true;
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Scenario paths the ghostwire plugin gives every `mockLLM` fixture (its `scenarios` option or MOCKLLM_SCENARIOS). */
    ghostwireScenarios?: string[];
  }
}
