/**
 * The in-process layer of one Vitest worker: one slot per test (its mocks, its golden, what nothing
 * answered), entered by one `aroundEach`, and interception of the providers' hosts from the first line of
 * every test file. This file stays light (no MSW): the MSW side (msw-bridge.ts) loads only when something
 * needs it — a mock, a golden, an MSW the user already loaded, or the first request through the sealed
 * `fetch` — so a test file that never talks to an LLM does not pay for it.
 * See docs/decisions/one-msw-server-per-worker.md.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { TestRunner, type RunnerTestFile, type TestContext } from 'vitest';
import { loadSync } from './load-sync.ts';
import type { MswBridge } from './msw-bridge.ts';
import { hostPattern, type HostMatcher } from '../providers/common/host-pattern.ts';
import { LISTENER_CHANNEL, type ListenerMessage } from '../net/index.ts';
import { OwnServers } from './own-servers.ts';
import type { RealtimeRoute } from '../transports/msw-realtime.ts';

/** Something that answers some requests of one test: a mock LLM or the test's golden session. */
export interface Route {
  /** Synchronous and body-free (a body is read only by the route that answers): is this request ours? */
  claims(request: Request): boolean;
  handle(request: Request): Promise<Response>;
  /** While true, every non-loopback request of the test that no handler answers fails (golden replay). */
  readonly sealsAll?: boolean;
  /** The realtime (WebSocket) connections it answers, if any. */
  readonly realtime?: RealtimeRoute;
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
  /** Hosts given as patterns (`*.openai.azure.com`, `{location}-aiplatform.googleapis.com`), sealed too. */
  sealedHostPatterns?: readonly string[];
  /** False only in an explicit local record run: then provider hosts are reachable. */
  seal: boolean;
}

const KEY = Symbol.for('ghostwire.inProcess');

/** Has any MSW (the user's included) been loaded in this process? Its interceptors keep a global registry. */
function mswLoaded(): boolean {
  return (globalThis as { __MSW_INTERCEPTORS_REGISTRY?: unknown }).__MSW_INTERCEPTORS_REGISTRY !== undefined;
}

/**
 * The worker's layer. One per process (the setup file is evaluated again for every test file, and may be
 * two module instances, while MSW's interceptors are per process), so it is the one value kept on `globalThis`.
 */
export class InProcessLayer {
  readonly slots = new AsyncLocalStorage<TestSlot>();
  options: SealOptions;
  private sealed: Set<string>;
  /** Per-worker caches of the modules built on this layer (plugin scenarios, goldens runtime). */
  readonly cache = new Map<string, unknown>();
  private bridge: MswBridge | null = null;
  /** The platform's `fetch` and the sealing one put in its place until MSW takes over. */
  private sealedFetch: { original: typeof fetch; wrapper: typeof fetch } | null = null;

  private sealedHosts: HostMatcher[];

  constructor(options: SealOptions) {
    this.options = options;
    this.sealed = new Set(options.sealedOrigins.map((o) => new URL(o).origin));
    this.sealedHosts = (options.sealedHostPatterns ?? []).map(hostPattern);
  }

  /** A real-port server of ghostwire's in this process started or stopped (the listener channel). */
  serverAnnounced(message: ListenerMessage): void {
    this.ownServers.update(message);
    // A request before the first test (a beforeAll) must already meet the front handler in MSW's frames.
    if (message.event === 'listening' && mswLoaded()) this.intercept();
  }

  /** Re-reads options (a later test file of a `--no-isolate` worker may bring other ones). */
  configure(options: SealOptions): void {
    this.options = options;
    this.sealed = new Set(options.sealedOrigins.map((o) => new URL(o).origin));
    this.sealedHosts = (options.sealedHostPatterns ?? []).map(hostPattern);
  }

  /** The calling test's slot, while it runs. */
  slot(): TestSlot | undefined {
    const slot = this.slots.getStore();
    return slot && !slot.closed ? slot : undefined;
  }

  /**
   * Test files whose per-test hook is registered (setup.ts): one registration per file, whichever
   * module instances of setup.ts (the plugin's or `setupFiles` entry, an import of `ghostwire/vitest`) ran.
   */
  private readonly hookedFiles = new WeakSet<RunnerTestFile>();

  /**
   * Marks `file` as having the per-test hook; false when it already had it (then the caller registers nothing).
   * Without a file (not collecting one) there is nothing to dedupe: true.
   * @example if (layer.claimFile(TestRunner.getCurrentSuite().file)) aroundEach(...)
   */
  claimFile(file: RunnerTestFile | undefined): boolean {
    if (!file) return true;
    if (this.hookedFiles.has(file)) return false;
    this.hookedFiles.add(file);
    return true;
  }

  /**
   * The calling test's slot, or an error naming why there is none: `what` was called outside a running
   * test, or in a test file that got no per-test hook (no plugin, `ghostwire/vitest` only imported, and a
   * worker shared with an earlier file under `isolate: false`, where the import is not evaluated again).
   * @example const slot = inProcessLayer().requireSlot('useMockLLM()')
   */
  requireSlot(what: string): TestSlot {
    const slot = this.slot();
    if (slot) return slot;
    const running = TestRunner.getCurrentTest() as { file: RunnerTestFile } | undefined;
    if (running && !this.hookedFiles.has(running.file)) {
      throw new Error(
        `ghostwire: ${what} ran in a test of ${running.file.name} that has no ghostwire slot: without the ghostwire plugin, importing 'ghostwire/vitest' ` +
          'sets up only the first test file of a Vitest worker, and this one shares its worker with an earlier file (isolate: false / --no-isolate). ' +
          "Add the plugin (plugins: [ghostwire()] from 'ghostwire/plugin' in vitest.config) or add 'ghostwire/vitest/setup' to test.setupFiles.",
      );
    }
    throw new Error(`${what} must be called inside a running test (its mocks and golden belong to that test only)`);
  }

