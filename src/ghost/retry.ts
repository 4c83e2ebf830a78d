// One retry policy for every SDK. The SDKs' own retries are switched off (maxRetries: 0, no genai
// retryOptions, AWS maxAttempts: 1) because they differ: @google/genai's ApiError carries no headers,
// so it cannot honor `retry-after`, and we want the same backoff, cap and retry count reported for every
// provider. `retry-after` is read from the failed response: through the Retrier's `fetch` for the SDKs
// that take one, from the error's `$response` for the AWS SDK (which has its own HTTP handlers).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderName } from './tool-names.ts';

export interface RetryPolicy {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap on any single wait, `retry-after` included. Default 10 s. */
  maxDelayMs?: number;
}

/**
 * A provider call that failed for good; `status` is the HTTP status when there was one.
 * @example
 *   if (error instanceof ProviderError && error.status === 401) console.error(`${error.provider}: check the API key`);
 */
export class ProviderError extends Error {
  readonly provider: ProviderName;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly attempts: number;

  constructor(provider: ProviderName, message: string, status: number | undefined, retryable: boolean, attempts: number) {
    super(message);
    this.name = 'ProviderError';
    this.provider = provider;
    this.status = status;
    this.retryable = retryable;
    this.attempts = attempts;
  }
}

/**
 * 408, 409, 429, 5xx (529 is Anthropic's "overloaded") are worth another try.
 * @example
 *   isRetryableStatus(429) // true; isRetryableStatus(400) // false
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const CONNECTION_ERROR = /fetch failed|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|network|terminated|Connection error/i;

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or HTTP date).
 * @example
 *   retryAfterMs(new Headers({ 'retry-after': '2' })) // 2000
 */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The HTTP status of an SDK error: `status` (OpenAI, Anthropic, Gemini) or `$metadata.httpStatusCode` (AWS). */
function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;
  const status = e?.status ?? e?.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 100 ? status : undefined;
}

/**
 * The failed response's headers as an SDK attached them to its error: the AWS SDK does not call
 * `fetch`, so the Retrier's own `fetch` never sees them, but its errors carry the raw response as
 * `$response` (Smithy's HttpResponse, headers a plain record).
 */
function errorHeaders(error: unknown): Headers | undefined {
  const record = (error as { $response?: { headers?: unknown } } | null)?.$response?.headers;
  if (typeof record !== 'object' || record === null) return undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    // HTTP/2 responses list pseudo-headers (`:status`) too, which are no header names.
    if (typeof value !== 'string' || name.startsWith(':')) continue;
    try {
      headers.append(name, value);
    } catch {
      // A name or value Headers refuses: skip it, the rest still count.
    }
  }
  return headers;
}

/** AWS exceptions worth another try, by name, for when no status came with them. */
const RETRYABLE_AWS = new Set(['ThrottlingException', 'ServiceUnavailableException', 'InternalServerException', 'ModelNotReadyException', 'ModelTimeoutException', 'TimeoutError']);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface CallState {
  headers?: Headers;
}

/**
 * Runs provider calls with retry; its `fetch` goes to the SDK so error responses' headers are seen
 * whichever SDK made the request.
 * @example
 * const retrier = new Retrier('openai', { maxRetries: 2 }, globalThis.fetch);
 * const client = new OpenAI({ fetch: retrier.fetch, maxRetries: 0 });
 * await retrier.run(() => client.chat.completions.create(body));
 */
export class Retrier {
  readonly fetch: typeof fetch;
  private readonly provider: ProviderName;
  private readonly policy: Required<RetryPolicy>;
  private readonly context = new AsyncLocalStorage<CallState>();

  constructor(provider: ProviderName, policy: RetryPolicy = {}, baseFetch?: typeof fetch) {
    this.provider = provider;
    this.policy = { maxRetries: policy.maxRetries ?? 3, baseDelayMs: policy.baseDelayMs ?? 500, maxDelayMs: policy.maxDelayMs ?? 10_000 };
    this.fetch = async (input, init) => {
      // Resolve fetch per call so MSW (which patches globalThis.fetch) is honored even if installed later.
      const response = await (baseFetch ?? globalThis.fetch)(input, init);
      const state = this.context.getStore();
      if (state && !response.ok) state.headers = response.headers;
      return response;
    };
  }

  /** Runs `fn`, retrying transient failures; resolves with the value and how many retries it took. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<{ value: T; retries: number }> {
    for (let attempt = 0; ; attempt++) {
      const state: CallState = {};
      try {
        return { value: await this.context.run(state, fn), retries: attempt };
      } catch (error) {
        if (signal?.aborted) throw error;
        const status = statusOf(error);
        const message = error instanceof Error ? error.message : String(error);
        const retryable = status !== undefined ? isRetryableStatus(status) : RETRYABLE_AWS.has((error as Error | null)?.name ?? '') || CONNECTION_ERROR.test(message);
        if (!retryable || attempt >= this.policy.maxRetries) {
          const what = status !== undefined ? `HTTP ${status}` : 'request failed';
          const after = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
          throw new ProviderError(this.provider, `${this.provider} ${what}${after}: ${message}`, status, retryable, attempt + 1);
        }
        const asked = retryAfterMs(state.headers ?? errorHeaders(error));
        const backoff = this.policy.baseDelayMs * 2 ** attempt;
        await sleep(Math.min(asked ?? backoff, this.policy.maxDelayMs), signal);
      }
    }
  }
}
