/**
 * What a listener checks before any route runs: the Host (DNS rebinding), the Origin (a web page
 * posting across origins) and, for the admin API, a bearer token whenever the server listens
 * beyond loopback. See docs/decisions/admin-api-security.md.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * True for a loopback interface or name: 127.0.0.0/8, ::1, localhost.
 * @example isLoopback('127.0.0.1') // true; isLoopback('0.0.0.0') // false
 */
export function isLoopback(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/i.test(h);
}

/** The host name of a Host header value (`[::1]:8080` → `[::1]`, `Localhost:80` → `localhost`). */
function hostName(value: string): string {
  const v = value.toLowerCase();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    return end < 0 ? v : v.slice(0, end + 1);
  }
  const colon = v.indexOf(':');
  return colon < 0 ? v : v.slice(0, colon);
}

/**
 * A random admin token: 32 bytes, base64url.
 * @example const token = mintToken();
 */
export function mintToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface GuardOptions {
  /** The interface the server listens on. */
  bindHost: string;
  /** Host names accepted besides loopback ones (a name that resolves to this machine, a container name). */
  allowedHosts?: readonly string[];
  /** The admin API's bearer token; required on every admin request when set. */
  token?: string;
}

/** A refusal: the status and a message naming what to change. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * The checks of one listener, built once.
 * @example
 *   const guard = new RequestGuard({ bindHost: '127.0.0.1' });
 *   guard.checkRequest(req.headers.host, req.headers.origin); // null when allowed
 */
export class RequestGuard {
  readonly #loopbackOnly: boolean;
  readonly #allowed: ReadonlySet<string>;
  readonly #token: Buffer | undefined;
  /** The last Host header value accepted: clients send the same one on every request. */
  #lastHost = '';

  constructor(options: GuardOptions) {
    this.#loopbackOnly = isLoopback(options.bindHost);
    this.#allowed = new Set((options.allowedHosts ?? []).map((h) => hostName(h)));
    this.#token = options.token === undefined ? undefined : Buffer.from(options.token);
  }

  #hostAllowed(name: string): boolean {
    return isLoopback(name) || this.#allowed.has(name);
  }

  /**
   * Host and Origin for any request. On a loopback bind the Host must be a loopback name (or an
   * allowed one): a page on a rebound DNS name sends its own name. An Origin, when sent, must be
   * a loopback or allowed host, or the server's own Host.
   */
  checkRequest(host: string | undefined, origin: string | undefined): Refusal | null {
    if (host !== undefined && host !== this.#lastHost) {
      if (this.#loopbackOnly && !this.#hostAllowed(hostName(host))) {
        return { status: 403, message: `ghostwire: Host ${JSON.stringify(host)} is not a loopback name; add it to allowedHosts (--allowed-host) to accept it` };
      }
      this.#lastHost = host;
    }
    if (origin !== undefined) {
      let name: string;
      try {
        name = new URL(origin).host.toLowerCase();
      } catch {
        return { status: 403, message: `ghostwire: Origin ${JSON.stringify(origin)} is refused (cross-origin requests are not accepted)` };
      }
      const bare = hostName(name);
      if (!this.#hostAllowed(bare) && (host === undefined || name !== host.toLowerCase())) {
        return { status: 403, message: `ghostwire: Origin ${JSON.stringify(origin)} is refused (cross-origin requests are not accepted)` };
      }
    }
    return null;
  }

  /** The admin API's token check: `authorization: Bearer <token>` when a token is set. */
  checkAdmin(authorization: string | undefined): Refusal | null {
    if (!this.#token) return null;
    const given = authorization?.startsWith('Bearer ') ? Buffer.from(authorization.slice(7).trim()) : undefined;
    if (given && given.length === this.#token.length && timingSafeEqual(given, this.#token)) return null;
    return { status: 401, message: 'ghostwire admin: this server requires its admin token: send "authorization: Bearer <token>" (printed at start, or the one given with --token)' };
  }
}
