/**
 * Streamable HTTP for the proxy on node:http: one transport and one MCP Server per session, behind
 * Host/Origin validation, a bearer token beyond loopback and a body size limit (http-guard.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  BodyTooLargeError, INVALID_REQUEST, PARSE_ERROR, readBody, RequestGuard, sendJsonRpcError, SERVER_ERROR, type GuardOptions,
} from './http-guard.ts';
import { announceListener, isLoopback } from '../net/index.ts';
import { nodeHttp } from '../lazy/index.ts';
import { IdleExpiry } from '../mcp/index.ts';

export interface HttpListener {
  /** The MCP endpoint, `http://HOST:PORT/mcp`. */
  url: string;
  port: number;
  /** Whether requests need the bearer token. */
  requiresToken: boolean;
  close(): Promise<void>;
}

export interface ListenOptions extends GuardOptions {
  /** Default 127.0.0.1. Anything beyond loopback requires `token`. */
  host?: string;
  port?: number;
  extra?: ExtraRoute;
  /** Most open sessions; an initialize beyond it gets 503 (default 256). */
  maxSessions?: number;
  /** A session with no request and no open stream for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
}

export const DEFAULT_MAX_SESSIONS = 256;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** One MCP session: its transport and server. */
interface Session {
  id?: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/** A body parsed for the routes: the JSON value, or the refusal already sent. */
type Parsed = { ok: true; value: unknown } | { ok: false };

function sendError(res: ServerResponse, status: number, message: string, code = SERVER_ERROR): void {
  sendJsonRpcError(res, status, code, message);
}

async function readJson(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<Parsed> {
  let text: string;
  try {
    text = await readBody(req, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      res.setHeader('connection', 'close');
      sendError(res, 413, err.message);
      return { ok: false };
    }
    throw err;
  }
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    sendError(res, 400, `parse error: the request body is not valid JSON: ${(err as Error).message}`, PARSE_ERROR);
    return { ok: false };
  }
}

/** A JSON-RPC message or a non-empty batch of them. */
function isJsonRpc(body: unknown): boolean {
  const all = Array.isArray(body) ? body : [body];
  return all.length > 0 && all.every((m) => JSONRPCMessageSchema.safeParse(m).success);
}

/** Extra plain-HTTP routes next to MCP: an answer, or undefined to pass. */
export type ExtraRoute = (method: string, url: URL, body: unknown) => Promise<{ status: number; body: unknown } | undefined>;

/**
 * Serves MCP over Streamable HTTP at `/mcp`.
 * @example
 *   const http = await listenHttp(() => createProxyMcpServer(core), { port: 0 });
 */
export async function listenHttp(build: () => Server | Promise<Server>, options: ListenOptions = {}): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.token) {
    throw new Error(`refusing to listen on ${host} without a bearer token: beyond loopback anyone on the network could call tools through the proxy; set the token (http.auth_token_env in the config, GHOSTWIRE_PROXY_TOKEN by default) or listen on 127.0.0.1`);
  }
  // The SDK's Streamable HTTP transport imports node:http as a module (which loads undici, see
  // lazy/node-http.ts): loaded when the proxy listens, which a stdio proxy never does.
  const { createServer } = nodeHttp();
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const guard = new RequestGuard(options);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  // Clients that vanish without DELETE would otherwise keep their MCP Server (and its subscriptions) forever.
  const sessions = new Map<string, Session>();
  // Requests in flight and open streams (a GET stream waiting for notifications) keep a session live.
  const idle = new IdleExpiry<string>(idleMs, (id) => {
    const session = sessions.get(id);
    sessions.delete(id);
    session?.server.close().catch(() => {});
  });
  const serve = (session: Session, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> => {
    // The first request (initialize) has no id yet: its session is watched from when it gets one.
    if (session.id) res.once('close', idle.begin(session.id));
    return session.transport.handleRequest(req, res, body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!guard.admit(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (options.extra && path !== '/mcp') {
      let body: unknown;
      if (req.method === 'POST') {
        const parsed = await readJson(req, res, guard.maxBodyBytes);
        if (!parsed.ok) return;
        body = parsed.value;
      }
      const answer = await options.extra(req.method ?? 'GET', url, body);
      if (answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
        return;
      }
    }
    if (path !== '/mcp') return sendError(res, 404, `no such endpoint ${path}: the MCP endpoint is /mcp`);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method === 'POST') {
      const parsed = await readJson(req, res, guard.maxBodyBytes);
      if (!parsed.ok) return;
      const body = parsed.value;
      if (!isJsonRpc(body)) return sendError(res, 400, 'invalid request: expected a JSON-RPC 2.0 message or a batch of them', INVALID_REQUEST);
      if (existing) return serve(existing, req, res, body);
      if (sessionId) return sendError(res, 404, `unknown session ${String(sessionId)}`);
      if (!isInitializeRequest(body)) return sendError(res, 400, 'no session: the first request must be initialize', INVALID_REQUEST);
      if (sessions.size >= maxSessions) {
        return sendError(res, 503, `too many sessions (${maxSessions} open): close one with DELETE /mcp, or wait for idle ones to expire`);
      }
      const server = await build();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session.id = id;
          sessions.set(id, session);
          idle.watch(id);
        },
      });
      const session: Session = { server, transport };
      transport.onclose = () => {
        if (!transport.sessionId) return;
        sessions.delete(transport.sessionId);
        idle.forget(transport.sessionId);
      };
      await server.connect(transport);
      await serve(session, req, res, body);
      // Refused before a session began (a wrong Accept or Content-Type): nothing may keep its server.
      if (!transport.sessionId) await server.close().catch(() => {});
      return;
    }
    if (!existing) return sendError(res, sessionId ? 404 : 400, sessionId ? `unknown session ${String(sessionId)}` : 'missing mcp-session-id header');
    return serve(existing, req, res);
  };
  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendError(res, 500, (err as Error).message);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/mcp`;
  // A test layer intercepting fetch in this process (the Vitest layer's MSW) lets this origin through.
  announceListener('listening', url);
  let closed = false;
  return {
    url,
    port,
    requiresToken: !!options.token,
    async close() {
      if (!closed) announceListener('close', url);
      closed = true;
      idle.clear();
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => {})));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
