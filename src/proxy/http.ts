/**
 * Streamable HTTP for the proxy on node:http: one transport and one MCP Server per session.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface HttpListener {
  /** The MCP endpoint, `http://HOST:PORT/mcp`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** Extra plain-HTTP routes next to MCP: an answer, or undefined to pass. */
export type ExtraRoute = (method: string, url: URL, body: unknown) => Promise<{ status: number; body: unknown } | undefined>;

/**
 * Serves MCP over Streamable HTTP at `/mcp`.
 * @example
 *   const http = await listenHttp(() => createProxyMcpServer(core), { port: 0 });
 */
export async function listenHttp(build: () => Server, options: { host?: string; port?: number; extra?: ExtraRoute } = {}): Promise<HttpListener> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (options.extra && path !== '/mcp') {
      let body: unknown;
      try {
        body = req.method === 'POST' ? await readJson(req) : undefined;
      } catch (err) {
        return sendError(res, 400, `request body is not valid JSON: ${(err as Error).message}`);
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
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return sendError(res, 400, `request body is not valid JSON: ${(err as Error).message}`);
      }
      if (existing) return existing.transport.handleRequest(req, res, body);
      if (sessionId) return sendError(res, 404, `unknown session ${String(sessionId)}`);
      if (!isInitializeRequest(body)) return sendError(res, 400, 'no session: the first request must be initialize');
      const server = build();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { sessions.set(id, { transport, server }); },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (!existing) return sendError(res, sessionId ? 404 : 400, sessionId ? `unknown session ${String(sessionId)}` : 'missing mcp-session-id header');
    return existing.transport.handleRequest(req, res);
  };
  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendError(res, 500, (err as Error).message);
      else res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/mcp`,
    port,
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => {})));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
