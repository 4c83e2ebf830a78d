/** Thrown when an MCP operation runs past the tool's overall timeout. */
export class McpTimeoutError extends Error {
  override name = 'McpTimeoutError';
}

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts: the caller never
 * waits on an operation that ignores its signal (a hung SSE handshake, say).
 *
 * @example
 * await raceAbort(transport.start(), AbortSignal.timeout(1000));
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A signal that aborts with an {@link McpTimeoutError} after `ms`, plus a way to
 * name the phase running when it fired, so the error says what was slow.
 *
 * @example
 * const deadline = createDeadline(5000, 'http://127.0.0.1:3000/mcp');
 * deadline.phase = 'calling search';
 */
export function createDeadline(ms: number, target: string): { signal: AbortSignal; phase: string; dispose(): void } {
  const controller = new AbortController();
  const state = {
    signal: controller.signal,
    phase: 'starting',
    dispose: () => clearTimeout(timer),
  };
  const timer = setTimeout(() => {
    controller.abort(new McpTimeoutError(`MCP server ${target} did not answer within ${ms} ms (while ${state.phase})`));
  }, ms);
  timer.unref?.();
  return state;
}
