/**
 * `startMockLLMServer`: the transport core on a real port (127.0.0.1 by default), for clients
 * outside the test's process. Same paths as the real APIs under `url`; sessions under
 * `url/s/{id}`; the admin API under `url/__ghostwire/`. Bounded at every edge: bodies, journals
 * (entries and bytes), sessions (count and idle time); Host and Origin checked on every request;
 * the admin API behind a token whenever the server listens beyond loopback.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createMockLLM, type MockLLM, type ScenarioList } from './mock-llm.ts';
import { ADMIN_PREFIX, handleAdmin } from './admin.ts';
import { BodyTooLargeError, DEFAULT_BODY_LIMIT, headOnly, originForm, readBodyThen, toFetchRequest, withBody, writeFetchResponse, writeRawResponse } from './node-http.ts';
import type { RawRequest, RawResponse } from './handle.ts';
import { unknownSessionBody } from './router.ts';
import { SessionError, SessionRegistry } from './sessions.ts';
import { JournalBudget } from './journal.ts';
import { announceListener, listenerToken } from '../net/index.ts';
import { RequestGuard, type Refusal } from './request-guard.ts';
import { dualProtocolServer } from './h2c.ts';
import { nodeHttp } from '../lazy/index.ts';
import { plainSocket, realtimeUpgrade } from './ws-upgrade.ts';
import { WriteBatch } from './write-batch.ts';
import type { RedactionOptions } from '../goldens/redact.ts';
import { defaultAdapters } from '../providers/registry.ts';
import { ProviderRouter } from '../providers/router.ts';
import type { SessionFront } from './session-front.ts';

export { ADMIN_PREFIX };
export { SESSION_PREFIX, DEFAULT_SESSION, SessionRegistry, SessionError, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './sessions.ts';
export { DEFAULT_BODY_LIMIT };

/** Journal defaults of a server: per session, and one byte budget shared by all its sessions. */
export const DEFAULT_JOURNAL_LIMIT = 10_000;
export const DEFAULT_JOURNAL_BYTES = 64 * 2 ** 20;
export type { Session } from './sessions.ts';

export interface MockLLMServerOptions {
  /** Scenarios of the default session (ignored when `mock` is given); every new session starts from them too. */
  scenarios?: ScenarioList;
  /** Serve this MockLLM as the default session (e.g. one the test already holds); it keeps its own journal limits. */
  mock?: MockLLM;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Journal entries kept per session (the latest N); default 10,000. */
  journalLimit?: number;
  /** Journal bytes kept across all sessions (2.5 times the body length + 1 KiB an entry, oldest dropped first); default 64 MiB. */
  journalBytes?: number;
  /** Largest request body in bytes (a bigger one is a 413 in the provider's shape); default 32 MiB. */
  bodyLimit?: number;
  /** Sessions besides `default`; default 1000. */
  maxSessions?: number;
  /** Idle time after which a session is deleted, in ms (0 = never); default 30 minutes. */
  sessionIdleMs?: number;
  /** The admin API's bearer token. Minted when the server listens beyond loopback and none is given. */
  token?: string;
  /** Host names accepted besides loopback ones (Host and Origin checks), e.g. a container's name. */
  allowedHosts?: string[];
  /** Secrets kept out of journals besides the auth headers and cookies (same options as goldens' redaction). */
  redact?: RedactionOptions;
  /** `false`: answer requests that break a provider's protocol rules instead of refusing them (every session). */
  protocolRules?: boolean;
  /** Takes sessions' provider requests before their mocks (goldens on the real port: golden-front.ts). */
  front?: SessionFront;
}

export interface MockLLMServer {
  /** `http://host:port`: point a client's base URL here (`${url}/v1` for OpenAI). */
  url: string;
  port: number;
  host: string;
  /** The default session's mock. */
  mock: MockLLM;
  /** The admin API's token (`authorization: Bearer …`), when one is required. */
  token: string | undefined;
  /** Sessions for parallel isolation: `sessions.create({ scenarios })` → reach it at `${url}/s/${id}`. */
  sessions: SessionRegistry;
  /** The session's base URL. */
  sessionUrl(id: string): string;
  /**
   * For `ws` clients that insist on `wss://` (the openai SDK's OpenAIRealtimeWS): pass as
   * `options: { createConnection: server.plainSocket }` and they reach this port in plain TCP.
   */
  plainSocket: () => Socket;
  /** Stops listening and ends open connections (streams included). */
  close(): Promise<void>;
}

