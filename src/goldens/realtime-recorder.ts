/**
 * Records realtime WebSocket conversations (OpenAI Realtime, Gemini Live) for a golden: the client's
 * connection, intercepted in-process, is joined to the real provider (or the session's upstream base
 * URL) over the `ws` package, and every frame both ways is kept with its direction and its offset
 * from the connection's start, secrets redacted (the URL's key, an API key carried as subprotocol).
 */
import type { WebSocket } from 'ws';
import { requireLazily } from '../lazy/index.ts';
import { realtimeAdapterFor } from '../providers/realtime-registry.ts';
import type { MswRealtimeClient, RealtimeRoute } from '../transports/msw-realtime.ts';
import type { Redactor } from './redact.ts';
import type { RealtimeConversation } from './schema.ts';

// Loaded when a conversation is recorded (src/lazy).
const wsPackage = requireLazily<typeof import('ws')>('ws');

/**
 * The realtime API path inside `pathname`, wherever the client's base URL put it (`/s/ab/v1/realtime` → `/v1/realtime`).
 * @example realtimeSuffix('/proxy/v1/realtime') // '/v1/realtime'
 */
export function realtimeSuffix(pathname: string): string | undefined {
  for (let i = 0; i < pathname.length; i = pathname.indexOf('/', i + 1)) {
    if (i < 0) return undefined;
    const candidate = pathname.slice(i);
    if (realtimeAdapterFor(candidate)) return candidate;
  }
  return undefined;
}

/** A subprotocol as a golden keeps it: OpenAI's browser-style key (`openai-insecure-api-key.sk-…`) redacted. */
export function redactProtocol(protocol: string, redactor: Redactor): string {
  return redactor.text(protocol.replace(/^(openai-insecure-api-key\.).+$/, '$1[REDACTED]'));
}

/** Close codes an intercepted client may be closed with (MSW takes 1000 and 3000-4999). */
export function clientCloseCode(code: number): number {
  return code === 1000 || (code >= 3000 && code <= 4999) ? code : 4000 + (code % 1000);
}

export class RealtimeRecorder implements RealtimeRoute {
  readonly conversations: RealtimeConversation[] = [];
  readonly #redactor: Redactor;
  readonly #upstream: () => string | null;
  readonly #sockets = new Set<WebSocket>();

  constructor(redactor: Redactor, upstream: () => string | null) {
    this.#redactor = redactor;
    this.#upstream = upstream;
  }

  pathFor(url: URL): string | undefined {
    return realtimeSuffix(url.pathname);
  }

  connect(client: MswRealtimeClient, path: string, protocols: readonly string[], headers: Record<string, string> = {}): void {
    const started = performance.now();
    const original = new URL(client.url);
    const conversation: RealtimeConversation = {
      provider: realtimeAdapterFor(path)!.id,
      url: this.#redactor.url(original.toString()),
      protocols: protocols.map((p) => redactProtocol(p, this.#redactor)),
      frames: [],
    };
    this.conversations.push(conversation);
    const keep = (direction: 'client' | 'server', data: string) => conversation.frames.push({ direction, offsetMs: Math.round(performance.now() - started), data: this.#redactor.text(data) });
    const base = this.#upstream();
    const target = base ? `${new URL(base).origin.replace(/^http/, 'ws')}${new URL(base).pathname.replace(/\/$/, '')}${original.pathname}${original.search}` : original.toString();
    // `accept: msw/passthrough` lets this connection past MSW (it is the recording's own way out).
    // The client's own headers (its Authorization, a `ws`-package client's) go to the provider; none reach the golden.
    const upstream = new (wsPackage().WebSocket)(target, [...protocols], { headers: { ...headers, accept: 'msw/passthrough' }, perMessageDeflate: false });
    this.#sockets.add(upstream);
    const queued: string[] = [];
    upstream.on('open', () => {
      for (const data of queued.splice(0)) upstream.send(data);
    });
    upstream.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      keep('server', text);
      client.send(text);
    });
    // Who closed first decides what the golden keeps: a close the client began is the client's (its
    // replay ends when the client closes again), and the upstream's answer to it (often 1005 or 1006)
    // is no server close. Kept, it would make the replay close the socket after the last frame, before
    // the client has read the frames it was waiting for.
    let clientClosed = false;
    upstream.on('close', (code, reason) => {
      this.#sockets.delete(upstream);
      if (!clientClosed) conversation.close = { code, reason: reason.toString() };
      client.close(clientCloseCode(code), reason.toString());
    });
    upstream.on('error', () => upstream.terminate());
    client.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as unknown;
      const text = typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
      keep('client', text);
      if (upstream.readyState === upstream.OPEN) upstream.send(text);
      else queued.push(text);
    });
    client.addEventListener('close', () => {
      clientClosed = true;
      upstream.close();
    });
  }

  /** Ends connections still open (the test is over). */
  close(): void {
    for (const socket of this.#sockets) socket.terminate();
  }
}
