/**
 * node:http ↔ Fetch: turns an IncomingMessage into a Request and writes a Response back with
 * backpressure. A body that errors (a simulated disconnect) destroys the socket, so the client
 * sees a network error just as with a real cut connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RawRequest, RawResponse } from './handle.ts';
import { NodeHeaders } from './node-headers.ts';
import { releaseOf } from '../providers/common/reusable-bytes.ts';

/** The default request body limit: far above any real prompt, far below what hurts the heap. */
export const DEFAULT_BODY_LIMIT = 32 * 2 ** 20;

/** 10^n for n digits, as far as doubles hold them exactly. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, n) => 10 ** n);

/**
 * A request body past the limit. Raised as soon as the declared length or the bytes read so far
 * pass it: the body is never buffered whole first.
 */
export class BodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`ghostwire: the request body is larger than the server's limit of ${limit} bytes (bodyLimit, --body-limit)`);
    this.name = 'BodyTooLargeError';
    this.limit = limit;
  }
}

/**
 * Reads a request body in full (up to `limit` bytes, else BodyTooLargeError) and calls `done` once,
 * from the request's own events: no promise per request, so the answer can be written in the same
 * turn as the body's end.
 * @example
 *   readBodyThen(req, DEFAULT_BODY_LIMIT, (err, body) => (err ? refuse(err) : answer(body!)));
 */
export function readBodyThen(req: IncomingMessage, limit: number, done: (err: Error | null, body: Buffer | null) => void): void {
  const declared = req.headers['content-length'];
  // A length of n digits is below 10^n: most are decided without a string-to-number conversion (a
  // runtime call per request), and 10^n comes from a table (`**` on a variable is a call to pow).
  // The bytes read are checked against the limit either way.
  if (declared !== undefined && !(declared.length < POWERS_OF_TEN.length && POWERS_OF_TEN[declared.length] <= limit) && Number(declared) > limit) {
    req.resume();
    done(new BodyTooLargeError(limit), null);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      // Stop keeping bytes; the rest drains unread while the 413 goes out.
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      settled = true;
      done(new BodyTooLargeError(limit), null);
      return;
    }
    chunks.push(chunk);
  };
  // `on`, not `once` (a wrapper per listener): `settled` already makes each call count once.
  req.on('data', onData);
  req.on('end', () => {
    if (settled) return;
    settled = true;
    done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
  req.on('error', (err) => {
    if (settled) return;
    settled = true;
    done(err, null);
  });
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => readBodyThen(req, limit, (err, body) => (err ? reject(err) : resolve(body!))));
}

/**
 * The Fetch Request for a node request; `signal` aborts when the client goes away.
 * @example
 *   const request = await toFetchRequest(req, 'http://127.0.0.1:8080', controller.signal);
 */
export async function toFetchRequest(req: IncomingMessage, origin: string, signal: AbortSignal, bodyLimit = DEFAULT_BODY_LIMIT): Promise<Request> {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, bodyLimit);
  // A Buffer is a Uint8Array; the cast only bridges @types/node's ArrayBufferLike generic.
  return new Request(origin + (req.url ?? '/'), { method, headers, body: body as Uint8Array<ArrayBuffer> | undefined, signal });
}

const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * A request target in origin form: the absolute form (`http://host:port/v1/x?y`, as a client behind
 * an HTTP proxy sends it; RFC 9112 §3.2.2 says a server must accept it) reduced to its path and
 * query; any other target as it is.
 * @example
 *   originForm('http://127.0.0.1:4010/v1/models?x=1') // '/v1/models?x=1'
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 0x2f) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.charCodeAt(0) === 0x2f ? rest : `/${rest}`;
}

function waitDrainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a Fetch Response to a node response, streaming the body with backpressure.
 * @example
 *   await writeFetchResponse(res, await handle(request));
 */
export async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  res.writeHead(response.status, headers);
  await pipeBody(res, response.body);
}

/**
 * A node request as the core's parts. A plain class with a fixed shape: per-instance accessors
 * (Object.defineProperties, getters in a literal) turned every request into a dictionary-mode
 * object, several µs a request downstream. The URL and the abort signal are built on first use,
 * from prototype getters: parsing the URL was as costly as parsing a small body, and on the real
 * port the router needs only its host, which is the server's own (`host`, known without a parse
 * when the target is a path). A copy by spread drops both getters, so the core and the adapters
 * copy a request with `requestWith` (src/providers/adapter.ts), which names them.
 */
