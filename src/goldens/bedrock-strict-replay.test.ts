// Strict replay of Bedrock's minted reasoning values, through the official SDKs as users call them
// (@aws-sdk/client-bedrock-runtime's Converse, ConverseStream, InvokeModel and
// InvokeModelWithResponseStream, @anthropic-ai/bedrock-sdk's Mantle client): a golden recorded from a
// mock LLM upstream replays two reasoning tool loops in-process. Code that passes back the signature or
// redacted content it was served goes through; code that alters it, or passes another recording's, gets
// the very error the live mock gives for the same request (checked against the live mock) and the test
// fails; a value the live mock no longer checks (its loop is over) goes through, as it does live.
import { describe, expect, it } from 'vitest';
import { startMockLLMServer } from '../transports/server.ts';
import { GoldenMismatchError } from './errors.ts';
import { BEDROCK_LOOPS, bedrockLoop, type Loop, type Tamper } from './testing/bedrock-loops.ts';
import { recordThrough, tempRuntime } from './testing/runtime.ts';

const ANSWER = 'Sunny in Paris. Rainy in Lyon.';

/** What the live mock answers `tamper` with: null when it accepts the conversation, else [status, message]. */
async function live(l: Loop, tamper: Tamper, redacted = false): Promise<[number, string] | null> {
  const server = await startMockLLMServer({ scenarios: [bedrockLoop(redacted)] });
  try {
    return await l.agent(tamper, server.url).then(
      ({ answer }) => (expect(answer).toBe(ANSWER), null),
      (e: unknown) => l.failure(e),
    );
  } finally {
    await server.close();
  }
}

const record = (l: Loop, redacted = false) => recordThrough(bedrockLoop(redacted), 'agent.test.ts', 'thinks', () => l.agent({ kind: 'keep' }));

/** Replays the golden at `root`/`file` with `tamper`: the client's refusal (or null) and how the test ended. */
async function replay(l: Loop, root: string, file: string, tamper: Tamper): Promise<{ refusal: [number, string] | null; failed: unknown }> {
  const { runtime } = tempRuntime('replay', {}, root);
  await runtime.session(file, 'thinks').intercept();
  const outcome = await l.agent(tamper).then(
    ({ answer }) => ({ answer }),
    (error: unknown) => ({ error }),
  );
  // Even if the code swallowed the error, the test fails, saying why.
  const failed = await runtime.finish(file, 'thinks', true).then(
    (finished) => (expect(finished?.action).toBe('replayed'), null),
    (e: unknown) => e,
  );
  if ('answer' in outcome) expect(outcome.answer).toBe(ANSWER);
  return { refusal: 'error' in outcome ? l.failure(outcome.error) : null, failed };
}

function expectGoldenFailure(failed: unknown, status: number): void {
  expect(failed).toBeInstanceOf(GoldenMismatchError);
  expect((failed as Error).message).toContain('passes back a reasoning value this replay did not serve');
  expect((failed as GoldenMismatchError).wire?.status).toBe(status);
}

const SIGNATURE = 'messages.1.content.0: Invalid `signature` in `thinking` block';
/** Converse reports Claude's error as the model's. */
const CONVERSE_SIGNATURE = `The model returned the following errors: ${SIGNATURE}`;

/** The live mock's refusal of a first-loop signature altered or from another recording (each API's own status and words). */
const REFUSED: Record<keyof typeof BEDROCK_LOOPS, [number, string]> = {
  converse: [400, CONVERSE_SIGNATURE],
  'converse-stream': [400, CONVERSE_SIGNATURE],
  invoke: [400, SIGNATURE],
  'invoke-stream': [400, SIGNATURE],
  mantle: [400, SIGNATURE],
};

/** The live mock's refusal of a first-loop thinking block passed back without its signature. */
const DROPPED: Record<keyof typeof BEDROCK_LOOPS, [number, string]> = {
  converse: [400, CONVERSE_SIGNATURE],
  'converse-stream': [400, CONVERSE_SIGNATURE],
  invoke: [400, 'messages.1.content.0.signature: Field required'],
  'invoke-stream': [400, 'messages.1.content.0.signature: Field required'],
  mantle: [400, 'messages.1.content.0.signature: Field required'],
};

