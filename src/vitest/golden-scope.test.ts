// The golden slots in-process: every test (concurrent ones too) has its own slot, and the worker's
// dispatcher answers a request with the handler installed in the slot of the test that made it.
import { beforeAll, describe, expect, test } from 'vitest';
import './golden-setup.ts';
import { workerMswInterceptor } from './golden-interceptor.ts';
import { goldenSlots } from './golden-scope.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answer = (who: string) => async () => Response.json({ who });
const whoAnswers = async (): Promise<unknown> => ((await (await fetch('https://api.openai.com/v1/models')).json()) as { who?: unknown }).who;

describe('golden slots under test.concurrent', () => {
  for (const [i, name] of ['alpha', 'bravo', 'charlie'].entries()) {
    test.concurrent(`${name} is answered by its own handler`, async ({ task }) => {
      expect(goldenSlots().getStore()?.context.task).toBe(task);
      await sleep(i * 3);
      const uninstall = workerMswInterceptor().install(answer(name));
      try {
        for (let k = 0; k < 3; k++) {
          await sleep((i * 5 + k * 7) % 11);
          expect(await whoAnswers()).toBe(name);
        }
      } finally {
        uninstall();
      }
      expect(goldenSlots().getStore()?.handler).toBeNull();
    });
  }

  test.concurrent('a concurrent test without a golden is not answered by its neighbours', async () => {
    await sleep(8);
    expect(await whoAnswers()).toBeUndefined();
  });
});

describe('outside any test (no slot)', () => {
  const seen: { store: unknown; second: string; afterUninstall: boolean } = { store: null, second: '', afterUninstall: false };
  beforeAll(() => {
    seen.store = goldenSlots().getStore();
    const interceptor = workerMswInterceptor();
    const first = interceptor.install(answer('first'));
    try {
      interceptor.install(answer('second'));
    } catch (error) {
      seen.second = (error as Error).message;
    }
    first();
    const again = interceptor.install(answer('again'));
    seen.afterUninstall = true;
    again();
  });

  test('one golden at a time, with an error that says how to get per-test routing', () => {
    expect(seen.store).toBeUndefined();
    expect(seen.second).toMatch(/another golden is intercepting right now and this test runs outside a golden scope/);
    expect(seen.second).toContain('goldenScope()');
    expect(seen.afterUninstall).toBe(true);
  });
});
