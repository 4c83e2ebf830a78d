import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MemoryEventStore } from './event-store.ts';
import { IdleExpiry } from '../idle-expiry.ts';

/**
 * Streamable HTTP for a mock: a table of MCP sessions (Mcp-Session-Id → the SDK's web-standard
 * server transport), so the same `handle(Request) → Response` serves MSW in-process and a real port.
 */

/** The SDK transport's own limit for requests in a session; the same for the first one. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as text, or null when it is larger than the limit (read no further than that). */
async function readBounded(request: Request): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

function isInitialize(body: unknown): boolean {
  const one = (m: unknown) => (m as { method?: unknown } | null)?.method === 'initialize';
  return Array.isArray(body) ? body.some(one) : one(body);
}

/** Limits on the Streamable HTTP sessions of one mock. */
export interface HttpSessionOptions {
  /** Most sessions open at once (default 256); an initialize beyond it gets 503. */
  maxSessions?: number;
  /**
   * A session with no request in flight and no open stream for this long is closed, as a DELETE
   * would (default 30 minutes; 0: never). A later request on it gets 404, so a client starts anew.
   */
  sessionIdleMs?: number;
}

export const DEFAULT_MAX_HTTP_SESSIONS = 256;
export const DEFAULT_HTTP_SESSION_IDLE_MS = 30 * 60_000;

/** One session: its transport, and its event store (emptied when the session ends). */
interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  events: MemoryEventStore;
}

/**
 * The response with `end` called once its body is done, cancelled or failed (at once when it has
 * none): a stream held open counts as the session being in use.
 */
function onBodyEnd(response: Response, end: () => void): Response {
  if (!response.body) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        end();
        controller.close();
      } catch (err) {
        end();
        controller.error(err);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export class HttpSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #attach: (transport: Transport, connection: string) => Promise<void>;
  readonly #maxSessions: number;
  // Clients that vanish without DELETE would otherwise hold a slot and their event store forever.
  readonly #idle: IdleExpiry<string>;

  constructor(attach: (transport: Transport, connection: string) => Promise<void>, options: HttpSessionOptions = {}) {
    this.#attach = attach;
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_HTTP_SESSIONS;
    if (!Number.isInteger(this.#maxSessions) || this.#maxSessions < 1) {
      throw new Error(`ghostwire: http.maxSessions must be a positive integer, got ${String(options.maxSessions)}`);
    }
    const idleMs = options.sessionIdleMs ?? DEFAULT_HTTP_SESSION_IDLE_MS;
    if (!(idleMs >= 0)) throw new Error(`ghostwire: http.sessionIdleMs must be a number of milliseconds >= 0 (0: never), got ${String(options.sessionIdleMs)}`);
    this.#idle = new IdleExpiry(idleMs, (id) => void this.#end(id));
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = this.#sessions.get(sessionId);
      if (!session) return rpcError(404, -32001, `Session not found: ${sessionId}`);
      return this.#serve(sessionId, () => session.transport.handleRequest(request));
    }
    if (request.method !== 'POST') return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const text = await readBounded(request);
    if (text === null) return rpcError(413, -32000, `Payload too large (limit ${MAX_BODY_BYTES} bytes)`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not JSON');
    }
    if (!isInitialize(body)) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required (or send initialize)');
    if (this.#sessions.size >= this.#maxSessions) {
      return rpcError(503, -32000, `Too many sessions (${this.#maxSessions}); close some (DELETE) first, or wait for idle ones to expire`);
    }
    const events = new MemoryEventStore();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: events,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, events });
        this.#idle.watch(id);
      },
      onsessionclosed: (id) => this.#forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#forget(transport.sessionId);
    };
    await this.#attach(transport, `http-${randomUUID().slice(0, 8)}`);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // The session exists only now (its id was minted while handling): its first answer counts too.
    if (transport.sessionId) return onBodyEnd(response, this.#idle.begin(transport.sessionId));
    // Refused before a session began (a wrong Accept or Content-Type): nothing may keep its server.
    await transport.close().catch(() => {});
    return response;
  }

  /** A request on a session: in use until its answer (or the stream it opens) ends. */
  async #serve(id: string, handle: () => Promise<Response>): Promise<Response> {
    const end = this.#idle.begin(id);
    try {
      return onBodyEnd(await handle(), end);
    } catch (err) {
      end();
      throw err;
    }
  }

  /** The session left the table: no longer watched, its stored events released. */
  #forget(id: string): void {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    this.#idle.forget(id);
    session?.events.clear();
  }

  /** Ends a session as a DELETE would (its streams close, later requests get 404). */
  async #end(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    this.#forget(id);
    await session?.transport.close().catch(() => {});
  }

  /** Ends every session (open streams included). */
  async closeAll(): Promise<void> {
    const all = [...this.#sessions.keys()];
    await Promise.all(all.map((id) => this.#end(id)));
    this.#idle.clear();
  }
}
