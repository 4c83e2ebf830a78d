/**
 * Test-only: canonical answers and requests with plain defaults, and a seeded random pool, for tests
 * that render through adapters directly (conformance cases, answer templates).
 */
import { RandomBytes } from '../common/ids.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/**
 * A canonical answer: an empty text, no tool calls, unpaced stream options; `over` replaces fields.
 * @example
 *   canonicalResponse({ text: 'Hello there.' })
 */
export function canonicalResponse(over: Partial<CanonicalResponse> = {}): CanonicalResponse {
  return {
    id: 'abc123',
    model: 'm-1',
    created: 1_700_000_000,
    text: '',
    toolCalls: [],
    usage: { inputTokens: 11, outputTokens: 7 },
    finishReason: 'stop',
    stream: { chunkSize: 4, chunkDelayMs: 0, chunks: null, disconnectAfterChunks: null },
    headers: {},
    ...over,
  };
}

/**
 * A canonical request of one user message; `over` replaces fields.
 * @example
 *   canonicalRequest({ provider: 'anthropic', path: '/v1/messages', stream: true })
 */
export function canonicalRequest(over: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return { provider: 'openai', path: '/', model: 'm-1', stream: false, messages: [{ role: 'user', content: 'hi' }], tools: [], headers: {}, params: {}, raw: {}, ...over };
}

/**
 * A random pool that gives the same bytes for the same seed (xorshift), so two renderings draw alike.
 * @example
 *   new SeededRandom(7).chars(8, ID_ALPHABETS.alnum) === new SeededRandom(7).chars(8, ID_ALPHABETS.alnum) // true
 */
export class SeededRandom extends RandomBytes {
  #state: number;
  constructor(seed: number) {
    super();
    this.#state = seed | 1;
  }
  override next(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x;
    return x & 0xff;
  }
}
