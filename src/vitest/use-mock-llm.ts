/**
 * `useMockLLM(...)` and the `mockLLM` fixture: the providers' default hosts (and any `baseUrls`) answer
 * from a MockLLM for the rest of the calling test, and only that test — under `test.concurrent` too.
 * The mock goes into the test's slot (src/vitest/in-process.ts), read by ghostwire's handler in the
 * worker's one MSW server: yours when you have one (`setupServer` in a setup file), else ghostwire's.
 */
import { statSync } from 'node:fs';
import type { SetupServer } from 'msw/node';
import { inject } from 'vitest';
import { loadScenarios } from '../scenario/loader.ts';
import type { Scenario } from '../scenario/schema.ts';
import { createMockLLM, MockLLM, type ScenarioList } from '../transports/mock-llm.ts';
import { mockLLMRoute } from '../transports/msw.ts';
import { inProcessLayer, type TestSlot } from './in-process.ts';
import './setup.ts';

/**
 * ghostwire's own MSW server, for suites without one of their own: add handlers next to the mocks
 * (`use()` in a test stays in that test). With your own `setupServer`, use yours instead.
 * @example
 *   mswServer().use(http.get('https://example.com/x', () => HttpResponse.json({ ok: true })));
 */
export function mswServer(): SetupServer {
  return inProcessLayer().ownServer();
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

function currentSlot(what: string): TestSlot {
  return inProcessLayer().requireSlot(what);
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
  const slot = currentSlot('useMockLLM()');
  const mock = createMockLLM({ scenarios: toScenarios(scenarios) });
  inProcessLayer().intercept();
  slot.mocks.push(mockLLMRoute(mock, { baseUrls: options.baseUrls }));
  return mock;
}

/** The scenarios the ghostwire plugin provides to every `mockLLM` fixture, loaded once per worker. */
function pluginScenarios(): Scenario[] {
  const paths = inject('ghostwireScenarios');
  if (!paths?.length) return [];
  const cache = inProcessLayer().cache;
  const key = `scenarios\u0000${paths.join('\u0000')}`;
  let scenarios = cache.get(key) as Scenario[] | undefined;
  if (!scenarios) cache.set(key, (scenarios = loadScenarios(paths)));
  return scenarios;
}

/**
 * The `mockLLM` test fixture: a MockLLM (empty, or with the plugin's `scenarios` / `MOCKLLM_SCENARIOS`)
 * answering the providers' default hosts for this test only (add scenarios with `mockLLM.use(...)`).
 * The composed `test` of `ghostwire/vitest` registers it as `mockLLM`.
 * @example
 *   const test = base.extend({ mockLLM: mockLLMFixture });
 *   test('hi', async ({ mockLLM }) => { mockLLM.use(scenario('hi').respondWithText('Hello')); ... });
 */
export async function mockLLMFixture({}: object, use: (mock: MockLLM) => Promise<void>): Promise<void> {
  const slot = currentSlot('the mockLLM fixture');
  const mock = createMockLLM({ scenarios: pluginScenarios() });
  const route = mockLLMRoute(mock);
  inProcessLayer().intercept();
  slot.mocks.push(route);
  try {
    await use(mock);
  } finally {
    const at = slot.mocks.indexOf(route);
    if (at !== -1) slot.mocks.splice(at, 1);
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Scenario paths the ghostwire plugin gives every `mockLLM` fixture (its `scenarios` option or MOCKLLM_SCENARIOS). */
    ghostwireScenarios?: string[];
  }
}
