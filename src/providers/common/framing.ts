/**
 * The stream framings adapters speak: server-sent events, newline-delimited JSON, and binary
 * event-stream messages (length-prefixed, as `application/vnd.amazon.eventstream`). The transport
 * core paces frames the same way whatever the framing; goldens cut a recorded stream into the same
 * frames with `splitFrames`, so replay is byte-exact and frame boundaries are kept.
 */

export type Framing = 'sse' | 'ndjson' | 'binary';

/** The `content-type` each framing goes out with when the adapter names none. */
export const FRAMING_CONTENT_TYPE: Readonly<Record<Framing, string>> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson',
  binary: 'application/vnd.amazon.eventstream',
};

/**
 * The framing a response's content type says it streams in, or null for a whole body.
 * @example
 *   framingOfContentType('text/event-stream; charset=utf-8') // 'sse'
 */
export function framingOfContentType(contentType: string): Framing | null {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/x-ndjson' || type === 'application/jsonl' || type === 'application/ndjson') return 'ndjson';
  if (type === 'application/vnd.amazon.eventstream') return 'binary';
  return null;
}

/** Index just past the first blank line (`\n\n` or `\r\n\r\n`) at or after `from`, or -1. */
function sseEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length - 1; i++) {
    if (bytes[i] !== 0x0a) continue;
    if (bytes[i + 1] === 0x0a) return i + 2;
    if (bytes[i + 1] === 0x0d && bytes[i + 2] === 0x0a && i > 0 && bytes[i - 1] === 0x0d) return i + 3;
  }
  return -1;
}

/** Index just past the end of the frame starting at `from`, or -1 when it is not complete yet. */
function frameEnd(framing: Framing, bytes: Uint8Array, from: number): number {
  if (framing === 'sse') return sseEnd(bytes, from);
  if (framing === 'ndjson') {
    const nl = bytes.indexOf(0x0a, from);
    return nl === -1 ? -1 : nl + 1;
  }
  // Binary event stream: a 4-byte big-endian total length opens every message (prelude).
  if (bytes.length - from < 4) return -1;
  const total = ((bytes[from] << 24) | (bytes[from + 1] << 16) | (bytes[from + 2] << 8) | bytes[from + 3]) >>> 0;
  if (total < 16) return from + Math.max(4, total); // a broken prelude: keep going rather than stall
  return bytes.length - from >= total ? from + total : -1;
}

/**
 * Cuts every complete frame off the front of `bytes`; `rest` is what does not make a whole frame yet.
 * @example
 *   splitFrames('ndjson', new TextEncoder().encode('{"a":1}\n{"b"')) // { frames: [bytes of '{"a":1}\n'], rest: bytes of '{"b"' }
 */
export function splitFrames(framing: Framing, bytes: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array } {
  const frames: Uint8Array[] = [];
  let start = 0;
  let end: number;
  while (start < bytes.length && (end = frameEnd(framing, bytes, start)) !== -1) {
    frames.push(bytes.subarray(start, end));
    start = end;
  }
  return { frames, rest: bytes.subarray(start) };
}

/** Text framings keep frames as strings in goldens; binary ones as base64. */
export const isTextFraming = (framing: Framing): boolean => framing !== 'binary';
