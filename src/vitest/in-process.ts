/**
 * The in-process layer of one Vitest worker: one slot per test (its mocks, its golden, what nothing
 * answered), entered by one `aroundEach`, and ghostwire's two MSW handlers placed in whichever MSW
 * server is listening — the user's own (`setupServer` in a setup file) or, when there is none, one
 * ghostwire owns. See docs/decisions/one-msw-server-per-worker.md for why it hooks MSW where it does.
 *
 * - `front` (first): answers what the calling test's golden or mocks claim; matches nothing else, so
 *   the user's handlers, `server.use()` overrides and `onUnhandledRequest` keep working.
 * - `seal` (last): a request to a provider host (or any non-loopback request during a golden replay)
 *   that no handler answered fails its test, naming the request and how to mock it; it never leaves.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { http, type HttpHandler } from 'msw';
import { HttpNetworkFrame } from 'msw/experimental';
import { defaultNetworkOptions, setupServer, type SetupServer } from 'msw/node';
import type { TestContext } from 'vitest';

/** Something that answers some requests of one test: a mock LLM or the test's golden session. */
export interface Route {
  /** Synchronous and body-free (a body is read only by the route that answers): is this request ours? */
  claims(request: Request): boolean;
  handle(request: Request): Promise<Response>;
  /** While true, every non-loopback request of the test that no handler answers fails (golden replay). */
  readonly sealsAll?: boolean;
}

/** One test's state, visible from the test body, its hooks, its fixtures and anything they await. */
export interface TestSlot {
  readonly task: TestContext['task'];
  /** The golden's route (answers before the mocks), set by the golden fixture. */
  golden: Route | null;
  /** The golden session of the test (goldens code owns its type), created on first use. */
  goldenSession: unknown;
  /** Mock routes, latest last (the latest answers first). */
  readonly mocks: Route[];
  /** Run when the test ends, before its failures are thrown; `passed` says whether the test passed so far. */
  readonly finishers: Array<(passed: boolean) => Promise<void>>;
  /** Requests that nothing answered: thrown when the test ends, even if the code swallowed the error. */
  readonly failures: Error[];
  closed: boolean;
}

/** What the layer needs from the plugin's resolved options. */
export interface SealOptions {
  /** Origins whose unanswered requests fail (the providers' default hosts and configured `hosts`). */
  sealedOrigins: readonly string[];
  /** False only in an explicit local record run: then provider hosts are reachable. */
  seal: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const KEY = Symbol.for('ghostwire.inProcess');
const PATCHED = Symbol.for('ghostwire.mswPatched');

/** Nothing answered a sealed request: a non-retryable 4xx in the providers' error shape, naming what to do. */
function sealedResponse(request: Request, message: string): Response {
  return Response.json(
    { error: { message, type: 'invalid_request_error', param: null, code: 'ghostwire_unhandled' } },
    { status: 404, headers: { 'x-should-retry': 'false' } },
  );
}

/**
 * The worker's layer. One per process (test files re-evaluate modules under `--no-isolate`, while MSW's
 * interceptors are per process), so it is the one value kept on `globalThis`.
 */
export class InProcessLayer {
  readonly slots = new AsyncLocalStorage<TestSlot>();
  options: SealOptions;
  private sealed: Set<string>;
  private own: SetupServer | null = null;
  /** Per-worker caches of the modules built on this layer (plugin scenarios, goldens runtime). */
  readonly cache = new Map<string, unknown>();
  readonly front: HttpHandler;
  readonly seal: HttpHandler;

  constructor(options: SealOptions) {
    this.options = options;
    this.sealed = new Set(options.sealedOrigins.map((o) => new URL(o).origin));
    this.front = http.all(
      ({ request }) => this.routeFor(request) !== undefined,
      ({ request }) => {
        const route = this.routeFor(request);
        if (!route) throw new Error(`ghostwire: the mock for ${request.method} ${request.url} is gone (its test has finished)`);
        return route.handle(request);
      },
    );
    this.seal = http.all(
      ({ request }) => this.isSealed(request),
      ({ request }) => this.refuse(request),
    );
  }

  /** Re-reads options (a later test file of a `--no-isolate` worker may bring other ones). */
  configure(options: SealOptions): void {
    this.options = options;
    this.sealed = new Set(options.sealedOrigins.map((o) => new URL(o).origin));
  }

  /** The calling test's slot, while it runs. */
  slot(): TestSlot | undefined {
    const slot = this.slots.getStore();
    return slot && !slot.closed ? slot : undefined;
  }

  private routeFor(request: Request): Route | undefined {
    const slot = this.slot();
    if (!slot) return undefined;
    if (slot.golden?.claims(request)) return slot.golden;
    for (let i = slot.mocks.length - 1; i >= 0; i--) if (slot.mocks[i].claims(request)) return slot.mocks[i];
    return undefined;
  }

  private isSealed(request: Request): boolean {
    const url = new URL(request.url);
    if (LOOPBACK.has(url.hostname)) return false;
    if (this.slot()?.golden?.sealsAll) return true;
    return this.options.seal && this.sealed.has(url.origin);
  }

