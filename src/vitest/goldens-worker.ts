import { expect, inject } from 'vitest';
// The goldens side of the worker, loaded on first use (golden-matcher.ts, golden-fixture.ts).
import { resolveGoldensConfig } from '../goldens/config.ts';
import { fullTestName, GoldensRuntime } from '../goldens/runtime.ts';
import { GoldenSession, type SessionOutcome } from '../goldens/session.ts';
import { inProcessLayer, type TestSlot } from './in-process.ts';

type PropertyMatchers = Record<string, unknown>;

/** The worker's goldens runtime: the plugin's options, or the defaults (root = cwd) without the plugin. */
function runtime(): GoldensRuntime {
  const layer = inProcessLayer();
  let found = layer.cache.get('goldens') as GoldensRuntime | undefined;
  if (!found) {
    const config = inject('ghostwire') ?? resolveGoldensConfig({}, { root: process.cwd(), env: process.env, update: false });
    found = new GoldensRuntime(config);
    layer.cache.set('goldens', found);
  }
  return found;
}

/**
 * The golden session of the test that owns `slot`, created on first use; when the test ends the golden
 * is written (or the replay failure thrown) and the outcome attached to the task for the reporter.
 * @example const session = goldenSessionOf(inProcessLayer().slot()!)
 */
export function goldenSessionOf(slot: TestSlot): GoldenSession {
  if (slot.goldenSession) return slot.goldenSession as GoldenSession;
  const session = new GoldenSession(runtime().ctx, { testFile: slot.task.file.filepath, testName: fullTestName(slot.task) });
  slot.goldenSession = session;
  slot.finishers.push(async (passed) => {
    const meta = slot.task.meta as { ghostwire?: SessionOutcome };
    // Marked as used before finishing, so a failing test's golden is not reported as obsolete.
    meta.ghostwire = { file: session.relativeFile, action: null, drift: [] };
    meta.ghostwire = await session.finish(passed);
  });
  return session;
}

/** `toMatchGolden`'s implementation (golden-matcher.ts registers it). */
export function toMatchGolden(
  this: { equals: (a: unknown, b: unknown) => boolean; isNot: boolean },
  received: unknown,
  nameOrMatchers?: string | PropertyMatchers,
  maybeMatchers?: PropertyMatchers,
): { pass: boolean; message: () => string } {
  const name = typeof nameOrMatchers === 'string' ? nameOrMatchers : 'output';
  const propertyMatchers = typeof nameOrMatchers === 'object' && nameOrMatchers !== null ? nameOrMatchers : maybeMatchers;
  // The calling test's own slot: under test.concurrent the global `expect` names whichever test started last.
  const slot = inProcessLayer().requireSlot('toMatchGolden()');
  if (this.isNot) throw new Error('toMatchGolden() cannot be negated: a golden records what the output is, not what it is not');
  const result = goldenSessionOf(slot).expect(name, received, { propertyMatchers, equals: (a, b) => this.equals(a, b), matchers: expect });
  return { pass: result.pass, message: () => result.message };
}
