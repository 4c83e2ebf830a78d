/**
 * Realtime WebSockets on the real port: the HTTP server's `upgrade` requests to a realtime API's
 * path (`/v1/realtime`, Gemini Live's `/ws/…BidiGenerateContent`, each also under `/s/{id}`) become
 * sessions of the addressed session's mock. The `ws` package does the handshake and framing. Host
 * and Origin are checked as for HTTP; anything else is refused with a plain HTTP answer before any
 * upgrade, so a browser page on a foreign origin never gets a socket.
 */
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { lazily, requireLazily } from '../lazy/index.ts';
import type { RequestGuard } from './request-guard.ts';
import { isRealtimePath, openRealtime, MAX_FRAME_BYTES } from './realtime.ts';
import { SessionRegistry } from './sessions.ts';

const wsPackage = requireLazily<typeof import('ws')>('ws');

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error', code: null, param: null } });
  const reason = status === 403 ? 'Forbidden' : status === 400 ? 'Bad Request' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/**
 * The `upgrade` listener of a server: realtime sessions for `sessions`, guarded by `guard`.
 * @example server.on('upgrade', realtimeUpgrade(sessions, guard, () => origin));
 */
export function realtimeUpgrade(sessions: SessionRegistry, guard: RequestGuard, origin: () => string): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  // No compression (the SDKs turn it off too), frames bounded in bytes.
  // Made (and ws loaded, src/lazy) at the first upgrade: most servers never see one.
  const wss = lazily(() => new (wsPackage().WebSocketServer)({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false }));
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    try {
      const refused = guard.checkRequest(req.headers.host, req.headers.origin);
      if (refused) return refuse(socket, refused.status, refused.message);
      if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return refuse(socket, 400, `ghostwire: cannot upgrade to ${JSON.stringify(req.headers.upgrade)}; only websocket`);
      // Joined, not resolved: the genai SDK's path starts with '//', which URL() would read as a host.
      const url = new URL(origin() + (req.url ?? '/'));
      const { id, path } = SessionRegistry.route(url.pathname);
      const session = sessions.get(id);
      if (!session) return refuse(socket, 404, `ghostwire: no session ${JSON.stringify(id)}`);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const info = { url, path, headers };
      // Checked before the handshake: a path no realtime API lives at is a 404, not an open socket.
      if (!isRealtimePath(path)) return refuse(socket, 404, `ghostwire: no realtime API at ${path} (OpenAI: /v1/realtime; Gemini Live: /ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent)`);
      wss().handleUpgrade(req, socket, head, (ws: WebSocket) => {
        const conn = openRealtime(session.mock, info, {
          send: (data) => ws.send(data),
          close: (code, reason) => ws.close(code, reason),
        })!;
        ws.on('message', (data, isBinary) => conn.receive(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString()));
        ws.on('close', () => conn.closed());
        ws.on('error', () => ws.terminate());
      });
    } catch (err) {
      refuse(socket, 400, `ghostwire: ${(err as Error).message}`);
    }
  };
}

/**
 * A `createConnection` for `ws` clients that always dial `wss://` (the openai SDK's OpenAIRealtimeWS
 * builds its URL from the base URL with `wss:`): plain TCP to the given port instead of TLS.
 * @example new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { createConnection: plainSocket(server.port) } }, client)
 */
export function plainSocket(port: number, host = '127.0.0.1'): () => Socket {
  return () => connect({ port, host });
}
