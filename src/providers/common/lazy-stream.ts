/**
 * A rendered stream whose frames and body are made on first use. A class, not an object literal with
 * a `get frames()`: V8 defines a literal's accessor at run time, which turns each answer's object into
 * a slow dictionary-mode object (in a perf profile of a server answering tool-call streams, ~2% of its
 * CPU went to that alone, and mixed traffic slowed every reader of the answer).
 */
import type { RenderedStream } from '../adapter.ts';

/**
 * The stream's frames from `frames` (made once, when asked for) and its body from `body`.
 * @example
 *   const stream = new LazyStream({ framing: 'sse' }, () => chunks.frames(), () => chunks.bytes());
 */
export class LazyStream<F extends string | Uint8Array = string | Uint8Array> implements RenderedStream {
  framing: RenderedStream['framing'];
  timing: RenderedStream['timing'];
  readonly #make: () => F[];
  readonly #body: () => Buffer<ArrayBuffer>;
  #frames: F[] | undefined;

  constructor(stream: Pick<RenderedStream, 'framing' | 'timing'>, frames: () => F[], body: () => Buffer<ArrayBuffer>) {
    this.framing = stream.framing;
    this.timing = stream.timing;
    this.#make = frames;
    this.#body = body;
  }

  get frames(): F[] {
    return (this.#frames ??= this.#make());
  }

  body(): Buffer<ArrayBuffer> {
    return this.#body();
  }
}
