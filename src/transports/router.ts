/**
 * The shared server's routing, in Fetch terms: `/__ghostwire/...` goes to the admin API,
 * `/s/{id}/...` to session `id`'s MockLLM with the prefix removed, anything else to the
 * default session. Knows no provider.
 */
import { ADMIN_PREFIX, handleAdmin } from './admin.ts';
import { SessionRegistry } from './sessions.ts';

/**
 * A `(request) => Promise<Response>` over a session registry.
 * @example
 *   const route = createRouter(sessions);
 *   const res = await route(new Request(`${url}/s/abc/v1/chat/completions`, init));
 */
export function createRouter(sessions: SessionRegistry): (request: Request) => Promise<Response> {
  return async (request) => {
    const pathname = new URL(request.url).pathname;
    if (pathname.startsWith(ADMIN_PREFIX)) return handleAdmin(request, pathname, sessions);
    let routed: { id: string; path: string };
    try {
      routed = SessionRegistry.route(pathname);
    } catch {
      // A session id whose percent-escapes do not decode names no session.
      return new Response(unknownSessionBody(pathname.split('/')[2] ?? ''), { status: 404, headers: { 'content-type': 'application/json' } });
    }
    const { id, path } = routed;
    const session = sessions.get(id);
    if (!session) return new Response(unknownSessionBody(id), { status: 404, headers: { 'content-type': 'application/json' } });
    return session.mock.handle(request, { path });
  };
}

/** The 404 body for a session id nobody created. */
export function unknownSessionBody(id: string): string {
  const message = `ghostwire: no session ${JSON.stringify(id)} (create it with POST ${ADMIN_PREFIX}sessions)`;
  return JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'unknown_session' } });
}
