/**
 * Request fields that change every time a provider answers, though the conversation is the same:
 * the opaque signatures and encrypted reasoning a client must pass back verbatim (Anthropic's
 * thinking `signature`, the Responses API's `encrypted_content`, Gemini's `thoughtSignature`).
 * Each adapter's reader declares its own; goldens leave them out when matching a request to a
 * recording, so a re-recorded golden (new signatures, same reasoning) still matches what the code sends.
 * The declarations live with each provider; this file only knows how to apply them.
 */

/**
 * Where the volatile fields sit: in each object at `at` (a JSON path with `[*]` for any index, `.*`
 * for any key), the keys `drop`, when the object has every `when` key with that value.
 * @example { at: '$.messages[*].content[*]', when: { type: 'thinking' }, drop: ['signature'] }
 */
export interface VolatileField {
  at: string;
  when?: Readonly<Record<string, string>>;
  drop: readonly string[];
}

type Segment = string | '*';

function segments(path: string): Segment[] {
  if (!path.startsWith('$')) throw new Error(`volatile field: "${path}" must be a JSON path starting with "$"`);
  const out: Segment[] = [];
  const re = /\.([^.[\]]+)|\[(\*|\d+)\]/g;
  let m: RegExpExecArray | null;
  let consumed = 1;
  while ((m = re.exec(path)) !== null) {
    if (m.index !== consumed) break;
    consumed = m.index + m[0].length;
    out.push(m[1] ?? m[2]);
  }
  if (consumed !== path.length) throw new Error(`volatile field: cannot parse "${path}" after position ${consumed}`);
  return out;
}

function strip(value: unknown, path: readonly Segment[], field: VolatileField): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (path.length === 0) {
    if (Array.isArray(value)) return value;
    const obj = value as Record<string, unknown>;
    if (field.when && !Object.entries(field.when).every(([k, v]) => obj[k] === v)) return value;
    if (!field.drop.some((k) => k in obj)) return value;
    const copy = { ...obj };
    for (const key of field.drop) delete copy[key];
    return copy;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (head !== '*' && !/^\d+$/.test(head)) return value;
    return value.map((v, i) => (head === '*' || Number(head) === i ? strip(v, rest, field) : v));
  }
  const obj = value as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(obj) : [head];
  let copy: Record<string, unknown> | null = null;
  for (const key of keys) {
    if (!Object.hasOwn(obj, key)) continue;
    const next = strip(obj[key], rest, field);
    if (next !== obj[key]) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? value;
}

/**
 * `body` without the volatile fields (a copy where anything changed; the input is never modified).
 * @example
 *   dropVolatile({ messages: [{ content: [{ type: 'thinking', thinking: 'hm', signature: 'Eu8B' }] }] },
 *     [{ at: '$.messages[*].content[*]', when: { type: 'thinking' }, drop: ['signature'] }])
 *   // { messages: [{ content: [{ type: 'thinking', thinking: 'hm' }] }] }
 */
export function dropVolatile(body: unknown, fields: readonly VolatileField[] | undefined): unknown {
  let out = body;
  for (const field of fields ?? []) out = strip(out, segments(field.at), field);
  return out;
}
