import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/**
 * The mock's journal: every JSON-RPC message each connection carries, both ways, in order.
 * Bounded in bytes (the oldest entries go first), so a long run cannot exhaust memory.
 */

export interface MCPJournalEntry {
  seq: number;
  /** Which connection (one per in-memory pair, HTTP session or stdio process). */
  connection: string;
  /** `in`: client → server; `out`: server → client. */
  direction: 'in' | 'out';
  kind: 'request' | 'notification' | 'result' | 'error';
  /** The request's or notification's method; for results and errors, the method of the request they answer. */
  method?: string;
  id?: string | number;
  message: JSONRPCMessage;
}

export class MCPJournal {
  readonly entries: MCPJournalEntry[] = [];
  /** Entries dropped to stay under the byte limit. */
  dropped = 0;
  readonly #limitBytes: number;
  readonly #sizes: number[] = [];
  #bytes = 0;
  #seq = 0;

  constructor(limitBytes = 16 * 1024 * 1024) {
    this.#limitBytes = limitBytes;
  }

  add(entry: Omit<MCPJournalEntry, 'seq'>): void {
    const size = (JSON.stringify(entry.message)?.length ?? 0) + 64;
    this.entries.push({ seq: ++this.#seq, ...entry });
    this.#sizes.push(size);
    this.#bytes += size;
    if (this.#bytes > this.#limitBytes) this.#trim();
  }

  /** Drops the oldest entries down to 3/4 of the limit in one splice, so a full journal costs O(1) per entry on average. */
  #trim(): void {
    let drop = 0;
    while (this.#bytes > this.#limitBytes * 0.75 && drop < this.entries.length - 1) this.#bytes -= this.#sizes[drop++];
    this.entries.splice(0, drop);
    this.#sizes.splice(0, drop);
    this.dropped += drop;
  }

  clear(): void {
    this.entries.length = 0;
    this.#sizes.length = 0;
    this.#bytes = 0;
    this.dropped = 0;
  }
}

function classify(message: JSONRPCMessage): { kind: MCPJournalEntry['kind']; method?: string; id?: string | number } {
  const m = message as { method?: string; id?: string | number; error?: unknown };
  if (m.method !== undefined) return { kind: m.id !== undefined ? 'request' : 'notification', method: m.method, id: m.id };
  return { kind: m.error !== undefined ? 'error' : 'result', id: m.id };
}

/**
 * A transport that records what passes through another one; the SDK's Server connects to this.
 * @example
 *   await server.connect(new JournalingTransport(inner, journal, 'mem-1'));
 */
export class JournalingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly inner: Transport;
  readonly #journal: MCPJournal;
  readonly #connection: string;
  /** Methods of requests in flight each way, to name the results that answer them. */
  readonly #pending = { in: new Map<string | number, string>(), out: new Map<string | number, string>() };

  constructor(inner: Transport, journal: MCPJournal, connection: string) {
    this.inner = inner;
    this.#journal = journal;
    this.#connection = connection;
    // An owner's close handler set before (a session table forgetting the session) still runs.
    const before = inner.onclose;
    inner.onclose = () => {
      before?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      this.#record('in', message);
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  #record(direction: 'in' | 'out', message: JSONRPCMessage): void {
    const c = classify(message);
    let method = c.method;
    if (c.kind === 'request' && c.id !== undefined) this.#pending[direction].set(c.id, c.method!);
    if ((c.kind === 'result' || c.kind === 'error') && c.id !== undefined) {
      const asked = this.#pending[direction === 'in' ? 'out' : 'in'];
      method = asked.get(c.id);
      asked.delete(c.id);
    }
    this.#journal.add({ connection: this.#connection, direction, kind: c.kind, method, id: c.id, message });
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#record('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
