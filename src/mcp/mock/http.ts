import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MemoryEventStore } from './event-store.ts';

/**
 * Streamable HTTP for a mock: a table of MCP sessions (Mcp-Session-Id → the SDK's web-standard
 * server transport), so the same `handle(Request) → Response` serves MSW in-process and a real port.
 */

const MAX_SESSIONS = 256;
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

export class HttpSessions {
  readonly #sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  readonly #attach: (transport: Transport, connection: string) => Promise<void>;

  constructor(attach: (transport: Transport, connection: string) => Promise<void>) {
    this.#attach = attach;
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const transport = this.#sessions.get(sessionId);
      if (!transport) return rpcError(404, -32001, `Session not found: ${sessionId}`);
      return transport.handleRequest(request);
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
    if (this.#sessions.size >= MAX_SESSIONS) return rpcError(503, -32000, `Too many sessions (${MAX_SESSIONS}); close some (DELETE) first`);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      onsessioninitialized: (id) => void this.#sessions.set(id, transport),
      onsessionclosed: (id) => void this.#sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await this.#attach(transport, `http-${randomUUID().slice(0, 8)}`);
    return transport.handleRequest(request, { parsedBody: body });
  }

  /** Ends every session (open streams included). */
  async closeAll(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((t) => t.close().catch(() => {})));
  }
}
