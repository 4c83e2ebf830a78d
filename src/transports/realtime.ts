/**
 * The transport seam for realtime WebSocket connections: whatever carries the frames (the real
 * port's `ws` server, MSW's `ws` handlers) hands a connection to `openRealtime` with a socket to
 * write to, and gets back what to call with each client frame and when the client leaves. Every
 * frame, both ways, and every turn the scenario engine answers go to the mock's journal.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeOpen } from '../providers/realtime-adapter.ts';
import { realtimeAdapterFor } from '../providers/realtime-registry.ts';
import type { JournalEntry, RealtimeFrame } from '../scenario/selection.ts';
import type { MockLLM } from './mock-llm.ts';

/** Where a session writes: one WebSocket. */
export interface RealtimeSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
}

/** What a transport calls for one open connection. */
export interface RealtimeConnection {
  /** The connection's id in journal entries (`frame.connection`). */
  readonly id: string;
  receive(data: string): void;
  closed(): void;
}

/** Frames past this size are refused with close code 1009 (message too big); audio chunks are far smaller. */
export const MAX_FRAME_BYTES = 16 * 2 ** 20;

/**
 * A close frame's reason cut to the 123 bytes RFC 6455 allows (a longer one makes `ws` throw).
 * @example closeReason('x'.repeat(200)).length // 123
 */
export function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= 123) return reason;
  let cut = reason.slice(0, 123);
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  return cut;
}

/**
 * Is there a realtime API at `path` (session prefix removed)?
 * @example isRealtimePath('/v1/realtime') // true
 */
export function isRealtimePath(path: string): boolean {
  return realtimeAdapterFor(path) !== undefined;
}

/**
 * Opens a realtime session of `mock` for a connection; undefined when no realtime API lives at `info.path`.
 * @example
 *   const conn = openRealtime(mock, { url, path: url.pathname, headers }, { send: (d) => ws.send(d), close: (c, r) => ws.close(c, r) });
 *   ws.on('message', (d) => conn?.receive(d.toString()));
 */
export function openRealtime(mock: MockLLM, info: RealtimeOpen, socket: RealtimeSocket): RealtimeConnection | undefined {
  const adapter = realtimeAdapterFor(info.path);
  if (!adapter) return undefined;
  const id = `ws_${randomUUID().replaceAll('-', '')}`;
  let ended = false;
  const entry = (fields: Partial<JournalEntry>, frame?: RealtimeFrame): JournalEntry => ({
    requestId: id,
    method: 'WS',
    path: info.path,
    provider: adapter.id,
    request: null,
    status: 101,
    step: null,
    nearMisses: [],
    startedAt: Date.now(),
    durationMs: 0,
    bodyLength: frame?.data.length ?? 0,
    ...(frame ? { frame } : {}),
    ...fields,
  });
  const session = adapter.open(info, {
    send(data) {
      if (ended) return;
      mock.journal(entry({}, { connection: id, direction: 'server', data }));
      socket.send(data);
    },
    close(code, reason) {
      if (ended) return;
      ended = true;
      socket.close(code, closeReason(reason));
    },
    select(request, ids) {
      const selection = mock.engine.select(request, ids);
      const status = selection.kind === 'respond' ? 200 : selection.error.status;
      mock.journal(entry({ request, status, step: selection.kind === 'no-match' ? null : selection.step, nearMisses: selection.kind === 'no-match' ? selection.nearMisses : [] }));
      return selection;
    },
  });
  return {
    id,
    receive(data) {
      if (ended) return;
      mock.journal(entry({}, { connection: id, direction: 'client', data }));
      try {
        session.receive(data);
      } catch (err) {
        // A bug of ours must not take the process down: the client sees an internal-error close.
        ended = true;
        session.closed();
        socket.close(1011, closeReason(`ghostwire: ${(err as Error).message}`));
      }
    },
    closed() {
      ended = true;
      session.closed();
    },
  };
}
