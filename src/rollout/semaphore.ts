/**
 * A counting semaphore: at most `limit` holders at once, waiters served in
 * arrival order. A waiter whose signal aborts leaves the queue.
 */
export class Semaphore {
  readonly limit: number;
  #active = 0;
  #peak = 0;
  readonly #queue: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  /** Holders right now. */
  get active(): number {
    return this.#active;
  }

  /** The most holders seen at once. */
  get peak(): number {
    return this.#peak;
  }

  /**
   * Waits for a slot; resolves to the function that gives it back.
   *
   * @example
   * const release = await semaphore.acquire(signal);
   * try { await work(); } finally { release(); }
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.limit) return Promise.resolve(this.#take());
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.#take());
      };
      const onAbort = (): void => {
        const at = this.#queue.indexOf(wake);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(wake);
    });
  }

  #take(): () => void {
    this.#active++;
    this.#peak = Math.max(this.#peak, this.#active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#queue.shift()?.();
    };
  }
}
