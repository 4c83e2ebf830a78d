/**
 * Retry timing and the circuit breaker (seed Phase 2). The clock is injected so tests can run
 * backoff schedules and breaker cool-downs without waiting.
 */

/** Time as the proxy sees it. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Delay before retry `attempt` (0-based): 1, 2, 4, 8, 16 s, then 16 s.
 * @example
 *   backoffMs(2); // 4000
 */
export function backoffMs(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 16_000);
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Failures in a row that open the breaker. */
  threshold: number;
  /** How long it stays open before one trial is let through. */
  resetMs: number;
  clock: Clock;
}

/**
 * A downstream server's connection breaker (not the ghost's per-run ToolCircuitBreaker). Fails fast after repeated failures; after `resetMs` lets one trial through (half-open), which
 * closes it on success or re-opens it on failure.
 * @example
 *   const breaker = new ServerCircuitBreaker({ threshold: 3, resetMs: 60_000, clock: systemClock });
 *   if (breaker.allow()) { try { await connect(); breaker.success(); } catch { breaker.failure(); } }
 */
export class ServerCircuitBreaker {
  private readonly options: BreakerOptions;
  private failures = 0;
  private openedAt = 0;
  private opened = false;

  constructor(options: BreakerOptions) {
    this.options = options;
  }

  get state(): BreakerState {
    if (!this.opened) return 'closed';
    return this.options.clock.now() - this.openedAt >= this.options.resetMs ? 'half-open' : 'open';
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** When an open breaker lets the next trial through (epoch ms), if open. */
  get retryAt(): number | undefined {
    return this.opened ? this.openedAt + this.options.resetMs : undefined;
  }

  /** Whether an attempt may go ahead now. */
  allow(): boolean {
    return this.state !== 'open';
  }

  success(): void {
    this.failures = 0;
    this.opened = false;
  }

  failure(): void {
    this.failures++;
    // A failed half-open trial re-opens at once; a closed breaker opens at the threshold.
    if (this.opened || this.failures >= this.options.threshold) {
      this.opened = true;
      this.openedAt = this.options.clock.now();
    }
  }
}

/**
 * Thrown when a server's breaker is open: the call fails fast without touching the server.
 * @example
 *   if (error instanceof CircuitOpenError) return fallback(); // the server was not called
 */
export class CircuitOpenError extends Error {
  override name = 'CircuitOpenError';
}
