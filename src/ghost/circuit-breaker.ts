// Per-tool circuit breaker for one ghost run: after `threshold` consecutive failures a tool is no longer
// called. (Not the proxy's ServerCircuitBreaker, which guards connections and re-opens over time.)

/**
 * Tracks consecutive failures per tool name.
 * @example
 * const breaker = new ToolCircuitBreaker(3);
 * breaker.record('db_query', false); breaker.isOpen('db_query'); // false until 3 in a row
 */
export class ToolCircuitBreaker {
  readonly threshold: number;
  private readonly failures = new Map<string, number>();

  constructor(threshold = 3) {
    this.threshold = threshold;
  }

  isOpen(tool: string): boolean {
    return (this.failures.get(tool) ?? 0) >= this.threshold;
  }

  /** Consecutive failures so far (the next call's retry attempt number). */
  consecutiveFailures(tool: string): number {
    return this.failures.get(tool) ?? 0;
  }

  record(tool: string, ok: boolean): void {
    this.failures.set(tool, ok ? 0 : (this.failures.get(tool) ?? 0) + 1);
  }
}
