/**
 * Bytes an adapter lends to a transport: once the transport has written them out (the socket no longer
 * reads them), it hands them back through `releaseOf(bytes)`, so the next answer reuses the memory
 * instead of allocating (and page-faulting in) a fresh large buffer. A transport that never releases
 * (a Fetch Response, MSW) just lets the garbage collector have them.
 */
const RELEASE = Symbol.for('ghostwire.release-bytes');

type Lent<T> = T & { [RELEASE]?: () => void };

/**
 * Marks `bytes` as lent: `release` runs when the transport is done with them.
 * @example
 *   return lend(out, () => pool.push(out));
 */
export function lend<T extends Uint8Array>(bytes: T, release: () => void): T {
  (bytes as Lent<T>)[RELEASE] = release;
  return bytes;
}

/**
 * The hand-back of lent bytes, if they are lent; call it once they are fully written.
 * @example
 *   res.end(body, releaseOf(body));
 */
export function releaseOf(bytes: Uint8Array): (() => void) | undefined {
  return (bytes as Lent<Uint8Array>)[RELEASE];
}
