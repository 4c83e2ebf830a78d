import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Who may talk to a mock MCP server on a port. The MCP spec asks local servers to validate
 * Host and Origin (DNS rebinding); beyond loopback a bearer token is required as well.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Is `host` (a bind address or a Host header's name) a loopback name? */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0];
}

export interface GuardOptions {
  /** The address the server is bound to. */
  bind: string;
  /** Required bearer token (always checked when set; required beyond loopback). */
  token?: string;
  /** Browser origins allowed besides loopback ones (`http://localhost:5173`). */
  allowedOrigins?: string[];
}

/**
 * The token a server bound to `host` requires: the one given, else a fresh one beyond loopback
 * (a listener reachable from other machines never runs open), else none.
 * @example
 *   requiredToken('0.0.0.0', undefined) // a random 32-character token
 */
export function requiredToken(host: string, given: string | undefined): string | undefined {
  return given ?? (isLoopback(host) ? undefined : randomBytes(24).toString('base64url'));
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Null when the request may pass; otherwise the reason (answered 403, or 401 for the token).
 * @example
 *   checkRequest(request.headers, { bind: '127.0.0.1' }) // null for Host: 127.0.0.1:3000
 */
export function checkRequest(headers: Headers, options: GuardOptions): { status: number; message: string } | null {
  const loopback = isLoopback(options.bind);
  const host = headers.get('host');
  if (loopback && (!host || !isLoopback(hostnameOf(host)))) return { status: 403, message: `Forbidden: Host ${JSON.stringify(host ?? '')} is not a loopback name` };
  const origin = headers.get('origin');
  if (origin !== null && !options.allowedOrigins?.includes(origin)) {
    let originHost = '';
    try {
      originHost = new URL(origin).hostname;
    } catch {
      // An unparsable Origin is refused below.
    }
    if (!isLoopback(originHost) && !isLoopback(`[${originHost}]`)) return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
  }
  if (options.token !== undefined) {
    const auth = headers.get('authorization') ?? '';
    const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!sameToken(given, options.token)) return { status: 401, message: 'Unauthorized: a valid bearer token is required' };
  }
  return null;
}
