/**
 * The one decision every ghostwire network listener makes before any route runs: is the Host a
 * name of this machine (DNS rebinding), is the Origin one we serve (a web page posting across
 * origins), and does the bearer token match. Each listener answers a refusal in its own wire shape
 * (JSON-RPC error, provider error, plain text); only the decision lives here.
 * See docs/decisions/admin-api-security.md.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * True for a loopback interface or name: 127.0.0.0/8, ::1 (bracketed or not), localhost, *.localhost.
 * @example isLoopback('127.0.0.1') // true; isLoopback('0.0.0.0') // false
 */
export function isLoopback(host: string): boolean {
  const lower = host.toLowerCase();
  const h = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The host name of a Host header value, lower-cased, without its port.
 * @example hostName('[::1]:8080') // '[::1]'; hostName('Localhost:80') // 'localhost'
 */
export function hostName(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    return end < 0 ? v : v.slice(0, end + 1);
  }
  const colon = v.indexOf(':');
  return colon < 0 ? v : v.slice(0, colon);
}

/**
 * A random bearer token, base64url (32 bytes → 43 characters by default).
 * @example const token = mintToken(); // a fresh 43-character token
 */
export function mintToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * The token a listener bound to `bindHost` requires: the one given, else a fresh one beyond
 * loopback (a listener reachable from other machines never runs open), else none.
 * @example listenerToken('0.0.0.0', undefined) // a fresh token; listenerToken('127.0.0.1', undefined) // undefined
 */
export function listenerToken(bindHost: string, given: string | undefined, bytes?: number): string | undefined {
  return given ?? (isLoopback(bindHost) ? undefined : mintToken(bytes));
}

export interface ListenerGuardOptions {
  /** The interface the listener is bound to. */
  bindHost: string;
  /** Host names (no port) accepted besides loopback ones: a name that resolves to this machine, a container name. */
  allowedHosts?: readonly string[];
  /** Browser origins (`scheme://host[:port]`) accepted besides loopback ones and the listener's own. */
  allowedOrigins?: readonly string[];
  /** The bearer token `checkToken` requires; none means every request passes that check. */
  token?: string;
  /**
   * 'loopback-bind' (default): the Host is checked when bound to loopback, where DNS rebinding is
   * the threat; beyond it the token guards. 'always': the Host is checked on every bind.
   */
  hostCheck?: 'loopback-bind' | 'always';
}

/** Why a request was refused; the listener words it in its own shape (403 for Host/Origin, 401 for the token). */
export type ListenerRefusal = { reason: 'host'; host: string } | { reason: 'origin'; origin: string } | { reason: 'token' };

/** A request's headers as the guard reads them. */
export interface GuardedHeaders {
  host?: string | null;
  origin?: string | null;
  authorization?: string | null;
}

/**
 * The checks of one listener, built once.
 * @example
 *   const guard = new ListenerGuard({ bindHost: '127.0.0.1', token });
 *   guard.check(req.headers, { token: true }); // null when allowed, else { reason: 'host' | 'origin' | 'token' }
 */
export class ListenerGuard {
  readonly #checkHost: boolean;
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;
  readonly #token: Buffer | undefined;
  /** The last Host header value accepted: clients send the same one on every request. */
  #lastHost = '';

  constructor(options: ListenerGuardOptions) {
    this.#checkHost = options.hostCheck === 'always' || isLoopback(options.bindHost);
    this.#hosts = new Set((options.allowedHosts ?? []).map(hostName));
    this.#origins = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
    this.#token = options.token === undefined ? undefined : Buffer.from(options.token);
  }

  /** Whether a listener with this token set requires one at all. */
  get requiresToken(): boolean {
    return this.#token !== undefined;
  }

  #nameAllowed(name: string): boolean {
    return isLoopback(name) || this.#hosts.has(name);
  }

  /** A loopback or allowed name when Host is checked; a request without Host is refused then. */
  hostAllowed(host: string | undefined): boolean {
    if (!this.#checkHost || (host !== undefined && host === this.#lastHost)) return true;
    if (host === undefined || !this.#nameAllowed(hostName(host))) return false;
    this.#lastHost = host;
    return true;
  }

  /**
   * No Origin (non-browser clients send none), an allowed origin, an http(s) origin on a loopback
   * or allowed name, or the listener's own origin (the Host the request was sent to).
   */
  originAllowed(origin: string | undefined, host: string | undefined): boolean {
    if (origin === undefined) return true;
    if (this.#origins.has(normalizeOrigin(origin))) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return this.#nameAllowed(url.hostname.toLowerCase()) || (host !== undefined && url.host.toLowerCase() === host.trim().toLowerCase());
  }

  /** `authorization: Bearer <token>` compared in constant time; true when no token is set. */
  tokenAllowed(authorization: string | undefined): boolean {
    if (!this.#token) return true;
    const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '');
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }

  /** Host, then Origin, then (when `token` is asked for) the bearer token: the first refusal, or null. */
  check(headers: GuardedHeaders, options: { token?: boolean } = {}): ListenerRefusal | null {
    const host = headers.host ?? undefined;
    const origin = headers.origin ?? undefined;
    if (!this.hostAllowed(host)) return { reason: 'host', host: host ?? '' };
    if (!this.originAllowed(origin, host)) return { reason: 'origin', origin: origin! };
    if (options.token && !this.tokenAllowed(headers.authorization ?? undefined)) return { reason: 'token' };
    return null;
  }
}

function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/$/, '').toLowerCase();
}
