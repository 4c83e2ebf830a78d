// `toMatchGolden`: registered by the setup file, implemented in goldens-worker.ts, which is loaded the
// first time a test asserts a golden (see load-sync.ts).
import type { ResolvedGoldensConfig } from '../goldens/config.ts';
import type { SessionOutcome } from '../goldens/session.ts';
import { loadSync } from './load-sync.ts';

/** What `toMatchGolden` accepts besides the received value. */
export type PropertyMatchers = Record<string, unknown>;

declare module 'vitest' {
  // T is unused here: the augmentation must repeat Vitest's type parameters to merge with its interface.
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

type MatcherThis = { equals: (a: unknown, b: unknown) => boolean; isNot: boolean };

/** The matcher function registered with `expect.extend({ toMatchGolden })`. */
export function toMatchGolden(this: MatcherThis, received: unknown, nameOrMatchers?: string | PropertyMatchers, maybeMatchers?: PropertyMatchers): { pass: boolean; message: () => string } {
  return loadSync<typeof import('./goldens-worker.ts')>('goldens-worker').toMatchGolden.call(this, received, nameOrMatchers, maybeMatchers);
}
