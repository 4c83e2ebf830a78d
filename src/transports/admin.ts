/**
 * The admin API under `/__ghostwire/` (a prefix no provider uses): create sessions, push
 * scenarios and steps, read journals and counters, reset, delete. Fetch in, Fetch out, so
 * it runs the same behind node:http or anything else.
 *
 *   GET    /__ghostwire/health
 *   GET    /__ghostwire/sessions                      → { sessions: [{ id, url, requests, unconsumed }] }
 *   POST   /__ghostwire/sessions                      { id?, scenarios?, empty? } → 201 { id, url }
 *   GET    /__ghostwire/sessions/{id}                 → { id, url, scenarios, counters, unconsumed }
 *   GET    /__ghostwire/sessions/{id}/requests        → { requests: JournalEntry[] }
 *   POST   /__ghostwire/sessions/{id}/scenarios       scenario | scenario[] → { scenarios }
 *   POST   /__ghostwire/sessions/{id}/steps           { steps, scenario?, priority? } → { scenario }
 *   POST   /__ghostwire/sessions/{id}/reset           → { ok: true }
 *   DELETE /__ghostwire/sessions/{id}                 → 204
 *
 * Writes must carry a JSON content type (a web page cannot send one without a CORS preflight);
 * the listener checks Host, Origin and the token before this runs (request-guard.ts).
 */
import { formatIssue, parseScenarioText } from '../scenario/loader.ts';
import type { Scenario } from '../scenario/schema.ts';
import { randomAlnum } from '../providers/common/ids.ts';
import type { MockLLM } from './mock-llm.ts';
import { assertNestingWithin } from './json-depth.ts';
import { safeDecode, SESSION_PREFIX, SessionError, type Session, type SessionRegistry } from './sessions.ts';
import type { JournalEntry } from '../scenario/selection.ts';

/** The reserved path prefix of the admin API. */
export const ADMIN_PREFIX = '/__ghostwire/';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fail = (status: number, message: string, issues?: string[]): Response =>
  json(status, { error: { message: `ghostwire admin: ${message}`, type: 'ghostwire_admin_error', ...(issues ? { issues } : {}) } });

class AdminError extends Error {
  readonly status: number;
  readonly issues?: string[];
  constructor(status: number, message: string, issues?: string[]) {
    super(message);
    this.status = status;
    this.issues = issues;
  }
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    assertNestingWithin(text);
  } catch (err) {
    throw new AdminError(400, (err as Error).message.replace(/^ghostwire: /, ''));
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AdminError(400, `request body is not JSON: ${(err as Error).message}`);
  }
}

