/**
 * The real port's goldens front (`ghostwire serve --goldens DIR`): a session's provider requests are
 * answered from (or recorded into) its golden instead of its scenarios. Which golden: the
 * `x-ghostwire-golden` header, else the one the session was created for (`POST /__ghostwire/sessions`
 * with `{ "golden": "checkout/pays" }`), else the session's id. Errors take the provider's own shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GoldenMismatchError } from '../goldens/errors.ts';
import type { CanonicalError } from '../scenario/canonical.ts';
import { formatReport, GoldensFullError, PortGoldens, type PortGoldenReport } from '../goldens/port-goldens.ts';
import { headOnly, readBodyThen, writeFetchResponse, writeRawResponse } from './node-http.ts';
import { DEFAULT_SESSION, SESSION_PREFIX, SessionError, type SessionRegistry } from './sessions.ts';
import type { SessionFront, SessionFrontRequest } from './session-front.ts';
import { ADMIN_PREFIX } from './admin.ts';

/** The header naming a request's golden, for clients that cannot use a session URL. */
export const GOLDEN_HEADER = 'x-ghostwire-golden';

export interface GoldenFrontOptions {
  /** A session id names its golden when the session was not created for one (and unknown ids become sessions). */
  sessionIdNamesGolden?: boolean;
  /** Reports of ended sessions (delete, shutdown). */
  log?: (line: string) => void;
  /** A request that names no golden: answered by the session's scenarios (default), or refused with how to name one. */
  unnamed?: 'scenarios' | 'refuse';
}

const json = (status: number, body: unknown): Response => Response.json(body, { status });
const adminError = (status: number, message: string): Response => json(status, { error: { message: `ghostwire admin: ${message}`, type: 'ghostwire_admin_error' } });

/** Answers with the session mock's provider-shaped error (the route's API decides the shape); `wire`: an API's own error, as is. */
function refuse(req: IncomingMessage, res: ServerResponse, at: SessionFrontRequest, status: number, message: string, wire?: CanonicalError): void {
  at.session.mock
    .reject(headOnly(req, res, at.origin, at.path), wire ?? { status, message, type: status === 400 ? 'invalid_request_error' : undefined, headers: {} })
    .then((response) => writeRawResponse(res, response))
    .catch(() => res.destroy());
}

/** A port request as the parts a golden needs: method, path after the session prefix with its query, headers, body. */
export interface PortRequest {
  method: string;
  pathAndQuery: string;
  headers: Headers;
  body: ArrayBuffer | null;
  signal: AbortSignal;
}

/**
 * Reads a port request's body and answers it with `serve` (a golden replaying or recording), streaming
 * the answer with backpressure; a golden that cannot answer gets the provider's error shape: 400 for a
 * mismatch (SDKs do not retry it), 502 when the upstream could not be reached while recording.
 * @example answerThrough(req, res, at, (request) => goldens.serve(id, name, request), 'golden checkout')
 */
export function answerThrough(req: IncomingMessage, res: ServerResponse, at: SessionFrontRequest, serve: (request: PortRequest) => Promise<Response>, what: string): void {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  readBodyThen(req, at.bodyLimit, (err, body) => {
    if (err) {
      refuse(req, res, at, 413, err.message);
      return;
    }
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const bytes = body && body.length > 0 ? (body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer) : null;
    serve({ method: req.method ?? 'GET', pathAndQuery: at.path + (query < 0 ? '' : url.slice(query)), headers, body: bytes, signal: controller.signal })
      .then((response) => writeFetchResponse(res, response))
      .catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        const mismatch = error instanceof GoldenMismatchError;
        const cause = (error as { cause?: Error }).cause;
        const message = mismatch || !(error instanceof TypeError) ? (error as Error).message : `ghostwire: the upstream could not be reached while recording ${what}: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`;
        const status = error instanceof GoldensFullError ? error.status : mismatch ? 400 : 502;
        refuse(req, res, at, status, message, mismatch ? error.wire : undefined);
      });
  });
}

/**
 * A SessionFront answering sessions from goldens.
 * @example
 *   const server = await startMockLLMServer({ front: goldenFront(new PortGoldens({ dir: 'e2e/goldens' }), { sessionIdNamesGolden: true }) });
 */
