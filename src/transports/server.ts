/**
 * `startMockLLMServer`: the transport core on a real port (127.0.0.1 by default), for clients
 * outside the test's process. Same paths as the real APIs under `url`; sessions under
 * `url/s/{id}`; the admin API under `url/__ghostwire/`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createMockLLM, type MockLLM, type ScenarioList } from './mock-llm.ts';
import { ADMIN_PREFIX, handleAdmin } from './admin.ts';
import { toFetchRequest, toRawRequest, writeFetchResponse, writeRawResponse } from './node-http.ts';
import { unknownSessionBody } from './router.ts';
import { SessionRegistry } from './sessions.ts';

export { ADMIN_PREFIX };
export { SESSION_PREFIX, DEFAULT_SESSION, SessionRegistry, SessionError } from './sessions.ts';
export type { Session } from './sessions.ts';

export interface MockLLMServerOptions {
  /** Scenarios of the default session (ignored when `mock` is given). */
  scenarios?: ScenarioList;
  /** Serve this MockLLM as the default session (e.g. one the test already holds). */
  mock?: MockLLM;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Journal entries kept per session (the latest N); unlimited by default. */
  journalLimit?: number;
}

export interface MockLLMServer {
  /** `http://host:port`: point a client's base URL here (`${url}/v1` for OpenAI). */
  url: string;
  port: number;
  host: string;
  /** The default session's mock. */
  mock: MockLLM;
  /** Sessions for parallel isolation: `sessions.create({ scenarios })` → reach it at `${url}/s/${id}`. */
  sessions: SessionRegistry;
  /** The session's base URL. */
  sessionUrl(id: string): string;
  /** Stops listening and ends open connections (streams included). */
  close(): Promise<void>;
}

function fail(res: ServerResponse, err: unknown): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `ghostwire: ${(err as Error).message}`, type: 'server_error', param: null, code: null } }));
}

/**
 * Starts the mock LLM on a real port.
 * @example
 *   const server = await startMockLLMServer({ scenarios: [hello] });
 *   const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` });
 *   await server.close();
 */
export async function startMockLLMServer(options: MockLLMServerOptions = {}): Promise<MockLLMServer> {
  const host = options.host ?? '127.0.0.1';
  const mock = options.mock ?? createMockLLM({ scenarios: options.scenarios, journalLimit: options.journalLimit });
  const sessions = new SessionRegistry(mock, { journalLimit: options.journalLimit });
  let origin = '';
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    // The admin API speaks Fetch; provider traffic goes to the core as plain parts (no Fetch objects to build).
    const served = pathname.startsWith(ADMIN_PREFIX) ? serveAdmin(req, res, pathname) : serveSession(req, res, pathname);
    served.catch((err: unknown) => fail(res, err));
  });
  async function serveAdmin(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    await writeFetchResponse(res, await handleAdmin(await toFetchRequest(req, origin, controller.signal), pathname, sessions));
  }
  async function serveSession(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const { id, path } = SessionRegistry.route(pathname);
    const session = sessions.get(id);
    if (!session) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end(unknownSessionBody(id));
      return;
    }
    await writeRawResponse(res, await session.mock.handleRaw(await toRawRequest(req, res, origin, path)));
  }
  server.keepAliveTimeout = 10_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue (the kernel caps it at net.core.somaxconn): node's default of 511 resets
    // connections when thousands of clients connect at once, as a load test's do.
    server.listen({ port: options.port ?? 0, host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  origin = `http://${hostInUrl}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    port,
    host,
    mock,
    sessions,
    sessionUrl: (id: string) => `${origin}/s/${id}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
