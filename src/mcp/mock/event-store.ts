import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Events of one Streamable HTTP session kept for resumption (a client reconnecting with
 * Last-Event-ID gets what it missed). Bounded in bytes: the oldest events go first.
 * @example
 *   new WebStandardStreamableHTTPServerTransport({ eventStore: new MemoryEventStore() });
 */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<string, { streamId: string; message: JSONRPCMessage; size: number }>();
  readonly #limitBytes: number;
  #bytes = 0;
  #seq = 0;

  constructor(limitBytes = 2 * 1024 * 1024) {
    this.#limitBytes = limitBytes;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `e${++this.#seq}`;
    // UTF-8 bytes of the message, plus what the entry itself costs.
    const size = Buffer.byteLength(JSON.stringify(message) ?? '') + 64;
    this.#events.set(id, { streamId, message, size });
    this.#bytes += size;
    while (this.#bytes > this.#limitBytes && this.#events.size > 1) {
      const [oldest, event] = this.#events.entries().next().value!;
      this.#events.delete(oldest);
      this.#bytes -= event.size;
    }
    return id;
  }

  /** Bytes held now (the messages as UTF-8 JSON plus a fixed cost per event). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Forgets every event (the session ended). */
  clear(): void {
    this.#events.clear();
    this.#bytes = 0;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = this.#events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`unknown event id ${lastEventId}`);
    let after = false;
    for (const [id, event] of this.#events) {
      if (id === lastEventId) after = true;
      // Priming events carry no message; there is nothing to replay for them.
      else if (after && event.streamId === streamId && Object.keys(event.message).length) await send(id, event.message);
    }
    return streamId;
  }
}
