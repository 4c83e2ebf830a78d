/**
 * A front a server puts before its sessions' mocks: something else (goldens on the real port) may
 * take a session's provider requests and a few admin calls first. Kept apart from server.ts so the
 * listener only asks, and knows nothing of what answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Session, SessionRegistry } from './sessions.ts';

export interface SessionFrontRequest {
  session: Session;
  /** The path after any session prefix, query excluded. */
  path: string;
  /** The server's own origin (`http://127.0.0.1:4010`). */
  origin: string;
  bodyLimit: number;
}

export interface SessionFront {
  /** Takes a provider request before the session's mock answers it (then answers it itself); false leaves it to the mock. */
  take(req: IncomingMessage, res: ServerResponse, at: SessionFrontRequest): boolean;
  /** Should a request to this unknown session id create it (an empty session) instead of a 404? */
  adopts?(id: string): boolean;
  /** Answers an admin call itself, or null to leave it to the admin API. */
  admin?(request: Request, pathname: string, sessions: SessionRegistry): Promise<Response | null>;
  /** Runs when the server closes, before it stops listening. */
  close?(): Promise<void>;
}
