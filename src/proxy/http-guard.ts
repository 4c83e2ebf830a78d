/**
 * What the proxy's HTTP endpoint checks before anything reaches MCP: Host and Origin against DNS
 * rebinding (loopback names by default), a bearer token (required beyond loopback), and a body size
 * limit; plus the JSON-RPC error answers the MCP transport spec expects for each refusal.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** JSON-RPC error codes (JSON-RPC 2.0 §5.1). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** Implementation-defined server error: refusals that are not about the message itself. */
export const SERVER_ERROR = -32000;

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
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

/**
 * Whether an address to listen on is loopback-only.
 * @example
 *   isLoopback('127.0.0.1') // true; isLoopback('0.0.0.0') // false
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The hostname of a Host header value, lower-cased, without its port ('[::1]' keeps its brackets). */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
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
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;
  private readonly token?: Buffer;

  constructor(options: GuardOptions = {}) {
    this.hosts = new Set([...LOOPBACK_HOSTS, ...(options.allowedHosts ?? []).map((h) => h.toLowerCase())]);
    this.origins = new Set((options.allowedOrigins ?? []).map((o) => o.replace(/\/$/, '').toLowerCase()));
    this.token = options.token ? Buffer.from(options.token) : undefined;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  private originAllowed(origin: string): boolean {
    if (this.origins.has(origin.toLowerCase())) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.includes(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  }

  private tokenMatches(header: string | undefined): boolean {
    if (!this.token) return true;
    const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
    return given.length === this.token.length && timingSafeEqual(given, this.token);
  }

  /** Answers and returns false when the request is refused. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const host = req.headers.host;
    if (!host || !this.hosts.has(hostnameOf(host))) {
      sendJsonRpcError(res, 403, SERVER_ERROR, `forbidden: Host ${JSON.stringify(host ?? '')} is not allowed (allowed: ${[...this.hosts].join(', ')}; add names to http.allowed_hosts)`);
      return false;
    }
    const origin = req.headers.origin;
    // Non-browser clients send no Origin; a browser always does on a cross-origin POST.
    if (origin !== undefined && !this.originAllowed(origin)) {
      sendJsonRpcError(res, 403, SERVER_ERROR, `forbidden: Origin ${JSON.stringify(origin)} is not allowed (loopback origins are; add others to http.allowed_origins)`);
      return false;
    }
    if (!this.tokenMatches(req.headers.authorization)) {
      sendJsonRpcError(res, 401, SERVER_ERROR, 'unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
      return false;
    }
    return true;
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
