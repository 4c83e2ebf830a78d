import type { TestContext } from 'vitest';
import type { GoldenFile } from '../goldens/schema.ts';
import { inProcessLayer } from './in-process.ts';
import { loadSync } from './load-sync.ts';
import './setup.ts';

/** The `golden` fixture: this test's golden, with its provider traffic recorded or replayed. */
export interface GoldenFixture {
  /** Absolute path of the golden file. */
  readonly file: string;
  /** `replay` (default, always in CI), `record` (GHOSTWIRE_RECORD=1 / --record-goldens) or `update` (`vitest -u`). */
  readonly mode: 'replay' | 'record' | 'update';
  /** Declares what went in (prompt, options); kept in the golden for readers and `ghostwire inspect`. */
  input(value: unknown): void;
  /** Record mode: send the traffic to this base URL instead of the real provider (e.g. a local mock server). */
  upstream(url: string | null): void;
  /** Replay streams at their recorded offsets (`real`) instead of without delays (`compressed`, the default). */
  timing(mode: 'compressed' | 'real'): void;
  /** The golden on disk, or null when none is recorded yet. */
  read(): GoldenFile | null;
  /**
   * For code outside the test process (a child app, a CLI): base-URL variables (`OPENAI_BASE_URL`,
   * `ANTHROPIC_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`) pointing at a session of the worker's ghostwire
   * server, whose traffic this golden records or replays like the test's own. Spread it into the
   * child's environment; `url()` is the session's base URL for clients configured otherwise. The
   * server starts on the worker's first call (tests that never call it pay nothing).
   * @example spawn(process.execPath, ['app.js'], { env: { ...process.env, ...(await golden.env()) } })
   */
  env(): Promise<Record<string, string>>;
  /** The base URL of the session `env()` points at (`http://127.0.0.1:PORT/s/ID`). */
  url(): Promise<string>;
}

/**
 * The fixture function: this test's golden answers (replay) or records (record) its provider traffic —
 * the providers' hosts, the configured `hosts`, and when recording any LLM API call wherever the client
 * points — and everything else goes on to your own MSW handlers. The golden is written when the test
 * passes. Safe under `test.concurrent`: each test's requests reach its own session.
 * @example
 *   const it = test.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });
 *   it('answers', async ({ golden }) => { golden.input({ prompt }); expect(await run(prompt)).toMatchGolden(); });
 */
export async function goldenFixture({ task }: Pick<TestContext, 'task'>, use: (fixture: GoldenFixture) => Promise<void>): Promise<void> {
  const slot = inProcessLayer().requireSlot('the golden fixture');
  if (slot.task !== task) throw new Error(`ghostwire: the golden fixture of "${task.name}" runs inside the slot of "${slot.task.name}"`);
  const session = loadSync<typeof import('./goldens-worker.ts')>('goldens-worker').goldenSessionOf(slot);
  inProcessLayer().intercept();
  await session.intercept({
    install(handler) {
      slot.golden = handler;
      return () => {
        if (slot.golden === handler) slot.golden = null;
      };
    },
  });
  // The worker's port is loaded and started on the first env() (tests that never call it pay nothing); one session per test.
  type Bound = ReturnType<import('./golden-port.ts').GoldenPort['bind']>;
  const bound: { port: Promise<Bound> | null } = { port: null };
  const portSession = (): Promise<Bound> => (bound.port ??= import('./golden-port.ts').then(async ({ goldenPort }) => (await goldenPort()).bind(session)));
  try {
    await use({
      file: session.file,
      mode: session.mode,
      input: (value) => session.setInput(value),
      upstream: (url) => session.setUpstream(url),
      timing: (mode) => session.setTiming(mode),
      read: () => session.golden(),
      env: async () => ({ ...(await portSession()).env }),
      url: async () => (await portSession()).url,
    });
  } finally {
    // Released before the session finishes: a late request from a child still running gets a 404, not the next test's golden.
    if (bound.port) (await bound.port.catch(() => null))?.release();
  }
}
