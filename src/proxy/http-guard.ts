/**
 * What the proxy's HTTP endpoint checks before anything reaches MCP: Host and Origin against DNS
 * rebinding (loopback names by default, checked on every bind), a bearer token (required beyond
 * loopback), and a body size limit; plus the JSON-RPC error answers the MCP transport spec expects
 * for each refusal. The Host/Origin/token decision is the shared listener guard's (src/net).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ListenerGuard } from '../net/index.ts';

/** JSON-RPC error codes (JSON-RPC 2.0 §5.1). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** Implementation-defined server error: refusals that are not about the message itself. */
export const SERVER_ERROR = -32000;

/** The loopback names a refusal lists (any loopback name is accepted). */
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface GuardOptions {
  /** Extra Host names (no port) accepted besides the loopback names. */
  allowedHosts?: readonly string[];
  /** Extra origins (`scheme://host[:port]`) accepted besides loopback ones. */
  allowedOrigins?: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  maxBodyBytes?: number;
}

export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Checks one request's Host, Origin and token.
 * @example
 *   const guard = new RequestGuard({ allowedHosts: ['proxy.lan'], token: process.env.GHOSTWIRE_PROXY_TOKEN });
 *   if (!guard.admit(req, res)) return; // answered 401/403 already
 */
export class RequestGuard {
  readonly maxBodyBytes: number;
  private readonly guard: ListenerGuard;
  private readonly hostList: string;

  constructor(options: GuardOptions = {}) {
    // The proxy checks Host on every bind: beyond loopback too, a rebound name must not reach tools.
    this.guard = new ListenerGuard({ bindHost: '127.0.0.1', hostCheck: 'always', allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins, token: options.token || undefined });
    this.hostList = [...new Set([...LOOPBACK_NAMES, ...(options.allowedHosts ?? []).map((h) => h.toLowerCase())])].join(', ');
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /** Answers and returns false when the request is refused. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const refused = this.guard.check(req.headers, { token: true });
    if (refused?.reason === 'host') {
      sendJsonRpcError(res, 403, SERVER_ERROR, `forbidden: Host ${JSON.stringify(refused.host)} is not allowed (allowed: ${this.hostList}; add names to http.allowed_hosts)`);
    } else if (refused?.reason === 'origin') {
      sendJsonRpcError(res, 403, SERVER_ERROR, `forbidden: Origin ${JSON.stringify(refused.origin)} is not allowed (loopback origins are; add others to http.allowed_origins)`);
    } else if (refused) {
      sendJsonRpcError(res, 401, SERVER_ERROR, 'unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
    }
    return !refused;
  }
}

/** Thrown by readBody: the body is over the limit (answered 413). */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * Reads a request body, refusing more than `maxBytes` (by Content-Length up front, or while streaming).
 * @example
 *   const text = await readBody(req, 4 * 1024 * 1024);
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(`request body of ${declared} bytes is over the limit of ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyTooLargeError(`request body is over the limit of ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