export function goldenFront(goldens: PortGoldens, options: GoldenFrontOptions = {}): SessionFront & { reports: PortGoldenReport[] } {
  const byId = options.sessionIdNamesGolden ?? true;
  const bound = new Map<string, string>();
  const log = options.log ?? (() => {});
  const reports: PortGoldenReport[] = [];
  const report = (r: PortGoldenReport): PortGoldenReport => {
    reports.push(r);
    if (reports.length > 1000) reports.shift();
    log(`ghostwire serve: ${formatReport(r)}`);
    return r;
  };

  function nameOf(req: IncomingMessage, sessionId: string): string | null {
    const header = req.headers[GOLDEN_HEADER];
    if (typeof header === 'string' && header !== '') return header;
    const name = bound.get(sessionId);
    if (name) return name;
    if (byId && sessionId !== DEFAULT_SESSION) {
      bound.set(sessionId, sessionId);
      return sessionId;
    }
    return null;
  }

  return {
    reports,
    adopts: (id) => byId && id !== DEFAULT_SESSION && /^[A-Za-z0-9_-]{1,64}$/.test(id),
    take(req, res, at) {
      const name = nameOf(req, at.session.id);
      if (name === null) {
        if (options.unnamed !== 'refuse') return false;
        req.resume();
        refuse(req, res, at, 400, `ghostwire serve --goldens: this request names no golden. Use a session per golden (base URL ${at.origin}${SESSION_PREFIX}<golden-name>, or POST ${ADMIN_PREFIX}sessions {"golden": "<name>"}), or send the header ${GOLDEN_HEADER}: <name>`);
        return true;
      }
      if (!PortGoldens.validName(name)) {
        req.resume();
        refuse(req, res, at, 400, `ghostwire: ${JSON.stringify(name)} is not a golden name: path segments of letters, digits, ".", "_" and "-", no "..", at most 200 characters`);
        return true;
      }
      answerThrough(req, res, at, (request) => goldens.serve(at.session.id, name, request), `golden ${name}`);
      return true;
    },
    async admin(request, pathname, sessions) {
      await sweep(sessions);
      const sessionsPath = `${ADMIN_PREFIX}sessions`;
      if (request.method === 'POST' && (pathname === sessionsPath || pathname === `${sessionsPath}/`)) return create(request, sessions);
      if (request.method === 'DELETE' && pathname.startsWith(`${sessionsPath}/`)) {
        const id = decodeURIComponent(pathname.slice(sessionsPath.length + 1).replace(/\/$/, ''));
        if (!bound.has(id) || !sessions.get(id)) return null;
        bound.delete(id);
        const results = (await goldens.finish(id)).map(report);
        sessions.delete(id);
        // The session's own golden first; goldens its requests named by header follow.
        return json(200, { deleted: id, golden: results[0] ?? null, goldens: results });
      }
      return null;
    },
    async close() {
      // Recordings in flight get a few seconds to complete; a stuck stream must not hold the shutdown.
      const timeout = new Promise<PortGoldenReport[]>((resolve) => setTimeout(() => resolve([]), 10_000).unref());
      for (const r of await Promise.race([goldens.finishAll(), timeout])) report(r);
    },
  };

  /** Sessions the registry expired (idle) end their goldens too: reported, and their memory freed. */
  async function sweep(sessions: SessionRegistry): Promise<void> {
    const live = new Set(sessions.list().map((s) => s.id));
    for (const id of [...bound.keys()]) {
      if (live.has(id)) continue;
      bound.delete(id);
      (await goldens.finish(id)).forEach(report);
    }
  }

  async function create(request: Request, sessions: SessionRegistry): Promise<Response | null> {
    let body: unknown;
    try {
      body = JSON.parse(await request.clone().text());
    } catch {
      return null;
    }
    if (typeof body !== 'object' || body === null || !('golden' in body)) return null;
    const { golden, id } = body as { golden: unknown; id?: unknown };
    if (typeof golden !== 'string' || !PortGoldens.validName(golden)) {
      return adminError(400, `session "golden" must be a golden name (path segments of letters, digits, ".", "_" and "-", no ".."), got ${JSON.stringify(golden)}`);
    }
    if (id !== undefined && typeof id !== 'string') return adminError(400, 'session "id" must be a string');
    let created: string | undefined;
    try {
      const session = sessions.create({ id, empty: true });
      created = session.id;
      bound.set(session.id, golden);
      const origin = new URL(request.url).origin;
      return json(201, { id: session.id, url: `${origin}${SESSION_PREFIX}${session.id}`, golden, file: goldens.fileOf(golden), mode: goldens.modeOf(session.id, golden) });
    } catch (error) {
      if (error instanceof SessionError) return adminError(error.status, error.message);
      if (error instanceof GoldensFullError) {
        // No golden for it: the session it would have fed goes too.
        if (created !== undefined) {
          bound.delete(created);
          sessions.delete(created);
        }
        return adminError(error.status, error.message);
      }
      throw error;
    }
  }
}
