// Strict replay of minted reasoning values, through the official SDKs as users call them: a golden
// recorded from a mock LLM upstream replays a reasoning tool loop in-process; code that passes back the
// signature or encrypted content it was served goes through, code that alters or drops it gets the very
// error the live mock gives for the same request (checked against the live mock itself), and the test fails.
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { GoldenMismatchError } from './errors.ts';
import { LIVE, LOOPS, loop, type Loop, type Tamper } from './testing/reasoning-loops.ts';
import { recordThrough, tempRuntime } from './testing/runtime.ts';

/** What the live mock answers the tampered loop with: the replay must refuse exactly so. */
async function liveFailure(l: Loop, tamper: Tamper): Promise<[number, string]> {
  const server = await startMockLLMServer({ scenarios: [loop] });
  try {
    return l.failure(await l.agent(tamper, server.url).then(() => null, (e: unknown) => e));
  } finally {
    await server.close();
  }
}

describe.each(Object.keys(LOOPS) as Array<keyof typeof LOOPS>)('%s: golden replay checks the reasoning values passed back', (name) => {
  const l = LOOPS[name];

  it('the values this replay served go back unchanged: the loop replays', async () => {
    const { recorded, root, file } = await recordThrough(loop, 'agent.test.ts', 'thinks', () => l.agent('keep'));
    expect(recorded).toBe('Sunny in Paris.');
    const { runtime } = tempRuntime('replay', {}, root);
    await runtime.session(file, 'thinks').intercept();
    const answer = await l.agent('keep').finally(() => runtime.finish(file, 'thinks', true).then((outcome) => expect(outcome?.action).toBe('replayed')));
    expect(answer).toBe('Sunny in Paris.');
  });

  it.each(['alter', 'drop'] as const)('a value the code %ss is refused with the live mock\'s own error, and the test fails', async (tamper) => {
    const live = await liveFailure(l, tamper);
    expect(live).toEqual(LIVE[name][tamper]);
    const { root, file } = await recordThrough(loop, 'agent.test.ts', 'thinks', () => l.agent('keep'));
    const { runtime } = tempRuntime('replay', {}, root);
    await runtime.session(file, 'thinks').intercept();
    const error = await l.agent(tamper).then(() => null, (e: unknown) => e);
    // Even if the code swallowed the error, the test fails, saying why.
    const failed = await runtime.finish(file, 'thinks', true).catch((e: unknown) => e);
    expect(l.failure(error)).toEqual(live);
    expect(failed).toBeInstanceOf(GoldenMismatchError);
    expect((failed as Error).message).toContain('passes back a reasoning value this replay did not serve');
    expect((failed as GoldenMismatchError).wire?.status).toBe(live[0]);
  });
});