  /**
   * Routes that belong to no one test: in-process hosts that are unique per mock (mock MCP servers'
   * `*.ghostwire.test` URLs), which code set up outside the test's async context may also reach.
   */
  readonly processRoutes: Route[] = [];

  /** ghostwire's servers listening on a real port in this process: MSW lets requests to them through. */
  private readonly ownServers = new OwnServers();

  /** Is `request` addressed to a server ghostwire itself started in this process? */
  isOwnServer(request: Request): boolean {
    return this.ownServers.has(request);
  }

  /**
   * The route that claims `request`: the calling test's golden first, then its mocks (latest first),
   * then the process-wide routes.
   */
  routeFor(request: Request): Route | undefined {
    const slot = this.slot();
    if (slot) {
      if (slot.golden?.claims(request)) return slot.golden;
      for (let i = slot.mocks.length - 1; i >= 0; i--) if (slot.mocks[i].claims(request)) return slot.mocks[i];
    }
    for (const route of this.processRoutes) if (route.claims(request)) return route;
    return undefined;
  }

  /** The calling test's mock that answers a realtime connection to `url` (latest first), with the path it sees. */
  realtimeRouteFor(url: URL): { route: RealtimeRoute; path: string } | undefined {
    const slot = this.slot();
    if (!slot) return undefined;
    // The golden first, as for HTTP: it records or replays the test's realtime conversations.
    const golden = slot.golden?.realtime;
    const goldenPath = golden?.pathFor(url);
    if (golden && goldenPath !== undefined) return { route: golden, path: goldenPath };
    for (let i = slot.mocks.length - 1; i >= 0; i--) {
      const route = slot.mocks[i].realtime;
      const path = route?.pathFor(url);
      if (route && path !== undefined) return { route, path };
    }
    return undefined;
  }

  /** Must this (non-loopback) request fail when nothing answered it? */
  isSealed(request: Request): boolean {
    if (this.slot()?.golden?.sealsAll) return true;
    if (!this.options.seal) return false;
    const url = new URL(request.url);
    return this.sealed.has(url.origin) || this.sealedHosts.some((h) => h.match(url.host) !== null);
  }

  /** Records a sealed request nothing answered on its test (failed when the test ends); returns the message. */
  refuse(request: Request): string {
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
    return message;
  }

  /** Turns interception on now (loading MSW): mocks, goldens and `ownServer()` call it. */
  intercept(): MswBridge {
    this.bridge ??= loadSync<typeof import('./msw-bridge.ts')>('msw-bridge').createBridge(this);
    this.bridge.ensureIntercepting();
    return this.bridge;
  }

  /**
   * Seals the providers' hosts from the setup file on, without loading MSW yet: if MSW is already loaded
   * (the user's own server), interception starts now; otherwise `fetch` is replaced by a wrapper that
   * starts it on the first request. SDK clients built at module level keep that wrapper, which hands each
   * request to whatever `fetch` MSW installs.
   */
  seal(): void {
    if (mswLoaded() || this.bridge) {
      this.intercept();
      return;
    }
    if (this.sealedFetch) return;
    const original = globalThis.fetch;
    const forwarding = new AsyncLocalStorage<true>();
    const intercept = () => this.intercept();
    const wrapper = function ghostwireFetch(input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) {
      // MSW passing a request through to the network (when it wrapped this function): the platform's fetch.
      if (forwarding.getStore()) return original(input, init);
      intercept();
      const current = globalThis.fetch;
      if (current === wrapper) return original(input, init);
      return forwarding.run(true, () => current(input, init));
    } as typeof fetch;
    this.sealedFetch = { original, wrapper };
    globalThis.fetch = wrapper;
  }

  /** Called just before an MSW server enables its interceptors: they must wrap the platform's `fetch`. */
  unsealFetch(): void {
    if (this.sealedFetch && globalThis.fetch === this.sealedFetch.wrapper) globalThis.fetch = this.sealedFetch.original;
  }

  /** ghostwire's own MSW server, for suites without one of their own. */
  ownServer(): ReturnType<MswBridge['ownServer']> {
    return this.intercept().ownServer();
  }

  /**
   * Runs one test in its own slot (and, for ghostwire's own server, its own MSW boundary, so `use()` in a
   * test stays in that test). Nested calls for the same test reuse the slot.
   */
  async runTest(context: Pick<TestContext, 'task' | 'onTestFinished'>, runTest: () => Promise<void> | void): Promise<void> {
    const outer = this.slots.getStore();
    if (outer?.task === context.task) return void (await runTest());
    // Interception follows MSW once it is loaded: the user's server may have been closed (--no-isolate).
    if (this.bridge || mswLoaded()) this.intercept();
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
    await this.slots.run(slot, this.bridge ? this.bridge.boundary(runTest) : runTest);
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
  // The worker's one layer is the channel's one subscriber here: ghostwire's real-port servers announce themselves.
  subscribe(LISTENER_CHANNEL, (message) => created.serverAnnounced(message as ListenerMessage));
  return created;
}
