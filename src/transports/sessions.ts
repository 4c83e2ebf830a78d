/**
 * Sessions: independent MockLLMs on one shared server, for tests running in parallel. A session
 * is reached under its own base URL prefix, `/s/{id}/...` (see docs/decisions/sessions-by-url-prefix.md).
 * A new session starts from the server's own scenarios unless asked to start empty; sessions are
 * limited in number and forgotten after an idle time, so a long-running server stays bounded.
 */
import { randomAlnum } from '../providers/common/ids.ts';
import { createMockLLM, scenarioArray, type MockLLM, type MockLLMOptions, type ScenarioList } from './mock-llm.ts';

/** The session prefix; `/s/{id}/v1/chat/completions` reaches session `id`. */
export const SESSION_PREFIX = '/s/';
/** The session id that names the server's own mock (also reachable without a prefix). */
export const DEFAULT_SESSION = 'default';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface Session {
  id: string;
  mock: MockLLM;
  createdAt: number;
  /** When a request or an admin call last reached the session (idle sessions expire). */
  lastUsedAt: number;
}

/** Default session limits: enough for a large parallel suite, small enough to bound memory. */
export const DEFAULT_MAX_SESSIONS = 1000;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export interface SessionRegistryOptions {
  /** Scenarios a new session starts from when it is given none (the served ones); `create({ empty: true })` skips them. */
  scenarios?: ScenarioList;
  /** Sessions besides `default` (default 1000): one more is a 429 until one is deleted or expires. */
  maxSessions?: number;
  /** A session not used for this long is deleted (default 30 minutes; `default` never expires; 0 = never). */
  idleMs?: number;
  /** Options for each session's MockLLM (journal limits and budget, redaction, the server's shared router). */
  mock?: Pick<MockLLMOptions, 'journalLimit' | 'journalBytes' | 'journalBudget' | 'redact' | 'router'>;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Thrown for a bad or duplicate session id or a full registry; the admin API answers with its status.
 * @example
 *   try { server.sessions.create({ id: 'a' }); } catch (e) { if (e instanceof SessionError) console.log(e.status); }
 */
export class SessionError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'SessionError';
    this.status = status;
  }
}

/** decodeURIComponent that gives the text back unchanged when it is not valid percent-encoding. */
export function safeDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The sessions of one server, keyed by id. The server's own mock is session `default`, shared by
 * every client that uses the server's plain URL.
 * @example
 *   const s = sessions.create({ scenarios: [weather] }); // s.id, s.mock
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, Session>();
  readonly #seed: ReturnType<typeof scenarioArray>;
  readonly #maxSessions: number;
  readonly #idleMs: number;
  readonly #mockOptions: SessionRegistryOptions['mock'];
  readonly #now: () => number;

  constructor(defaultMock: MockLLM, options: SessionRegistryOptions = {}) {
    this.#seed = scenarioArray(options.scenarios);
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#mockOptions = options.mock;
    this.#now = options.now ?? Date.now;
    const now = this.#now();
    this.#sessions.set(DEFAULT_SESSION, { id: DEFAULT_SESSION, mock: defaultMock, createdAt: now, lastUsedAt: now });
  }

  /**
   * Creates a session with its own scenarios and journal; the id is minted when not given. It
   * starts from `scenarios` when given, else from the registry's (the served ones), else, with
   * `empty: true`, from none.
   */
  create(options: { id?: string; scenarios?: ScenarioList; empty?: boolean } = {}): Session {
    const id = options.id ?? `s${randomAlnum(12)}`;
    if (!ID_PATTERN.test(id)) throw new SessionError(400, `session id must match ${ID_PATTERN}, got ${JSON.stringify(id)}`);
    if (this.#sessions.has(id)) throw new SessionError(409, `session ${JSON.stringify(id)} already exists`);
    this.expireIdle();
    if (this.#sessions.size - 1 >= this.#maxSessions) {
      throw new SessionError(429, `${this.#maxSessions} sessions already exist (the limit): delete one first (DELETE /__ghostwire/sessions/{id})`);
    }
    const given = scenarioArray(options.scenarios);
    const scenarios = given.length > 0 || options.empty ? given : this.#seed;
    const now = this.#now();
    const session = { id, mock: createMockLLM({ ...this.#mockOptions, scenarios }), createdAt: now, lastUsedAt: now };
    this.#sessions.set(id, session);
    return session;
  }

  /** The session, marked as used now; undefined when unknown or expired. */
  get(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    const now = this.#now();
    if (this.#expired(session, now)) {
      this.#remove(session);
      return undefined;
    }
    session.lastUsedAt = now;
    return session;
  }

  /** Removes a session (the default one stays); true when it existed. */
  delete(id: string): boolean {
    if (id === DEFAULT_SESSION) throw new SessionError(400, 'the default session cannot be deleted (reset it instead)');
    const session = this.#sessions.get(id);
    if (!session) return false;
    this.#remove(session);
    return true;
  }

  list(): Session[] {
    this.expireIdle();
    return [...this.#sessions.values()];
  }

  /** Deletes every session idle for longer than the idle time; returns how many went. */
  expireIdle(): number {
    const now = this.#now();
    let removed = 0;
    for (const session of this.#sessions.values()) {
      if (this.#expired(session, now)) {
        this.#remove(session);
        removed += 1;
      }
    }
    return removed;
  }

  #expired(session: Session, now: number): boolean {
    return session.id !== DEFAULT_SESSION && this.#idleMs > 0 && now - session.lastUsedAt > this.#idleMs;
  }

  #remove(session: Session): void {
    this.#sessions.delete(session.id);
    // Frees its share of a journal budget shared with the other sessions.
    session.mock.reset();
  }

  /**
   * Splits a path into its session and the rest: `/s/abc/v1/x` → { id: 'abc', path: '/v1/x' };
   * a path without the prefix belongs to the default session. A malformed escape stays as sent
   * (no such session: a 404, never a thrown URIError).
   */
  static route(pathname: string): { id: string; path: string } {
    if (!pathname.startsWith(SESSION_PREFIX)) return { id: DEFAULT_SESSION, path: pathname };
    const rest = pathname.slice(SESSION_PREFIX.length);
    const slash = rest.indexOf('/');
    const id = safeDecode(slash < 0 ? rest : rest.slice(0, slash));
    return { id, path: slash < 0 ? '/' : rest.slice(slash) };
  }
}
