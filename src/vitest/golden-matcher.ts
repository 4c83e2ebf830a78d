import { expect, onTestFinished, type TestContext } from 'vitest';
import { fullTestName, goldensRuntime } from '../goldens/runtime.ts';
import { goldenSlots } from './golden-scope.ts';
import type { ResolvedGoldensConfig } from '../goldens/config.ts';
import type { SessionOutcome } from '../goldens/session.ts';

/** What `toMatchGolden` accepts besides the received value. */
export type PropertyMatchers = Record<string, unknown>;

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the augmentation must repeat Vitest's type parameters
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> {
    /**
     * Compares the value with the expected output stored in this test's golden (default name `output`).
     * Ids, timestamps and durations are masked; a difference prints a JSON-patch diff. A missing golden
     * output is written locally and fails in CI. Property matchers (`{ usage: expect.any(Object) }`) work.
     * @example expect(run).toMatchGolden()
     * @example expect(run.summary).toMatchGolden('summary', { tokens: expect.any(Number) })
     */
    toMatchGolden: (nameOrMatchers?: string | PropertyMatchers, propertyMatchers?: PropertyMatchers) => R;
  }
  interface ProvidedContext {
    /** Goldens options resolved by the ghostwire plugin for this run. */
    ghostwire: ResolvedGoldensConfig;
  }
  interface TaskMeta {
    /** What the test did with its golden; read by the goldens reporter. */
    ghostwire?: SessionOutcome;
  }
}

/**
 * Registers the session's end on the test: when the test is over, the golden is written (or the
 * replay failure thrown) and the outcome attached to the task for the reporter.
 */
export function finishOnTestEnd(testFile: string, testName: string, register: (fn: (ctx: TestContext) => Promise<void>) => void): void {
  register(async (ctx) => {
    const runtime = goldensRuntime();
    const meta = ctx.task.meta as { ghostwire?: SessionOutcome };
    const file = runtime.peek(testFile, testName)?.relativeFile;
    // Marked as used before finishing, so a failing test's golden is not reported as obsolete.
    if (file) meta.ghostwire = { file, action: null, drift: [] };
    const outcome = await runtime.finish(testFile, testName, ctx.task.result?.state !== 'fail');
    if (outcome) meta.ghostwire = outcome;
  });
}

/** The matcher function registered with `expect.extend({ toMatchGolden })`. */
export function toMatchGolden(
  this: { testPath?: string; currentTestName?: string; equals: (a: unknown, b: unknown) => boolean; isNot: boolean },
  received: unknown,
  nameOrMatchers?: string | PropertyMatchers,
  maybeMatchers?: PropertyMatchers,
): { pass: boolean; message: () => string } {
  const name = typeof nameOrMatchers === 'string' ? nameOrMatchers : 'output';
  const propertyMatchers = typeof nameOrMatchers === 'object' && nameOrMatchers !== null ? nameOrMatchers : maybeMatchers;
  // The calling test's own slot first: under test.concurrent the global `expect` names whichever test
  // started last, while the slot belongs to the test whose async context this is.
  const slot = goldenSlots().getStore();
  const testPath = slot ? slot.context.task.file.filepath : this.testPath;
  const currentTestName = slot ? fullTestName(slot.context.task) : this.currentTestName;
  if (!testPath || !currentTestName) throw new Error('toMatchGolden() must be called inside a running test');
  if (this.isNot) throw new Error('toMatchGolden() cannot be negated: a golden records what the output is, not what it is not');
  const runtime = goldensRuntime();
  const register = slot ? (fn: Parameters<typeof onTestFinished>[0]) => slot.context.onTestFinished(fn) : (fn: Parameters<typeof onTestFinished>[0]) => onTestFinished(fn);
  const session = runtime.session(testPath, currentTestName, () => finishOnTestEnd(testPath, currentTestName, register));
  const result = session.expect(name, received, { propertyMatchers, equals: (a, b) => this.equals(a, b), matchers: expect });
  return { pass: result.pass, message: () => result.message };
}
