/**
 * The mock LLM server's listener checks, worded for its wire: the shared guard (src/net) decides on
 * Host, Origin and, for the admin API, the bearer token; this file says what to change.
 * See docs/decisions/admin-api-security.md.
 */
import { ListenerGuard } from '../net/index.ts';

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
  readonly #guard: ListenerGuard;

  constructor(options: GuardOptions) {
    this.#guard = new ListenerGuard(options);
  }

  /**
   * Host and Origin for any request. On a loopback bind the Host must be a loopback name (or an
   * allowed one): a page on a rebound DNS name sends its own name. An Origin, when sent, must be
   * a loopback or allowed host, or the server's own Host.
   */
  checkRequest(host: string | undefined, origin: string | undefined): Refusal | null {
    const refused = this.#guard.check({ host, origin });
    if (refused?.reason === 'host') {
      return { status: 403, message: `ghostwire: Host ${JSON.stringify(refused.host)} is not a loopback name; add it to allowedHosts (--allowed-host) to accept it` };
    }
    if (refused?.reason === 'origin') {
      return { status: 403, message: `ghostwire: Origin ${JSON.stringify(refused.origin)} is refused (cross-origin requests are not accepted)` };
    }
    return null;
  }

  /** The admin API's token check: `authorization: Bearer <token>` when a token is set. */
  checkAdmin(authorization: string | undefined): Refusal | null {
    if (this.#guard.tokenAllowed(authorization)) return null;
    return { status: 401, message: 'ghostwire admin: this server requires its admin token: send "authorization: Bearer <token>" (printed at start, or the one given with --token)' };
  }
}
