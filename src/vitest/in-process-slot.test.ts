// Where a test's slot comes from: the per-test hook registered once per test file, and the error a
// ghostwire call gets when its test file has no hook (no plugin, a worker shared under isolate: false).
import { beforeAll, describe, expect, test, TestRunner, type RunnerTestFile } from 'vitest';
import { InProcessLayer, inProcessLayer } from './in-process.ts';
import { useMockLLM } from './use-mock-llm.ts';

const options = { sealedOrigins: ['https://api.openai.com'], seal: true };
let outsideTest: unknown;

beforeAll(() => {
  try {
    useMockLLM([]);
  } catch (error) {
    outsideTest = error;
  }
});

describe('the per-test slot', () => {
  test('the setup registered the hook once for this file, and the test runs in its slot', ({ task }) => {
    expect(TestRunner.getSuiteHooks(task.file).aroundEach).toHaveLength(1);
    expect(inProcessLayer().requireSlot('this test').task).toBe(task);
    // Claimed already: another evaluation of the setup (the plugin's setup file beside an import) adds nothing.
    expect(inProcessLayer().claimFile(task.file)).toBe(false);
  });

  test('claimFile claims each file once; with no file being collected there is nothing to dedupe', () => {
    const layer = new InProcessLayer(options);
    const file = { name: 'a.test.ts' } as RunnerTestFile;
    expect(layer.claimFile(file)).toBe(true);
    expect(layer.claimFile(file)).toBe(false);
    expect(layer.claimFile({ name: 'b.test.ts' } as RunnerTestFile)).toBe(true);
    expect(layer.claimFile(undefined)).toBe(true);
  });

  test('in a test of a file without the hook, the error says why and names both fixes', () => {
    // A layer that never registered this file: what a later file of a shared worker meets with the import alone.
    const layer = new InProcessLayer(options);
    expect(() => layer.requireSlot('useMockLLM()')).toThrow(
      "ghostwire: useMockLLM() ran in a test of src/vitest/in-process-slot.test.ts that has no ghostwire slot: without the ghostwire plugin, importing 'ghostwire/vitest' sets up only the first test file of a Vitest worker",
    );
    expect(() => layer.requireSlot('useMockLLM()')).toThrow("Add the plugin (plugins: [ghostwire()] from 'ghostwire/plugin' in vitest.config) or add 'ghostwire/vitest/setup' to test.setupFiles.");
  });

  test('outside a running test (beforeAll), the call is told it belongs in a test', () => {
    expect(outsideTest).toBeInstanceOf(Error);
    expect((outsideTest as Error).message).toBe('useMockLLM() must be called inside a running test (its mocks and golden belong to that test only)');
  });
});
