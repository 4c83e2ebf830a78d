import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { toFetchRequest, writeFetchResponse } from '../../transports/node-http.ts';
import { announceListener } from '../../net/index.ts';
import { nodeHttp } from '../../lazy/index.ts';
import { requestChecker, requiredToken } from './guard.ts';
import { createMockMCP, type MCPScenarioSource, type MockMCP, type MockMCPOptions } from './mock-mcp.ts';

/**
 * A mock MCP server on a real port (Streamable HTTP at `/mcp`), for clients outside the test's
 * process. Sessions by URL prefix as the LLM server does: `/s/{id}/mcp` is a fresh mock of the
 * same scenario (its own answers, counters and journal), so parallel tests do not cross.
 */

export interface MockMCPServerOptions extends MockMCPOptions {
  /** The scenario (ignored when `mock` is given). */
  scenario?: MCPScenarioSource;
  mock?: MockMCP;
  /** 0 (default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default. Beyond loopback a token is required (generated when not given). */
  host?: string;
  token?: string;
  allowedOrigins?: string[];
  /** URL-prefix sessions (`/s/{id}/mcp`, each its own mock) kept at most (default 256); MCP sessions are `http`. */
  maxSessions?: number;
}

export interface MockMCPServer {
  /** The MCP endpoint: `http://host:port/mcp`. */
  url: string;
  port: number;
  host: string;
  /** The bearer token clients must send, when one is required. */
  token?: string;
  /** The default mock (`/mcp`). */
  mock: MockMCP;
  /** The endpoint of session `id` (`/s/{id}/mcp`) and its mock (created on first use). */
  session(id: string): { url: string; mock: MockMCP };
  close(): Promise<void>;
}

const SESSION_PATH = /^\/s\/([A-Za-z0-9_-]{1,64})\/mcp\/?$/;

function plain(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Starts a mock MCP server on a port.
 * @example
 *   const server = await startMockMCPServer({ scenario: 'fixtures/mcp/conformance.json' });
 *   const transport = new StreamableHTTPClientTransport(new URL(server.url));
 */
export async function startMockMCPServer(options: MockMCPServerOptions): Promise<MockMCPServer> {
  const host = options.host ?? '127.0.0.1';
  const token = requiredToken(host, options.token);
  const checkRequest = requestChecker({ bind: host, token, allowedOrigins: options.allowedOrigins });
  if (!options.mock && !options.scenario) throw new Error('startMockMCPServer: give a scenario or a mock');
  const mock = options.mock ?? createMockMCP(options.scenario!, options);
  const sessions = new Map<string, MockMCP>();
  const maxSessions = options.maxSessions ?? 256;
  const sessionMock = (id: string): MockMCP | undefined => {
    let m = sessions.get(id);
    // Each session keeps a smaller journal by default: there may be hundreds of them.
    if (!m && sessions.size < maxSessions) sessions.set(id, (m = createMockMCP(mock.scenario, { journalLimitBytes: options.journalLimitBytes ?? 4 * 1024 * 1024, http: options.http })));
    return m;
  };
  const sockets = new Set<Socket>();

  const onRequest = async (req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    const sessionMatch = SESSION_PATH.exec(path);
    const target = path === '/mcp' || path === '/mcp/' ? mock : sessionMatch ? sessionMock(sessionMatch[1]) : undefined;
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const refused = checkRequest(headers);
    if (refused) return plain(res, refused.status, refused.message);
    if (!target) return plain(res, sessionMatch ? 503 : 404, sessionMatch ? `too many sessions (${maxSessions})` : `not found: the MCP endpoint is ${origin}/mcp`);
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const request = await toFetchRequest(req, origin, controller.signal);
    await writeFetchResponse(res, await target.handle(request));
  };

  const server = nodeHttp().createServer((req, res) => {
    const address = server.address() as AddressInfo;
    const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    onRequest(req, res, origin).catch((err: Error) => {
      // No single request may take the server down.
      if (res.headersSent) res.destroy();
      else plain(res, 500, `ghostwire: ${err.message}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // A test layer intercepting fetch in this process (the Vitest layer's MSW) lets this origin through.
  announceListener('listening', base);
  let closing: Promise<void> | undefined;
  return {
    url: `${base}/mcp`,
    port,
    host,
    token,
    mock,
    session(id) {
      const m = sessionMock(id);
      if (!m) throw new Error(`startMockMCPServer: too many sessions (${maxSessions})`);
      return { url: `${base}/s/${id}/mcp`, mock: m };
    },
    close() {
      closing ??= (async () => {
        announceListener('close', base);
        await Promise.all([mock, ...sessions.values()].map((m) => m.close()));
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
