/**
 * Amazon's binary event-stream messages (`application/vnd.amazon.eventstream`), encoded and decoded
 * with Smithy's own codec so the prelude and message CRCs are exactly what the AWS SDK checks. Each
 * event carries the headers the SDK's deserializer reads: `:event-type`, `:content-type` and
 * `:message-type: event`. Recorded exception messages (`:exception-type`) read back too.
 */
import { lazily, requireLazily } from '../../lazy/index.ts';
import type { FrameText } from '../adapter.ts';
import { sseFrame } from '../common/sse.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const smithy = requireLazily<typeof import('@smithy/eventstream-codec')>('@smithy/eventstream-codec');
const codec = lazily(() => new (smithy().EventStreamCodec)(
  (bytes: Uint8Array) => decoder.decode(bytes),
  (text: string) => encoder.encode(text),
));

const header = (value: string) => ({ type: 'string' as const, value });

/**
 * One event message with a JSON payload.
 * @example
 *   eventMessage('messageStart', { role: 'assistant' }) // Uint8Array, total length in its first 4 bytes
 */
export function eventMessage(eventType: string, payload: unknown): Uint8Array {
  return eventOfJson(eventType, JSON.stringify(payload));
}

/** One event message whose payload is `json`, already encoded. */
function eventOfJson(eventType: string, json: string): Uint8Array {
  return codec().encode({
    headers: { ':event-type': header(eventType), ':content-type': header('application/json'), ':message-type': header('event') },
    body: encoder.encode(json),
  });
}

/** The headers of an event message, in the order `eventMessage` writes them. */
const EVENT_HEADERS = [':event-type', ':content-type', ':message-type'];
/** A `chunk` event's payload (InvokeModelWithResponseStream): the Anthropic event's JSON as base64 `bytes`. */
const CHUNK = /^\{"bytes":"([A-Za-z0-9+/]*={0,2})"\}$/;

/**
 * Event messages as text, so streams can come from answer templates (common/answer-templates.ts):
 * `{event type}\n{JSON payload}`, a `chunk`'s payload the JSON inside its base64 `bytes` (where the
 * message id and tool ids sit); back to the message with its prelude and CRCs computed afresh.
 * Messages of another form (exceptions) do not read as text.
 * @example
 *   eventStreamText.text(eventMessage('messageStop', { stopReason: 'end_turn' })) // 'messageStop\n{"stopReason":"end_turn"}'
 */
export const eventStreamText: FrameText = {
  text(frame: Uint8Array): string | null {
    let message: ReturnType<ReturnType<typeof codec>['decode']>;
    try {
      message = codec().decode(frame);
    } catch {
      return null;
    }
    const h = message.headers;
    const names = Object.keys(h);
    if (names.length !== EVENT_HEADERS.length || names.some((n, i) => n !== EVENT_HEADERS[i] || h[n].type !== 'string')) return null;
    if (h[':content-type'].value !== 'application/json' || h[':message-type'].value !== 'event') return null;
    const type = String(h[':event-type'].value);
    if (type.includes('\n')) return null;
    const body = decoder.decode(message.body);
    if (type !== 'chunk') return `${type}\n${body}`;
    const bytes = CHUNK.exec(body);
    return bytes ? `${type}\n${Buffer.from(bytes[1], 'base64').toString('utf8')}` : null;
  },
  frame(text: string): Uint8Array {
    const at = text.indexOf('\n');
    const type = text.slice(0, at);
    const body = text.slice(at + 1);
    return eventOfJson(type, type === 'chunk' ? `{"bytes":"${Buffer.from(body, 'utf8').toString('base64')}"}` : body);
  },
};

/**
 * One exception message, as Bedrock ends a stream that fails: `:message-type: exception` with the
 * exception's member name in the stream's union (`modelStreamErrorException`) as `:exception-type`,
 * which the AWS SDK throws as its own exception class.
 * @example
 *   exceptionMessage('throttlingException', { message: 'Too many tokens' }) // Uint8Array
 */
export function exceptionMessage(exceptionType: string, payload: unknown): Uint8Array {
  return codec().encode({
    headers: { ':exception-type': header(exceptionType), ':content-type': header('application/json'), ':message-type': header('exception') },
    body: encoder.encode(JSON.stringify(payload)),
  });
}

/**
 * Decodes one recorded message: its event (or exception) type and JSON payload; null when it is
 * not a valid message (a cut recording).
 * @example
 *   decodeEvent(eventMessage('messageStop', { stopReason: 'end_turn' })) // { type: 'messageStop', payload: { stopReason: 'end_turn' }, exception: false }
 */
export function decodeEvent(frame: Uint8Array): { type: string; payload: any; exception: boolean } | null {
  try {
    const message = codec().decode(frame);
    const exception = message.headers[':message-type']?.value === 'exception';
    const type = message.headers[':event-type']?.value ?? message.headers[':exception-type']?.value;
    return { type: String(type ?? ''), payload: JSON.parse(decoder.decode(message.body)), exception };
  } catch {
    return null;
  }
}

/** A decoded event message (`decodeEvent`). */
export type DecodedEvent = NonNullable<ReturnType<typeof decodeEvent>>;

/**
 * A recorded stream's event messages, decoded: frames that are not event messages left out.
 * @example
 *   decodeEvents(answer.frames).filter((e) => !e.exception)
 */
export function decodeEvents(frames: ReadonlyArray<string | Uint8Array>): DecodedEvent[] {
  return frames.flatMap((f) => {
    const event = typeof f === 'string' ? null : decodeEvent(f);
    return event ? [event] : [];
  });
}

/**
 * InvokeModelWithResponseStream's Anthropic events, unwrapped from its `chunk` events (base64
 * `bytes`) as SSE frames, for the Messages API's readers; null for a stream without chunks (Converse).
 * @example
 *   anthropicFramesOf(decodeEvents(answer.frames)) // ['event: message_start\ndata: {…}\n\n', …]
 */
export function anthropicFramesOf(events: readonly DecodedEvent[]): string[] | null {
  const chunks = events.filter((e) => e.type === 'chunk' && !e.exception);
  if (chunks.length === 0) return null;
  return chunks.flatMap((e) => {
    try {
      const data = JSON.parse(Buffer.from(String(e.payload?.bytes ?? ''), 'base64').toString('utf8')) as unknown;
      return typeof data === 'object' && data !== null ? [sseFrame(data, String((data as { type?: unknown }).type ?? ''))] : [];
    } catch {
      return [];
    }
  });
}