function fail(res: ServerResponse, err: unknown): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `ghostwire: ${(err as Error).message}`, type: 'server_error', param: null, code: null } }));
}

function wellEscaped(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function adminRefusal(res: ServerResponse, refusal: Refusal): void {
  const body = JSON.stringify({ error: { message: refusal.message, type: 'ghostwire_admin_error' } });
  res.writeHead(refusal.status, { 'content-type': 'application/json' }).end(body);
}

/**
 * Writes the mock's answer: a whole body with this turn's others (`batch`) when it has one at once
 * (most answers), a paced stream as it goes, a later answer when it comes.
 */
function answer(res: ServerResponse, mock: MockLLM, raw: RawRequest, batch: WriteBatch): void {
  try {
    const out = mock.answerRaw(raw);
    if (out instanceof Promise) {
      answerLater(res, out);
      return;
    }
    if (WriteBatch.takes(out.body)) {
      batch.add(res, out);
      return;
    }
    writeRawResponse(res, out)?.catch((err: unknown) => fail(res, err));
  } catch (err) {
    fail(res, err);
  }
}

function answerLater(res: ServerResponse, out: Promise<RawResponse>): void {
  out.then((response) => writeRawResponse(res, response)).catch((err: unknown) => fail(res, err));
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
  const budget = new JournalBudget(options.journalBytes ?? DEFAULT_JOURNAL_BYTES);
  const mockOptions = {
    journalLimit: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT,
    journalBudget: budget,
    redact: options.redact,
    protocolRules: options.protocolRules,
  };
  // One adapter list and one router for the whole server: adapters keep no per-mock state, so all
  // sessions share them (the per-request code and data stay in the CPU's cache with 100 sessions in
  // use); each session's mock owns its adapter states. Per server, not per process: the router's
  // memo and the adapters' caches belong to the server (docs/decisions/stateless-adapters.md).
  const router = new ProviderRouter(defaultAdapters());
  const mock = options.mock ?? createMockLLM({ scenarios: options.scenarios, ...mockOptions, router });
  const sessions = new SessionRegistry(mock, {
    scenarios: options.mock ? [...options.mock.engine.scenarios] : options.scenarios,
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleMs,
    mock: { ...mockOptions, router },
  });
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const token = listenerToken(host, options.token);
  const guard = new RequestGuard({ bindHost: host, allowedHosts: options.allowedHosts, token });
  let origin = '';
  // `new URL(origin).host`, once: a request for a path routes on it without a URL of its own.
  let originHost = '';
  const sockets = new Set<Socket>();
  const batch = new WriteBatch(writeRawResponse, fail);

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    let url = req.url ?? '/';
    // The absolute form (`POST http://host/v1/...`) read as its path from here on: sessions, the admin
    // API, goldens and the core all take the origin form.
    if (url.charCodeAt(0) !== 0x2f) req.url = url = originForm(url);
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    // The admin API speaks Fetch; provider traffic goes to the core as plain parts (no Fetch objects to build).
    if (pathname.startsWith(ADMIN_PREFIX)) serveAdmin(req, res, pathname).catch((err: unknown) => fail(res, err));
    // Provider traffic catches its own failures: no derived promise and closure per request.
    else serveSession(req, res, pathname);
  };
  // Only WebSocket upgrades reach the realtime upgrade listener; any other `Upgrade:` (an h2c attempt
  // from an HTTP/1.1 client) stays a plain request, as it was before a listener existed. Node versions
  // without the option send every upgrade to the listener, which refuses the non-WebSocket ones.
  const wantsWebSocket = (req: IncomingMessage) => req.headers.upgrade?.toLowerCase() === 'websocket';
  const { createServer } = nodeHttp();
  const server: Server = createServer({ shouldUpgradeCallback: wantsWebSocket } as Parameters<typeof createServer>[0], onRequest);
  async function serveAdmin(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const refused = guard.checkRequest(req.headers.host, req.headers.origin) ?? guard.checkAdmin(req.headers.authorization);
    if (refused) {
      req.resume();
      adminRefusal(res, refused);
      return;
    }
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    let request: Request;
    try {
      request = await toFetchRequest(req, origin, controller.signal, bodyLimit);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      adminRefusal(res, { status: 413, message: `ghostwire admin: ${err.message.replace(/^ghostwire: /, '')}` });
      return;
    }
    const fronted = options.front?.admin ? await options.front.admin(request, pathname, sessions) : null;
    await writeFetchResponse(res, fronted ?? (await handleAdmin(request, pathname, sessions)));
  }
  // Provider traffic: no promise, no async hop per request. The body's 'end' event reads, answers and
  // writes in one go; only an answer that waits (latency) or streams with pacing goes through a promise.
  function serveSession(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    try {
      const { id, path } = SessionRegistry.route(pathname);
      const refused = guard.checkRequest(req.headers.host, req.headers.origin);
      if (refused) {
        req.resume();
        // Answered in the route's provider shape, journaled in the default session (never the named one).
        answerLater(res, mock.reject(headOnly(req, res, origin, path), { ...refused, headers: {} }));
        return;
      }
      let session = sessions.get(id);
      if (!session && options.front?.adopts?.(id)) {
        try {
          session = sessions.create({ id, empty: true });
        } catch (err) {
          if (!(err instanceof SessionError)) throw err;
          // The session table is full: the provider's own 429 (SDKs back off and retry), never a 500.
          req.resume();
          answerLater(res, mock.reject(headOnly(req, res, origin, path), { status: err.status, message: `ghostwire: ${err.message}`, headers: {} }));
          return;
        }
      }
      if (!session) {
        req.resume();
        res.writeHead(404, { 'content-type': 'application/json' }).end(unknownSessionBody(id));
        return;
      }
      const target = session.mock;
      if (path.includes('%') && !wellEscaped(path)) {
        // Adapters decode ids in paths; a malformed escape is the client's mistake, said in its provider's shape.
        req.resume();
        const message = `ghostwire: the path ${JSON.stringify(path)} holds a malformed percent-escape`;
        answerLater(res, target.reject(headOnly(req, res, origin, path), { status: 400, message, headers: {} }));
        return;
      }
      if (options.front?.take(req, res, { session, path, origin, bodyLimit })) return;
      const method = req.method;
      if (method === 'GET' || method === 'HEAD') {
        answer(res, target, withBody(req, res, origin, path, '', originHost), batch);
        return;
      }
      readBodyThen(req, bodyLimit, (err, body) => {
        if (err === null) {
          answer(res, target, withBody(req, res, origin, path, body!.toString('utf8'), originHost), batch);
        } else if (err instanceof BodyTooLargeError) {
          // The rest of the body drains unread (never buffered); closing instead could reset the
          // connection before the client reads this answer.
          answerLater(res, target.reject(headOnly(req, res, origin, path), { status: 413, message: err.message, code: 'request_too_large', headers: {} }));
        } else {
          fail(res, err);
        }
      });
    } catch (err) {
      fail(res, err);
    }
  }
  // Realtime APIs (OpenAI Realtime, Gemini Live): WebSocket upgrades on the same port, same sessions and guard.
  server.on('upgrade', realtimeUpgrade(sessions, guard, () => origin));
  server.keepAliveTimeout = 10_000;
  // One port for HTTP/1.1 and HTTP/2 cleartext (the AWS SDK's default handler speaks the latter).
  const listener = dualProtocolServer(server, onRequest, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    // A deep accept queue (the kernel caps it at net.core.somaxconn): node's default of 511 resets
    // connections when thousands of clients connect at once, as a load test's do.
    listener.listen({ port: options.port ?? 0, host, backlog: 4096 }, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const { port } = listener.address() as AddressInfo;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  origin = `http://${hostInUrl}:${port}`;
  originHost = new URL(origin).host;
  // A test layer intercepting fetch in this process (the Vitest layer's MSW) lets this origin through.
  announceListener('listening', origin);

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    port,
    host,
    mock,
    token,
    sessions,
    sessionUrl: (id: string) => `${origin}/s/${id}`,
    plainSocket: plainSocket(port, host),
    close() {
      closing ??= (options.front?.close?.() ?? Promise.resolve()).catch(() => {}).then(() => new Promise<void>((resolve) => {
        announceListener('close', origin);
        listener.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }));
      return closing;
    },
  };
}
