/**
 * Sessions: independent MockLLMs on one shared server, for tests running in parallel. A session
 * is reached under its own base URL prefix, `/s/{id}/...` (see docs/decisions/sessions-by-url-prefix.md).
 */
import { randomAlnum } from '../providers/common/ids.ts';
import { createMockLLM, type MockLLM, type ScenarioList } from './mock-llm.ts';

/** The session prefix; `/s/{id}/v1/chat/completions` reaches session `id`. */
export const SESSION_PREFIX = '/s/';
/** The session id that names the server's own mock (also reachable without a prefix). */
export const DEFAULT_SESSION = 'default';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface Session {
  id: string;
  mock: MockLLM;
  createdAt: number;
}

/**
 * Thrown for a bad or duplicate session id; the admin API turns it into a 400/409.
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

/**
 * The sessions of one server, keyed by id. The server's own mock is session `default`.
 * @example
 *   const s = sessions.create({ scenarios: [weather] }); // s.id, s.mock
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, Session>();

  readonly #journalLimit: number | undefined;

  constructor(defaultMock: MockLLM, options: { journalLimit?: number } = {}) {
    this.#journalLimit = options.journalLimit;
    this.#sessions.set(DEFAULT_SESSION, { id: DEFAULT_SESSION, mock: defaultMock, createdAt: Date.now() });
  }

  /** Creates a session with its own scenarios and journal; the id is minted when not given. */
  create(options: { id?: string; scenarios?: ScenarioList } = {}): Session {
    const id = options.id ?? `s${randomAlnum(12)}`;
    if (!ID_PATTERN.test(id)) throw new SessionError(400, `session id must match ${ID_PATTERN}, got ${JSON.stringify(id)}`);
    if (this.#sessions.has(id)) throw new SessionError(409, `session ${JSON.stringify(id)} already exists`);
    const session = { id, mock: createMockLLM({ scenarios: options.scenarios, journalLimit: this.#journalLimit }), createdAt: Date.now() };
    this.#sessions.set(id, session);
    return session;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** Removes a session (the default one stays); true when it existed. */
  delete(id: string): boolean {
    if (id === DEFAULT_SESSION) throw new SessionError(400, 'the default session cannot be deleted (reset it instead)');
    return this.#sessions.delete(id);
  }

  list(): Session[] {
    return [...this.#sessions.values()];
  }

  /**
   * Splits a path into its session and the rest: `/s/abc/v1/x` → { id: 'abc', path: '/v1/x' };
   * a path without the prefix belongs to the default session.
   */
  static route(pathname: string): { id: string; path: string } {
    if (!pathname.startsWith(SESSION_PREFIX)) return { id: DEFAULT_SESSION, path: pathname };
    const rest = pathname.slice(SESSION_PREFIX.length);
    const slash = rest.indexOf('/');
    const id = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash));
    return { id, path: slash < 0 ? '/' : rest.slice(slash) };
  }
}
