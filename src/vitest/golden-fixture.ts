import type { TestContext } from 'vitest';
import { fullTestName, goldensRuntime } from '../goldens/runtime.ts';
import type { GoldenFile } from '../goldens/schema.ts';
import { finishOnTestEnd } from './golden-matcher.ts';
import { workerMswInterceptor } from './golden-interceptor.ts';
// Registers toMatchGolden and the worker's runtime even when the plugin is not configured (the plugin
// runs the same module as its setup file, so this is evaluated once either way).
import './golden-setup.ts';

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
}

/**
 * The fixture function: intercepts the providers' hosts for the test (replaying from the golden, or
 * recording through to the upstream) and writes the golden when the test passes. Safe under
 * `test.concurrent`: each test's requests reach its own session (see golden-scope.ts); use the
 * context's `expect` there as Vitest advises, though `toMatchGolden` finds its test either way.
 * @example
 *   const it = test.extend<{ golden: GoldenFixture }>({ golden: goldenFixture });
 *   it('answers', async ({ golden }) => { golden.input({ prompt }); expect(await run(prompt)).toMatchGolden(); });
 */
export async function goldenFixture(
  { task, onTestFinished }: Pick<TestContext, 'task' | 'onTestFinished'>,
  use: (fixture: GoldenFixture) => Promise<void>,
): Promise<void> {
  const testFile = task.file.filepath;
  const testName = fullTestName(task);
  const session = goldensRuntime().session(testFile, testName, () => finishOnTestEnd(testFile, testName, (fn) => onTestFinished(fn)));
  await session.intercept(workerMswInterceptor());
  await use({
    file: session.file,
    mode: session.mode,
    input: (value) => session.setInput(value),
    upstream: (url) => session.setUpstream(url),
    timing: (mode) => session.setTiming(mode),
    read: () => session.golden(),
  });
}
