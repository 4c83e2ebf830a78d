/**
 * Server-sent event frames, encoded once by adapters; transports write them as-is.
 */

/**
 * One complete SSE frame: optional `event:` line, the data (objects JSON-encoded), a blank line.
 * Multi-line string data is split over several `data:` lines as the SSE format requires.
 * @example
 *   sseFrame({ a: 1 })               // 'data: {"a":1}\n\n'
 *   sseFrame({ type: 'x' }, 'x')     // 'event: x\ndata: {"type":"x"}\n\n'
 */
export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const head = event ? `event: ${event}\n` : '';
  const body = text.includes('\n') ? text.split('\n').map((l) => `data: ${l}`).join('\n') : `data: ${text}`;
  return `${head}${body}\n\n`;
}

/** OpenAI's terminal frame. */
export const SSE_DONE = 'data: [DONE]\n\n';

/**
 * Splits text into pieces of at most `size` characters, never splitting a surrogate pair.
 * @example
 *   chunkText('abcdef', 4) // ['abcd', 'ef']
 */
export function chunkText(text: string, size: number): string[] {
  if (text.length === 0) return [];
  const step = Math.max(1, Math.floor(size));
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + step);
    // Keep an emoji (surrogate pair) whole rather than emitting half of it.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}
