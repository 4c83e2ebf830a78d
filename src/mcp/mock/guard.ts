/**
 * Who may talk to a mock MCP server on a port, worded for its plain-text answers. The MCP spec asks
 * local servers to validate Host and Origin (DNS rebinding); beyond loopback a bearer token is
 * required as well. The decision is the shared listener guard's (src/net).
 */
import { ListenerGuard, listenerToken } from '../../net/index.ts';

export interface GuardOptions {
  /** The address the server is bound to. */
  bind: string;
  /** Required bearer token (always checked when set; required beyond loopback). */
  token?: string;
  /** Browser origins allowed besides loopback ones (`http://localhost:5173`). */
  allowedOrigins?: string[];
}

/** A refusal: answered 403, or 401 for the token. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * The token a server bound to `host` requires: the one given, else a fresh one beyond loopback
 * (a listener reachable from other machines never runs open), else none.
 * @example
 *   requiredToken('0.0.0.0', undefined) // a random 32-character token
 */
export function requiredToken(host: string, given: string | undefined): string | undefined {
  return listenerToken(host, given, 24);
}

/**
 * The check of one server, built once: null when the request may pass, otherwise the reason.
 * @example
 *   const check = requestChecker({ bind: '127.0.0.1' });
 *   check(request.headers) // null for Host: 127.0.0.1:3000
 */
export function requestChecker(options: GuardOptions): (headers: Headers) => Refusal | null {
  const guard = new ListenerGuard({ bindHost: options.bind, token: options.token, allowedOrigins: options.allowedOrigins });
  return (headers) => {
    const refused = guard.check({ host: headers.get('host'), origin: headers.get('origin'), authorization: headers.get('authorization') }, { token: true });
    if (!refused) return null;
    if (refused.reason === 'host') return { status: 403, message: `Forbidden: Host ${JSON.stringify(refused.host)} is not a loopback name` };
    if (refused.reason === 'origin') return { status: 403, message: `Forbidden: Origin ${JSON.stringify(refused.origin)} is not allowed` };
    return { status: 401, message: 'Unauthorized: a valid bearer token is required' };
  };
}

/**
 * One request's check (builds the checker; servers keep one from requestChecker).
 * @example
 *   checkRequest(request.headers, { bind: '127.0.0.1' }) // null for Host: 127.0.0.1:3000
 */
export function checkRequest(headers: Headers, options: GuardOptions): Refusal | null {
  return requestChecker(options)(headers);
}
