/**
 * Amazon's binary event-stream messages (`application/vnd.amazon.eventstream`), encoded and decoded
 * with Smithy's own codec so the prelude and message CRCs are exactly what the AWS SDK checks. Each
 * event carries the headers the SDK's deserializer reads: `:event-type`, `:content-type` and
 * `:message-type: event`. Recorded exception messages (`:exception-type`) read back too.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const codec = new EventStreamCodec(
  (bytes: Uint8Array) => decoder.decode(bytes),
  (text: string) => encoder.encode(text),
);

const header = (value: string) => ({ type: 'string' as const, value });

/**
 * One event message with a JSON payload.
 * @example
 *   eventMessage('messageStart', { role: 'assistant' }) // Uint8Array, total length in its first 4 bytes
 */
export function eventMessage(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: { ':event-type': header(eventType), ':content-type': header('application/json'), ':message-type': header('event') },
    body: encoder.encode(JSON.stringify(payload)),
  });
}

/**
 * One exception message, as Bedrock ends a stream that fails: `:message-type: exception` with the
 * exception's member name in the stream's union (`modelStreamErrorException`) as `:exception-type`,
 * which the AWS SDK throws as its own exception class.
 * @example
 *   exceptionMessage('throttlingException', { message: 'Too many tokens' }) // Uint8Array
 */
export function exceptionMessage(exceptionType: string, payload: unknown): Uint8Array {
  return codec.encode({
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
    const message = codec.decode(frame);
    const exception = message.headers[':message-type']?.value === 'exception';
    const type = message.headers[':event-type']?.value ?? message.headers[':exception-type']?.value;
    return { type: String(type ?? ''), payload: JSON.parse(decoder.decode(message.body)), exception };
  } catch {
    return null;
  }
}
