/**
 * HTTP/1.1 and HTTP/2 cleartext (prior knowledge) on one port. Some SDKs speak HTTP/2 to an
 * `http://` endpoint by default (the AWS SDK's `NodeHttp2Handler`): a plain socket server looks at
 * the first bytes of each connection and hands it to the HTTP/2 server when they open the HTTP/2
 * connection preface (`PRI * HTTP/2.0`), else to the HTTP/1.1 server. Both run the same handler,
 * HTTP/2 through Node's compatibility API (request and response shaped like node:http's).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest } from 'node:http2';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

/** How long a new connection may stay silent before its first bytes. */
const FIRST_BYTES_TIMEOUT_MS = 10_000;

/** An HTTP/2 request as node:http's handler reads it: a `host` header, no pseudo-headers. */
function asHttp1(req: Http2ServerRequest): IncomingMessage {
  // The compatibility API reads method and url from the pseudo-headers: pin them before those go.
  const { method, url, authority } = req;
  Object.defineProperties(req, { method: { value: method }, url: { value: url, writable: true } });
  const headers = req.headers as Record<string, string | string[] | undefined>;
  // :authority is the request's host in HTTP/2 (RFC 9113 §8.3.1): the Host/Origin guard checks it.
  if (authority) headers.host = authority;
  for (const name of Object.keys(headers)) if (name.startsWith(':')) delete headers[name];
  // The compatibility API mirrors IncomingMessage for everything a handler reads (method, url, headers, body events).
  return req as unknown as IncomingMessage;
}

/**
 * A socket server dispatching each connection to `http1` or to an HTTP/2 server running `handler`.
 * Every accepted socket is passed to `onSocket` (to close them all on shutdown).
 * @example
 *   const listener = dualProtocolServer(server, handler, (s) => sockets.add(s));
 *   listener.listen(0, '127.0.0.1');
 */
export function dualProtocolServer(http1: Server, handler: (req: IncomingMessage, res: ServerResponse) => void, onSocket: (socket: Socket) => void): NetServer {
  const http2 = createHttp2Server({}, (req, res) => handler(asHttp1(req), res as unknown as ServerResponse));
  // noDelay as node:http's own listener sets it: a server handed sockets by 'connection' never
  // applies it, and Nagle's algorithm on held back small answers behind the previous one's ACK.
  return createNetServer({ noDelay: true }, (socket) => {
    onSocket(socket);
    // Until a server owns the socket, its errors (a reset) and silence are this listener's to end.
    const early = () => socket.destroy();
    socket.on('error', early);
    socket.setTimeout(FIRST_BYTES_TIMEOUT_MS, early);
    socket.once('data', (chunk: Buffer) => {
      socket.off('error', early);
      socket.setTimeout(0, early);
      socket.pause();
      socket.unshift(chunk);
      (chunk.subarray(0, 3).toString('latin1') === 'PRI' ? http2 : http1).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
}
