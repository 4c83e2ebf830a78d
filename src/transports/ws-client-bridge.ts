/**
 * Carries realtime connections of clients on the `ws` package (the openai SDK's OpenAIRealtimeWS,
 * @google/genai on Node) in-process, where MSW 3 stops at the handshake: their upgrade reaches an
 * MSW handler as an HTTP request, which `answerUpgrade` answers with a 101 while noting the
 * connection; Node's `http.client.request.start` diagnostics channel hands over the client's
 * `ClientRequest`, whose `upgrade` event hands over its socket. From then on the socket's writes (the
 * client's frames) go to a server-side `ws` WebSocket, and that WebSocket's frames are pushed into
 * the socket for the client to read. docs/decisions/realtime-transports.md has the why.
 */
import { createHash } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { requireLazily } from '../lazy/index.ts';
import type { MswRealtimeClient, RealtimeRoute } from './msw-realtime.ts';
import { MAX_FRAME_BYTES } from './realtime.ts';

// Loaded at the first realtime connection (src/lazy).
const wsPackage = requireLazily<typeof import('ws')>('ws');

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const KEY = Symbol.for('ghostwire.wsClientBridge');

interface Pending {
  route: RealtimeRoute;
  path: string;
  url: string;
  protocols: string[];
  headers: Record<string, string>;
}

/** The handshake's own headers: the connection's, not the client's to pass on. */
const HANDSHAKE = new Set(['host', 'connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol']);

/** The process's bridge: connections answered with a 101 and not yet taken over, by Sec-WebSocket-Key. */
class WsClientBridge {
  readonly pending = new Map<string, Pending>();

  constructor() {
    subscribe('http.client.request.start', (message) => {
      const request = (message as { request: ClientRequest }).request;
      const key = request.getHeader('sec-websocket-key');
      if (typeof key !== 'string') return;
      // Before the client's own listener: the socket must be ours before the client writes its first frame.
      request.prependListener('upgrade', (_res, socket: Socket, head: Buffer) => {
        const pending = this.pending.get(key);
        if (!pending) return;
        this.pending.delete(key);
        takeOver(socket, head, pending);
      });
    });
  }
}

/**
 * The process's bridge, subscribed to node:http's diagnostics channel on first call. Called when a
 * realtime route is made, before any client opens: the channel only reports requests started later.
 * @example enableWsClientBridge();
 */
export function enableWsClientBridge(): WsClientBridge {
  const holder = globalThis as unknown as Record<symbol, WsClientBridge | undefined>;
  return (holder[KEY] ??= new WsClientBridge());
}

/** Joins the client's socket to a server-side WebSocket and hands that to the route. */
function takeOver(socket: Socket, head: Buffer, pending: Pending): void {
  const server = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      if (!socket.destroyed) socket.push(chunk);
      done();
    },
    final(done) {
      if (!socket.destroyed) socket.push(null);
      done();
    },
  });
  // The client's writes (its frames, its close) go to the server side, never to the interceptor.
  socket.write = ((chunk: Buffer | string, encoding?: BufferEncoding | ((err?: Error) => void), done?: (err?: Error) => void) => {
    server.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk);
    const callback = typeof encoding === 'function' ? encoding : done;
    callback?.();
    return true;
  }) as Socket['write'];
  socket.once('close', () => server.destroy());
  // The server side of a connection, as ws's own WebSocketServer makes one (address null, then setSocket).
  const ws = new (wsPackage().WebSocket as unknown as new (address: null, protocols: undefined, options: object) => WebSocket)(null, undefined, {});
  (ws as unknown as { setSocket(socket: Duplex, head: Buffer, options: object): void }).setSocket(server, head, { maxPayload: MAX_FRAME_BYTES, allowSynchronousEvents: true });
  const client: MswRealtimeClient = {
    url: new URL(pending.url),
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    addEventListener: ((type: 'message' | 'close', listener: (event: MessageEvent) => void) => {
      if (type === 'message') ws.on('message', (data, isBinary) => listener({ data: isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString() } as MessageEvent));
      else ws.on('close', () => (listener as () => void)());
    }) as MswRealtimeClient['addEventListener'],
  };
  pending.route.connect(client, pending.path, pending.protocols, pending.headers);
}

/**
 * Answers a `ws`-package client's upgrade to a realtime path with a 101 and takes the connection
 * over for `route` once the client has it.
 * @example return answerUpgrade(request, route, '/v1/realtime');
 */
export function answerUpgrade(request: Request, route: RealtimeRoute, path: string): Response {
  const key = request.headers.get('sec-websocket-key') ?? '';
  const protocols = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  const passed: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (!HANDSHAKE.has(name)) passed[name] = value;
  });
  const pending = enableWsClientBridge().pending;
  pending.set(key, { route, path, url: request.url.replace(/^http/, 'ws'), protocols, headers: passed });
  // A client that never completes its handshake leaves nothing behind.
  setTimeout(() => pending.delete(key), 30_000).unref();
  const headers = new Headers({ upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-accept': createHash('sha1').update(key + WEBSOCKET_GUID).digest('base64') });
  if (protocols.length > 0) headers.set('sec-websocket-protocol', protocols[0]);
  // Fetch's Response refuses 101; MSW reads the status as a property (and answers upgrades with 101 itself).
  const response = new Response(null, { status: 200, headers });
  Object.defineProperty(response, 'status', { value: 101 });
  return response;
}

/**
 * Is this request a WebSocket upgrade from a client the bridge can carry (one made through node:http)?
 * @example if (isWsPackageUpgrade(request)) return answerUpgrade(request, route, path);
 */
export function isWsPackageUpgrade(request: Request): boolean {
  return request.headers.get('upgrade')?.toLowerCase() === 'websocket' && request.headers.has('sec-websocket-key');
}