describe.each(Object.keys(BEDROCK_LOOPS) as Array<keyof typeof BEDROCK_LOOPS>)('Bedrock %s: golden replay checks the reasoning values passed back', (name) => {
  const l = BEDROCK_LOOPS[name];

  it('the signatures this replay served go back unchanged: both loops replay', async () => {
    const { recorded, root, file, golden } = await record(l);
    expect(recorded.answer).toBe(ANSWER);
    expect(golden.interactions).toHaveLength(4);
    const { refusal, failed } = await replay(l, root, file, { kind: 'keep' });
    expect([refusal, failed]).toEqual([null, null]);
  });

  it.each(['alter', 'drop'] as const)("a signature the code %ss is refused with the live mock's own error, and the test fails", async (kind) => {
    const expected = await live(l, { kind });
    expect(expected).toEqual(kind === 'alter' ? REFUSED[name] : DROPPED[name]);
    const { root, file } = await record(l);
    const { refusal, failed } = await replay(l, root, file, { kind });
    expect(refusal).toEqual(expected);
    expectGoldenFailure(failed, expected![0]);
  });

  it("a signature from another recording (a genuine one, minted for the same text) is refused as the live mock refuses it", async () => {
    const other = await record(l);
    const { root, file, recorded } = await record(l);
    const foreign = other.recorded.minted[0];
    expect(foreign).not.toBe(recorded.minted[0]);
    const expected = await live(l, { kind: 'swap', value: foreign });
    expect(expected).toEqual(REFUSED[name]);
    const { refusal, failed } = await replay(l, root, file, { kind: 'swap', value: foreign });
    expect(refusal).toEqual(expected);
    expectGoldenFailure(failed, expected![0]);
  });

  it('a signature altered once its loop is over is accepted live, and so on replay (never stricter)', async () => {
    expect(await live(l, { kind: 'stale' })).toBeNull();
    const { root, file } = await record(l);
    const { refusal, failed } = await replay(l, root, file, { kind: 'stale' });
    expect([refusal, failed]).toEqual([null, null]);
  });
});

const REDACTED = 'messages.1.content.0: Invalid `data` in `redacted_thinking` block';

describe.each(Object.keys(BEDROCK_LOOPS) as Array<keyof typeof BEDROCK_LOOPS>)('Bedrock %s with redacted reasoning: golden replay checks the redacted content', (name) => {
  const l = BEDROCK_LOOPS[name];
  // Converse's redactedContent, Anthropic's redacted_thinking data (InvokeModel bodies, Mantle): one check, each API's words.
  const refused: [number, string] = [400, name.startsWith('converse') ? `The model returned the following errors: ${REDACTED}` : REDACTED];

  it('the redacted content served goes back unchanged: the loops replay; altered once its loop is over, too', async () => {
    const { root, file } = await record(l, true);
    expect((await replay(l, root, file, { kind: 'keep' })).failed).toBeNull();
    expect(await live(l, { kind: 'stale' }, true)).toBeNull();
    expect(await replay(l, root, file, { kind: 'stale' })).toEqual({ refusal: null, failed: null });
  });

  it("altered or another recording's redacted content is refused with the live mock's own error", async () => {
    expect(await live(l, { kind: 'alter' }, true)).toEqual(refused);
    const other = await record(l, true);
    const { root, file } = await record(l, true);
    const altered = await replay(l, root, file, { kind: 'alter' });
    expect(altered.refusal).toEqual(refused);
    expectGoldenFailure(altered.failed, 400);
    const swap: Tamper = { kind: 'swap', value: other.recorded.minted[0] };
    expect(await live(l, swap, true)).toEqual(refused);
    const foreign = await replay(l, root, file, swap);
    expect(foreign.refusal).toEqual(refused);
    expectGoldenFailure(foreign.failed, 400);
  });
});

describe('one golden over both Bedrock endpoints', () => {
  it('InvokeModel and Mantle (one provider id, two adapters) each check the values served on their own endpoint', async () => {
    const twice = { ...bedrockLoop(), steps: [...bedrockLoop().steps!, ...bedrockLoop().steps!] };
    const both = async () => [await BEDROCK_LOOPS.invoke.agent({ kind: 'keep' }), await BEDROCK_LOOPS.mantle.agent({ kind: 'keep' })].map((r) => r.answer);
    const { recorded, root, file, golden } = await recordThrough(twice, 'agent.test.ts', 'thinks', both);
    expect(recorded).toEqual([ANSWER, ANSWER]);
    expect(golden.interactions).toHaveLength(8);
    const { runtime } = tempRuntime('replay', {}, root);
    await runtime.session(file, 'thinks').intercept();
    const replayed = await both().finally(() => runtime.finish(file, 'thinks', true).then((outcome) => expect(outcome?.action).toBe('replayed')));
    expect(replayed).toEqual([ANSWER, ANSWER]);
  });
});