class NodeRawRequest implements RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly bodyText: string;
  readonly host: string | undefined;
  readonly #res: ServerResponse;
  readonly #origin: string;
  readonly #target: string;
  #url: URL | undefined = undefined;
  #signal: AbortSignal | undefined = undefined;

  constructor(req: IncomingMessage, res: ServerResponse, origin: string, path: string, bodyText: string, originHost?: string) {
    this.method = req.method ?? 'GET';
    this.path = path;
    this.headers = new NodeHeaders(req.headers);
    this.bodyText = bodyText;
    const target = req.url ?? '/';
    // A path after `http://host:port` cannot change the URL's host; any other target (`*`, an
    // absolute form) is left to the URL itself.
    this.host = originHost !== undefined && target.charCodeAt(0) === 0x2f ? originHost : undefined;
    this.#res = res;
    this.#origin = origin;
    this.#target = target;
  }

  /** The URL, parsed on first read; a target that makes no URL (`OPTIONS *`) throws on every read. */
  get url(): URL {
    return (this.#url ??= new URL(this.#origin + this.#target));
  }

  get signal(): AbortSignal {
    return (this.#signal ??= abortOnClose(this.#res));
  }
}

/** Aborts when the client goes away before the response is complete. */
function abortOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.closed) {
    if (!res.writableFinished) controller.abort();
  } else {
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  }
  return controller.signal;
}

/**
 * The core's request parts for a node request whose body is already read (`readBodyThen`); its
 * `signal` aborts when the client goes away (`res` closes before finishing). `originHost` is
 * `new URL(origin).host`, worked out once by the caller: requests for a path then route without
 * parsing a URL.
 * @example
 *   readBodyThen(req, limit, (err, body) => { if (!err) answer(withBody(req, res, origin, path, body!.toString('utf8'))); });
 */
export function withBody(req: IncomingMessage, res: ServerResponse, origin: string, path: string, bodyText: string, originHost?: string): RawRequest {
  return new NodeRawRequest(req, res, origin, path, bodyText, originHost);
}

/**
 * The request's head without its body, for answering a request refused before its body is read.
 * @example
 *   await writeRawResponse(res, await mock.reject(headOnly(req, res, origin, path), { status: 413, message, headers: {} }));
 */
export function headOnly(req: IncomingMessage, res: ServerResponse, origin: string, path: string): RawRequest {
  return new NodeRawRequest(req, res, origin, path, '');
}

const NON_ASCII = /[^\x00-\x7f]/;

function asciiValues(headers: Record<string, string>): boolean {
  for (const name in headers) if (NON_ASCII.test(headers[name])) return false;
  return true;
}

/**
 * Writes the core's response: whole bodies in one write (with a length, except event streams,
 * which stay chunked as the real APIs send them), at once; paced streams with backpressure (the
 * promise then settles when the stream is done).
 * @example
 *   await writeRawResponse(res, await mock.handleRaw(raw));
 */
export function writeRawResponse(res: ServerResponse, response: RawResponse): void | Promise<void> {
  const { body, headers } = response;
  if (typeof body === 'string') {
    headers['content-length'] = String(Buffer.byteLength(body, 'utf8'));
    // Node sends a string body in one write with the head, the head encoded as UTF-8 too: fine for
    // ASCII heads; a head with latin1 bytes (an echoed header) goes out beside the body as bytes.
    res.writeHead(response.status, headers).end(asciiValues(headers) ? body : Buffer.from(body, 'utf8'));
    return;
  }
  if (body instanceof Uint8Array) {
    if (!headers['content-type']?.startsWith('text/event-stream')) headers['content-length'] = String(body.byteLength);
    // Lent bytes go back once the socket has written them ('finish'), for the next answer to reuse.
    const release = releaseOf(body);
    res.writeHead(response.status, headers).end(body, release && (() => res.writableFinished && release()));
    return;
  }
  res.writeHead(response.status, headers);
  return pipeBody(res, body);
}

const NOT_YET = Symbol('not yet');
const notYet = Promise.resolve(NOT_YET);

async function pipeBody(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.once('close', onClose);
  let flushed: Promise<void> = Promise.resolve();
  try {
    let read = reader.read();
    // A body with nothing to send yet (an MCP GET stream before its first event): the head goes out
    // now, as real servers send it, so the client's fetch resolves and sees the status. A body whose
    // first bytes are ready keeps its head in the same packet (a settled read wins the race).
    if ((await Promise.race([read, notYet])) === NOT_YET) res.flushHeaders();
    for (;;) {
      const { done, value } = await read;
      if (done) break;
      if (res.destroyed) return;
      flushed = new Promise((resolve) => res.write(value, () => resolve()));
      if (res.writableNeedDrain) await waitDrainOrClose(res);
      read = reader.read();
    }
    res.end();
  } catch {
    // The body errored (disconnectAfterChunks) or the client left: let the frames already
    // written reach the client, then cut the connection without ending the chunked body.
    await Promise.race([flushed, new Promise((r) => setTimeout(r, 1000).unref())]);
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}