async function readObject(request: Request, shape: string): Promise<Record<string, unknown>> {
  const body = await readJson(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AdminError(400, `expected a JSON object ${shape}`);
  return body as Record<string, unknown>;
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;

/**
 * CSRF: a web page can POST text/plain, form data or nothing across origins without a preflight,
 * never application/json. So a write carries JSON, or no body and no content type at all.
 */
function refuseUnsafeWrite(request: Request): Response | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const type = request.headers.get('content-type');
  if (type === null ? request.headers.get('content-length') === null || request.headers.get('content-length') === '0' : JSON_TYPE.test(type)) return null;
  return fail(415, `${request.method} needs "content-type: application/json" (got ${type === null ? 'a body without a content type' : JSON.stringify(type)})`);
}

/**
 * One journal entry as JSON text. An entry that cannot be serialised (a cyclic or absurdly deep
 * value an adapter let through) keeps its place with the request body left out, so one request
 * never makes the whole journal unreadable.
 */
function entryJson(entry: JournalEntry): string {
  try {
    return JSON.stringify(entry);
  } catch (err) {
    const note = `[not serialisable: ${(err as Error).message}]`;
    return JSON.stringify({ ...entry, request: entry.request && { ...entry.request, raw: note, params: {}, messages: [], tools: [] } });
  }
}

function journalResponse(entries: readonly JournalEntry[]): Response {
  const body = `{"requests":[${entries.map(entryJson).join(',')}]}`;
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

/** Validates scenarios sent to the admin API with the loader's messages (JSON path and expectation). */
function validScenarios(value: unknown, where: string): Scenario[] {
  const { scenarios, issues } = parseScenarioText(JSON.stringify(value), where);
  if (issues.length) throw new AdminError(400, `invalid scenarios in ${where}`, issues.map(formatIssue));
  return scenarios;
}

function counters(mock: MockLLM): Record<string, unknown> {
  const byStatus: Record<string, number> = {};
  const byStep: Record<string, number> = {};
  let unmatched = 0;
  for (const r of mock.requests) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    if (r.step) byStep[`${r.step.scenario}#${r.step.index}`] = (byStep[`${r.step.scenario}#${r.step.index}`] ?? 0) + 1;
    else if (r.nearMisses.length > 0 || r.status === 404) unmatched += 1;
  }
  return { requests: mock.requests.length, byStatus, byStep, unmatched };
}

function summary(session: Session, origin: string): Record<string, unknown> {
  return { id: session.id, url: `${origin}${SESSION_PREFIX}${session.id}`, requests: session.mock.requests.length, unconsumed: session.mock.unconsumed().length };
}

async function sessionRoute(request: Request, session: Session, action: string, origin: string, sessions: SessionRegistry): Promise<Response> {
  const { mock } = session;
  const route = `${request.method} ${action}`;
  switch (route) {
    case 'GET ':
      return json(200, { ...summary(session, origin), scenarios: mock.engine.scenarios.map((s) => s.name), counters: counters(mock), unconsumed: mock.unconsumed() });
    case 'GET requests':
      return journalResponse(mock.requests);
    case 'POST scenarios': {
      const scenarios = validScenarios(await readJson(request), 'request body');
      mock.use(...scenarios);
      return json(200, { scenarios: scenarios.map((s) => s.name) });
    }
    case 'POST steps': {
      const body = await readObject(request, '{ "steps": [...], "scenario"?, "priority"? }');
      if (!Array.isArray(body.steps)) throw new AdminError(400, 'expected { "steps": [...] } (optional "scenario" name and "priority")');
      const name = typeof body.scenario === 'string' ? body.scenario : `pushed-${randomAlnum(8)}`;
      const [scenario] = validScenarios({ name, priority: body.priority ?? 0, steps: body.steps }, 'request body');
      mock.use(scenario);
      return json(200, { scenario: scenario.name });
    }
    case 'POST reset':
      mock.reset();
      return json(200, { ok: true });
    case 'DELETE ':
      sessions.delete(session.id);
      return new Response(null, { status: 204 });
    default:
      return fail(404, `no admin route ${request.method} ${ADMIN_PREFIX}sessions/${session.id}/${action}`);
  }
}

async function route(request: Request, path: string, sessions: SessionRegistry): Promise<Response> {
  const origin = new URL(request.url).origin;
  const parts = path.slice(ADMIN_PREFIX.length).split('/').filter((p, i) => p !== '' || i === 0);
  if (parts.length > 3) return fail(404, `no admin route ${request.method} ${path}`);
  const [resource, id, action = ''] = parts.map(safeDecode);
  if (resource === 'health') return parts.length === 1 && request.method === 'GET' ? json(200, { ok: true }) : fail(404, `no admin route ${request.method} ${path}`);
  if (resource !== 'sessions') return fail(404, `no admin route ${request.method} ${path}`);
  if (id === undefined) {
    if (request.method === 'GET') return json(200, { sessions: sessions.list().map((s) => summary(s, origin)) });
    if (request.method === 'POST') {
      const body = await readObject(request, '{ "id"?, "scenarios"?, "empty"? }');
      if (body.id !== undefined && typeof body.id !== 'string') throw new AdminError(400, 'session "id" must be a string');
      if (body.empty !== undefined && typeof body.empty !== 'boolean') throw new AdminError(400, 'session "empty" must be true or false');
      const scenarios = body.scenarios === undefined ? [] : validScenarios(body.scenarios, 'request body .scenarios');
      const session = sessions.create({ id: body.id, scenarios, empty: body.empty });
      return json(201, summary(session, origin));
    }
    return fail(405, `${request.method} not allowed on ${path}`);
  }
  const session = sessions.get(id);
  if (!session) return fail(404, `no session ${JSON.stringify(id)}`);
  return sessionRoute(request, session, action, origin, sessions);
}

/**
 * Answers an admin request; `path` starts with ADMIN_PREFIX.
 * @example
 *   if (path.startsWith(ADMIN_PREFIX)) return handleAdmin(request, path, sessions);
 */
export async function handleAdmin(request: Request, path: string, sessions: SessionRegistry): Promise<Response> {
  try {
    return refuseUnsafeWrite(request) ?? (await route(request, path, sessions));
  } catch (err) {
    if (err instanceof AdminError) return fail(err.status, err.message, err.issues);
    if (err instanceof SessionError) return fail(err.status, err.message);
    return fail(500, (err as Error).message);
  }
}
