import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Events of one Streamable HTTP session kept for resumption (a client reconnecting with
 * Last-Event-ID gets what it missed). Bounded: the oldest events go first.
 * @example
 *   new WebStandardStreamableHTTPServerTransport({ eventStore: new MemoryEventStore() });
 */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  readonly #limit: number;
  #seq = 0;

  constructor(limit = 1000) {
    this.#limit = limit;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `e${++this.#seq}`;
    this.#events.set(id, { streamId, message });
    if (this.#events.size > this.#limit) this.#events.delete(this.#events.keys().next().value!);
    return id;
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
