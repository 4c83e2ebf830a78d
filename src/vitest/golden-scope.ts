/**
 * Which golden session a request belongs to, under `test.concurrent` too: every test runs inside its
 * own slot (an AsyncLocalStorage entered by an `aroundEach` the goldens setup file registers), the
 * `golden` fixture puts its session's handler in the slot, and the worker's MSW dispatcher answers a
 * request with the handler of the slot it was made from.
 *
 * Why an aroundEach and not the fixture itself: in Vitest 5 a fixture runs in its own async context —
 * `enterWith` there (after any await) does not reach the test body, while an aroundEach's `run()`
 * wraps both the fixture and the test body (checked: three concurrent tests each read their own slot).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { aroundEach, type TestContext } from 'vitest';
import type { GoldenHandler } from '../goldens/interceptor.ts';

/** One test's goldens state, visible from anything the test (or its fixtures) awaits. */
export interface GoldenSlot {
  readonly context: Pick<TestContext, 'task' | 'onTestFinished'>;
  /** The handler of the test's golden session while it intercepts, else null. */
  handler: GoldenHandler | null;
}

// One storage per process, like the worker's MSW server: test files re-evaluate this module, and the
// dispatcher (created by the first evaluation) must read the slots the latest evaluation enters.
const KEY = Symbol.for('ghostwire.goldens.slots');

/**
 * The worker's slot storage.
 * @example goldenSlots().getStore()?.context.task.name
 */
export function goldenSlots(): AsyncLocalStorage<GoldenSlot> {
  const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<GoldenSlot> | undefined>;
  holder[KEY] ??= new AsyncLocalStorage<GoldenSlot>();
  return holder[KEY];
}

/**
 * Runs every test of the current file (or of every file, from a setup file) in its own golden slot.
 * The goldens setup file calls it; nested registrations are harmless (the innermost slot wins).
 * @example
 *   // vitest.setup.ts (only when not using the plugin nor importing ghostwire/vitest)
 *   goldenScope();
 */
export function goldenScope(): void {
  // Vitest parses a hook's context argument like a fixture's: it must be destructured.
  aroundEach(async (runTest, { task, onTestFinished }) => {
    await goldenSlots().run({ context: { task, onTestFinished }, handler: null }, runTest);
  });
}
