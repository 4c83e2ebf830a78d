/**
 * The realtime seam: a WebSocket API (OpenAI Realtime, Gemini Live) as a session object per
 * connection. Transports (the real port's upgrade, MSW's `ws` handlers) hand each connection's text
 * frames to `receive` and give the session a `RealtimeLink` to answer through; the session turns
 * client events into canonical requests for the scenario engine and renders its answers as the
 * provider's server events. Nothing outside src/providers knows a provider's events.
 */
import type { CanonicalRequest } from '../scenario/canonical.ts';
import type { IdMinter, Selection } from '../scenario/selection.ts';
import type { ProviderId } from './registry.ts';

/** The connection as the client opened it. */
export interface RealtimeOpen {
  url: URL;
  /** `url.pathname` without a session prefix. */
  path: string;
  /** The upgrade request's headers, lower-cased names. */
  headers: Record<string, string>;
}

/** What a session answers through. */
export interface RealtimeLink {
  /** Sends one text frame to the client (journaled by the transport). */
  send(data: string): void;
  /** Closes the connection with a WebSocket close code. */
  close(code: number, reason: string): void;
  /** The scenario engine's answer to one turn (journaled by the transport). */
  select(request: CanonicalRequest, ids?: IdMinter): Selection;
}

/** One open connection. */
export interface RealtimeSession {
  /** One text frame from the client. */
  receive(data: string): void;
  /** The client went away: stop anything still being sent. */
  closed(): void;
}

/** A realtime wire API. */
export interface RealtimeAdapter {
  readonly id: ProviderId;
  /** The WebSocket URLs its SDKs connect to by default (MSW intercepts them), path included. */
  readonly urls: readonly string[];
  /** Does a connection to this path (session prefix removed) belong to this API? */
  claims(path: string): boolean;
  open(info: RealtimeOpen, link: RealtimeLink): RealtimeSession;
  /**
   * Optional: the server frames that tell this API's client a connection is being refused (a golden
   * replay the client diverged from), sent before the transport closes it, so the client's error
   * handler fires with `error.message`. Absent (or empty) for an API whose clients learn of errors
   * from the close reason alone (Gemini Live).
   */
  renderError?(error: RealtimeError): string[];
}

/** A connection-level error, as the API's error event would carry it. */
export interface RealtimeError {
  message: string;
  /** The API's error code, or null. */
  code: string | null;
  /** The `event_id` of the client event at fault, when it had one. */
  clientEventId: string | null;
}

/**
 * Waits `ms` (a paced answer), or not at all for 0.
 * @example await pause(stream.chunkDelayMs)
 */
export function pause(ms: number): Promise<void> | undefined {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}
