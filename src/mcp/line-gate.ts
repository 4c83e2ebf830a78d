/**
 * Holds a stdio server's output until a line is complete, so the SDK's `ReadBuffer` (which copies its
 * whole buffer on every chunk and searches it all for a newline) sees only whole lines. A long line
 * then costs one copy, not one per 64 KiB pipe chunk: a server writing 11 MB without a newline took
 * seconds of CPU to be refused on a busy machine, and now takes milliseconds.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

/**
 * The lines of a byte stream as it comes, at most `limit` bytes held for a line not yet ended.
 * @example
 *   const gate = new LineGate();
 *   const lines = gate.take(chunk); // null until a newline comes; then every byte through the last one
 *   if (lines) readBuffer.append(lines);
 */
export class LineGate {
  readonly limit: number;
  #held: Buffer[] = [];
  #size = 0;

  constructor(limit = STDIO_DEFAULT_MAX_BUFFER_SIZE) {
    this.limit = limit;
  }

  /** The bytes through the chunk's last newline, with those held before it; null while no line has ended. Throws past the limit. */
  take(chunk: Buffer): Buffer | null {
    const end = chunk.lastIndexOf(0x0a);
    if (end < 0) {
      this.#size += chunk.length;
      if (this.#size > this.limit) {
        this.#held = [];
        this.#size = 0;
        throw new Error(`a line of the server's output exceeded the maximum size of ${this.limit} bytes`);
      }
      this.#held.push(chunk);
      return null;
    }
    const lines = this.#held.length === 0 ? chunk.subarray(0, end + 1) : Buffer.concat([...this.#held, chunk.subarray(0, end + 1)]);
    const rest = chunk.subarray(end + 1);
    this.#held = rest.length > 0 ? [rest] : [];
    this.#size = rest.length;
    return lines;
  }
}
