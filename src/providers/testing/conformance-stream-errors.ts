/**
 * Test-only: the shared conformance cases of mid-stream errors (`respond.stream.errorAfterChunks`):
 * through each SDK (the text before the error arrives, then the SDK reports its own error), and
 * through each adapter's reader (a recorded stream that failed keeps the failure).
 */
import { expect, it, describe } from 'vitest';
import type { ProviderAdapter } from '../adapter.ts';
import { withStreamError } from '../common/stream-error.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import type { MockLLM } from '../../transports/mock-llm.ts';
import type { ConformanceKit, ConformanceSdk } from './conformance.ts';

/** How the SDK reported a stream that failed midway: its own error's fields (or the event's, where the SDK throws none). */
export interface SdkStreamError {
  /** The API's message as the SDK exposes it (Anthropic's `apiMessage`, OpenAI's `error.message`). */
  message?: string;
  /** The error type as the SDK exposes it (`err.type`, the AWS exception's name); null where it has none. */
  type?: string | null;
  /** The status as the SDK exposes it (Gemini's ApiError); null where a stream error carries none. */
  status?: number | null;
}

/** What the SDK reports for a mid-stream error of status 503, and what it passes through. */
export interface StreamErrorExpectations {
  /** The type the SDK reports when the step gives only the status 503; null where the SDK reports none. */
  typeFor503: string | null;
  /** A type of this API's to give in the step, and the type the SDK reports for it; absent where no type reaches the SDK. */
  given?: { type: string; reported: string };
  /** Does the SDK report the status (503)? */
  status: boolean;
  /** Does the SDK report the message? (False only where the wire has no place for one: Mistral.) */
  message: boolean;
  /** Where the failure is a finish reason rather than an error object (Mistral's `error`): that reason. */
  finishReason?: string;
}

const FULL = 'Hello there, traveller. The road is long.';

function expectations(kit: ConformanceKit): StreamErrorExpectations {
  if (!kit.streamError) throw new Error(`${kit.id}: the kit names no streamError expectations`);
  return kit.streamError;
}

/**
 * The reader case: `response` (streaming FULL with an error after 8 frames) rendered, the error
 * spliced in as the core does, then read back.
 * @example
 *   readsStreamErrors(kit, adapter, response, request);
 */
export function readsStreamErrors(kit: ConformanceKit, adapter: ProviderAdapter, base: CanonicalResponse, request: CanonicalRequest): void {
  it('reads a stream that failed midway: the text before the error, and the error', () => {
    const expected = expectations(kit);
    const response: CanonicalResponse = { ...base, text: FULL, stream: { chunkSize: 3, chunkDelayMs: 0, chunks: null, disconnectAfterChunks: null, errorAfterChunks: 8, error: { message: 'boom', status: 503 } } };
    const rendered = withStreamError(adapter, adapter.render(response, request, adapter.createState?.()), response, request);
    const view = adapter.reader.streamedAnswer(rendered.stream!.frames);
    expect(view.text.length).toBeGreaterThan(0);
    expect(FULL.startsWith(view.text) && view.text.length < FULL.length).toBe(true);
    if (expected.message) expect(view.error?.message).toBe('boom');
    if (expected.finishReason) expect(view.finishReason).toBe(expected.finishReason);
  });
}

/**
 * The SDK cases, over one transport: `base()` is the real port's URL (undefined over MSW).
 * @example
 *   streamErrorCases(kit, sdk, { base: () => base, use, mock });
 */
export function streamErrorCases(kit: ConformanceKit, sdk: ConformanceSdk, env: { base: () => string | undefined; use: (...s: ScenarioInput[]) => void; mock: MockLLM }): void {
  const failing = (error: { message: string; type?: string; status?: number }, errorAfterChunks = 8): ScenarioInput => ({
    name: 'flaky',
    steps: [{ respond: { text: FULL, stream: { chunkSize: 3, errorAfterChunks, error } } }],
  });

  describe("ends a stream midway with the provider's own error event (errorAfterChunks)", () => {
    it('the text before it arrives, then the SDK reports its own error with the message, type and status', async () => {
      const expected = expectations(kit);
      env.use(failing({ message: 'The model is overloaded right now.', status: 503 }));
      const { text, error } = await sdk.streamError(env.base(), 'm-1', 'hi');
      // Some of the answer, never all of it: the error came midway.
      expect(text.length).toBeGreaterThan(0);
      expect(FULL.startsWith(text) && text.length < FULL.length).toBe(true);
      if (expected.message) expect(error.message).toContain('The model is overloaded right now.');
      expect(error.type ?? null).toBe(expected.typeFor503);
      expect(error.status ?? null).toBe(expected.status ? 503 : null);
      expect(env.mock.unconsumed()).toEqual([]);
    });

    it("passes the step's own error type through", async () => {
      const expected = expectations(kit);
      env.use(failing({ message: 'Slow down.', ...(expected.given ? { type: expected.given.type } : {}) }));
      const { error } = await sdk.streamError(env.base(), 'm-1', 'hi');
      if (expected.message) expect(error.message).toContain('Slow down.');
      expect(error.type ?? null).toBe(expected.given?.reported ?? expected.typeFor503);
    });

    it('as the first frame (errorAfterChunks 0): nothing of the answer arrives, the SDK still reports it', async () => {
      const expected = expectations(kit);
      env.use(failing({ message: 'Failed before the first token.' }, 0));
      const { text, error } = await sdk.streamError(env.base(), 'm-1', 'hi');
      expect(text).toBe('');
      if (expected.message) expect(error.message).toContain('Failed before the first token.');
    });
  });
}