  private refuse(request: Request): Response {
    const url = new URL(request.url);
    const slot = this.slot();
    const what = `${request.method} ${url.origin}${url.pathname}`;
    const message = slot?.golden?.sealsAll
      ? `ghostwire: ${what} would leave the process during a golden replay, and no golden, mock or MSW handler answers it. ` +
        'Record it (add its origin to the plugin\'s "hosts" option if it is an LLM API) or answer it with your own MSW handler.'
      : `ghostwire: ${what} reached a provider host and nothing answers it (no mock, golden or MSW handler); ghostwire never lets it out. ` +
        'Mock it with useMockLLM(...) or the mockLLM fixture, replay it from a golden (the golden fixture), answer it with your own MSW handler, ' +
        'or record it locally with `ghostwire test --record-goldens`.';
    slot?.failures.push(new Error(message));
    return sealedResponse(request, message);
  }

  /**
   * Makes sure interception is on: when no MSW server listens (none yet, or the user's closed one),
   * ghostwire's own listens. A user's server that starts later takes over, with ghostwire's handlers in it.
   */
  ensureIntercepting(): void {
    patchMsw();
    if (listening()) return;
    this.own ??= setupServer();
    if (this.own.readyState !== 0) this.own.close();
    this.own.listen({ onUnhandledFrame: 'bypass' });
  }

  /** ghostwire's own MSW server (created on first call), for tests that have none of their own. */
  ownServer(): SetupServer {
    this.ensureIntercepting();
    return (this.own ??= setupServer());
  }

  /**
   * Runs one test in its own slot (and, for ghostwire's own server, its own MSW boundary, so `use()` in a
   * test stays in that test). Nested calls for the same test reuse the slot.
   */
  async runTest(context: Pick<TestContext, 'task' | 'onTestFinished'>, runTest: () => Promise<void> | void): Promise<void> {
    const outer = this.slots.getStore();
    if (outer?.task === context.task) return void (await runTest());
    this.ensureIntercepting();
    const slot: TestSlot = { task: context.task, golden: null, goldenSession: null, mocks: [], finishers: [], failures: [], closed: false };
    context.onTestFinished(async ({ task }) => {
      const failures = slot.failures;
      let passed = task.result?.state !== 'fail' && failures.length === 0;
      try {
        for (const finish of slot.finishers) {
          try {
            await finish(passed);
          } catch (error) {
            passed = false;
            failures.push(error as Error);
          }
        }
      } finally {
        slot.closed = true;
      }
      if (failures.length > 0) {
        const [first] = failures;
        if (failures.length > 1) first.message += `\n(and ${failures.length - 1} more: ${failures.slice(1).map((f) => f.message.split('\n')[0]).join(' | ')})`;
        throw first;
      }
    });
    const run = this.own ? this.own.boundary(() => runTest()) : runTest;
    await this.slots.run(slot, run);
  }
}

/**
 * The worker's layer, created on first call with `options`; later calls with options update it.
 * @example inProcessLayer({ sealedOrigins: ['https://api.openai.com'], seal: true }).slot()?.mocks
 */
export function inProcessLayer(options?: SealOptions): InProcessLayer {
  const holder = globalThis as unknown as Record<symbol, InProcessLayer | undefined>;
  const existing = holder[KEY];
  if (existing) {
    if (options) existing.configure(options);
    return existing;
  }
  if (!options) throw new Error('ghostwire: the in-process layer is not set up (import ghostwire/vitest, or add the ghostwire plugin to vitest.config)');
  const created = new InProcessLayer(options);
  holder[KEY] = created;
  return created;
}

/** The layer if one exists (MSW's patched frames ask on every request, including outside ghostwire's tests). */
function currentLayer(): InProcessLayer | undefined {
  return (globalThis as unknown as Record<symbol, InProcessLayer | undefined>)[KEY];
}

type Source = { on: unknown; enable: (...args: unknown[]) => unknown; disable: (...args: unknown[]) => unknown; emitter?: { listenerCount(type: string): number } };

/** Is some MSW server (the user's or ghostwire's) listening in this process? */
function listening(): boolean {
  const source = defaultNetworkOptions.sources[0] as unknown as Source;
  return (source.emitter?.listenerCount('frame') ?? 0) > 0;
}

/**
 * Two adjustments to MSW 3 (measured on msw 3.0.5), applied once per process:
 * - every HTTP frame, whichever server resolves it, gets ghostwire's `front` first and `seal` last;
 * - the interceptor source all `setupServer()`s share is enabled once: a second `listen()` while another
 *   server listens otherwise subscribes the source twice, and every request is handled twice (the
 *   second run reading a body already read: "Body is unusable").
 */
function patchMsw(): void {
  const proto = HttpNetworkFrame.prototype as unknown as Record<symbol, boolean> & { getHandlers: (this: unknown, controller: unknown) => unknown[] };
  if (!proto[PATCHED]) {
    const original = proto.getHandlers;
    proto.getHandlers = function getHandlers(this: unknown, controller: unknown) {
      const handlers = original.call(this, controller);
      const layer = currentLayer();
      return layer ? [layer.front, ...handlers, layer.seal] : handlers;
    };
    proto[PATCHED] = true;
  }
  const source = defaultNetworkOptions.sources[0] as unknown as Source & Record<symbol, boolean>;
  if (!source[PATCHED]) {
    const enable = source.enable;
    const disable = source.disable;
    let enabled = false;
    source.enable = function (this: unknown, ...args: unknown[]) {
      if (enabled) return undefined;
      enabled = true;
      return enable.apply(this, args);
    };
    source.disable = function (this: unknown, ...args: unknown[]) {
      enabled = false;
      return disable.apply(this, args);
    };
    source[PATCHED] = true;
  }
}
