/**
 * The body of a streamed answer: frames of any framing (SSE or NDJSON text, binary messages), paced by `chunkDelayMs`, cut by
 * `disconnectAfterChunks`. Shared by every transport so timing behaves the same everywhere.
 */

const encoder = new TextEncoder();

/**
 * The error a cut stream ends with; clients see it as a network error.
 * @example
 *   // a step with respond.stream.disconnectAfterChunks: 3 ends its body with a SimulatedDisconnectError
 */
export class SimulatedDisconnectError extends Error {
  constructor(after: number) {
    super(`ghostwire: connection cut after ${after} SSE frame(s) (disconnectAfterChunks)`);
    this.name = 'SimulatedDisconnectError';
  }
}

/**
 * A ReadableStream of the frames. With no delay and no cut, the frames go out as one chunk:
 * clients parse SSE incrementally either way, and one write is much cheaper.
 * @example
 *   new Response(sseBody(frames, 10, null), { headers: { 'content-type': 'text/event-stream' } });
 */
export function sseBody(frames: ReadonlyArray<string | Uint8Array>, chunkDelayMs: number, disconnectAfterChunks: number | null, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const cut = disconnectAfterChunks !== null && disconnectAfterChunks < frames.length ? disconnectAfterChunks : null;
  if (chunkDelayMs <= 0 && cut === null) {
    const bytes = joinFrames(frames);
    return new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let cancelled = false;
  const stop = () => {
    cancelled = true;
    clearTimeout(timer);
    wake?.();
  };
  // One listener for the whole stream (a listener per frame would pile up on long streams).
  signal?.addEventListener('abort', stop, { once: true });
  // highWaterMark 1 with one frame per chunk: `pull` runs only once the previous frame was taken,
  // so a cut never discards a frame still sitting in the queue.
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (cut !== null && next >= cut) {
          signal?.removeEventListener('abort', stop);
          controller.error(new SimulatedDisconnectError(cut));
          return;
        }
        if (next > 0 && chunkDelayMs > 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, chunkDelayMs);
          });
        }
        if (cancelled) return;
        const frame = frames[next++];
        controller.enqueue(typeof frame === 'string' ? encoder.encode(frame) : frame);
        if (next >= frames.length) {
          signal?.removeEventListener('abort', stop);
          controller.close();
        }
      },
      cancel: stop,
    },
    { highWaterMark: 1 },
  );
}

/**
 * Frames as one body: their bytes back to back (one encode when all are text).
 * @example
 *   joinFrames(['data: 1\n\n', new Uint8Array([100])]).byteLength // 12
 */
export function joinFrames(frames: ReadonlyArray<string | Uint8Array>): Uint8Array<ArrayBuffer> {
  if (frames.every((f) => typeof f === 'string')) return encoder.encode((frames as string[]).join(''));
  const parts = frames.map((f) => (typeof f === 'string' ? encoder.encode(f) : f));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
