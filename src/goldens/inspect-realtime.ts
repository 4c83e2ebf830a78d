/**
 * `ghostwire inspect` for realtime conversations: one line per frame (→ client, ← server, offset,
 * event), runs of the same delta event folded into one line with a count, payloads left out.
 */
import type { RealtimeConversation } from './schema.ts';

/** What a frame is: OpenAI's `type`, Gemini's message kind (`serverContent.modelTurn`, `toolCall`, …). */
export function frameLabel(data: string): string {
  try {
    const value = JSON.parse(data) as Record<string, unknown>;
    if (typeof value.type === 'string') return value.type;
    const [kind] = Object.keys(value);
    const inner = value[kind];
    const [detail] = inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.keys(inner) : [];
    return detail && kind !== 'setup' ? `${kind}.${detail}` : (kind ?? '(empty)');
  } catch {
    return `(text, ${data.length} characters)`;
  }
}

/**
 * The conversations as text lines (no colour).
 * @example inspectRealtime(golden.realtime ?? []).join('\n')
 */
export function inspectRealtime(conversations: readonly RealtimeConversation[]): string[] {
  const out: string[] = [];
  conversations.forEach((c, index) => {
    const clients = c.frames.filter((f) => f.direction === 'client').length;
    const last = c.frames.at(-1)?.offsetMs ?? 0;
    out.push('', `── realtime ${index + 1} · ${c.provider} · ${new URL(c.url).pathname} · ${c.frames.length} frames (${clients} client, ${c.frames.length - clients} server) · ${Math.round(last)} ms`);
    let previous = '';
    let count = 0;
    const flush = () => {
      if (count > 1) out[out.length - 1] += ` ×${count}`;
    };
    for (const frame of c.frames) {
      const line = `${frame.direction === 'client' ? '  →' : '  ←'} ${frameLabel(frame.data)}`;
      if (line === previous) {
        count += 1;
        continue;
      }
      flush();
      out.push(`${line}  (${Math.round(frame.offsetMs)} ms)`);
      previous = line;
      count = 1;
    }
    flush();
    if (c.close) out.push(`  ✕ closed ${c.close.code}${c.close.reason ? `: ${c.close.reason}` : ''}`);
  });
  return out;
}
