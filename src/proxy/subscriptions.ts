/**
 * resources/subscribe through the proxy: one downstream subscription per URI however many proxy
 * sessions asked for it, `notifications/resources/updated` fanned out to exactly the sessions that
 * subscribed, and everything a session held released when it closes. Bounded in bytes, per session
 * and overall, so no client can grow the proxy's memory without limit.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type ResourceUpdatedNotification } from '@modelcontextprotocol/sdk/types.js';

/** One proxy session that can be told a resource changed. */
export interface Subscriber {
  notify(params: ResourceUpdatedNotification['params']): void;
}

export interface SubscriptionLimits {
  /** Longest URI accepted, in UTF-8 bytes. */
  maxUriBytes: number;
  /** URI bytes one session may hold subscribed. */
  maxSessionBytes: number;
  /** URI bytes all sessions together may hold subscribed. */
  maxTotalBytes: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { maxUriBytes: 8 * 1024, maxSessionBytes: 1024 * 1024, maxTotalBytes: 16 * 1024 * 1024 };

interface Entry {
  server: string;
  sessions: Set<Subscriber>;
  /** The downstream subscribe in flight (or done); a failure removes the entry. */
  ready: Promise<void>;
}

/**
 * Who subscribed to which URI, and the downstream subscriptions that serve them.
 * @example
 *   const subs = new Subscriptions();
 *   await subs.subscribe(session, 'file:///a.txt', 'fs', client);
 *   subs.updated('fs', { uri: 'file:///a.txt' }); // session.notify(...)
 */
export class Subscriptions {
  private readonly limits: SubscriptionLimits;
  private readonly byUri = new Map<string, Entry>();
  private readonly bySession = new Map<Subscriber, { uris: Set<string>; bytes: number }>();
  private totalBytes = 0;

  constructor(limits: Partial<SubscriptionLimits> = {}) {
    this.limits = { ...DEFAULT_SUBSCRIPTION_LIMITS, ...limits };
  }

  /** Checks a URI before any routing: the error names it and the limit. */
  checkUri(uri: string): number {
    const bytes = Buffer.byteLength(uri);
    if (bytes > this.limits.maxUriBytes) {
      throw new McpError(ErrorCode.InvalidParams, `resource URI too long to subscribe (${bytes} bytes, at most ${this.limits.maxUriBytes}): ${uri.slice(0, 200)}...`, { uri: uri.slice(0, 200) });
    }
    return bytes;
  }

  /** Adds `session` to `uri`'s subscribers, subscribing downstream when it is the first. */
  async subscribe(session: Subscriber, uri: string, server: string, client: Client): Promise<void> {
    const bytes = this.checkUri(uri);
    const held = this.bySession.get(session) ?? { uris: new Set<string>(), bytes: 0 };
    if (held.uris.has(uri)) return this.byUri.get(uri)?.ready;
    if (held.bytes + bytes > this.limits.maxSessionBytes) {
      throw new McpError(ErrorCode.InvalidParams, `too many subscriptions in this session (${held.uris.size} URIs, ${held.bytes} bytes; at most ${this.limits.maxSessionBytes} bytes): unsubscribe some before subscribing to ${uri}`, { uri });
    }
    if (this.totalBytes + bytes > this.limits.maxTotalBytes) {
      throw new McpError(ErrorCode.InvalidParams, `the proxy holds its maximum of subscriptions (${this.totalBytes} bytes of URIs): cannot subscribe to ${uri}`, { uri });
    }
    let entry = this.byUri.get(uri);
    if (!entry) {
      const created: Entry = { server, sessions: new Set(), ready: client.subscribeResource({ uri }).then(() => undefined) };
      entry = created;
      this.byUri.set(uri, created);
      created.ready.catch(() => {
        // The server refused: forget the URI so a later subscribe asks it again.
        if (this.byUri.get(uri) === created) this.byUri.delete(uri);
        for (const s of created.sessions) this.release(s, uri);
      });
    }
    entry.sessions.add(session);
    held.uris.add(uri);
    held.bytes += bytes;
    this.totalBytes += bytes;
    this.bySession.set(session, held);
    await entry.ready;
  }

  /** Removes `session` from `uri`'s subscribers; returns the downstream to unsubscribe when it was the last. */
  unsubscribe(session: Subscriber, uri: string): { server: string; uri: string } | undefined {
    const entry = this.byUri.get(uri);
    if (!this.release(session, uri) || !entry) return undefined;
    entry.sessions.delete(session);
    if (entry.sessions.size > 0) return undefined;
    this.byUri.delete(uri);
    return { server: entry.server, uri };
  }

  /** Everything a closed session held; returns the downstream subscriptions nobody needs any more. */
  drop(session: Subscriber): Array<{ server: string; uri: string }> {
    const held = this.bySession.get(session);
    if (!held) return [];
    return [...held.uris].flatMap((uri) => this.unsubscribe(session, uri) ?? []);
  }

  /** A downstream server said `params.uri` changed: tell the sessions that subscribed to it there. */
  updated(server: string, params: ResourceUpdatedNotification['params']): void {
    const entry = this.byUri.get(params.uri);
    if (!entry || entry.server !== server) return;
    for (const session of entry.sessions) session.notify(params);
  }

  /** URIs held on `server` (to subscribe again after it reconnects). */
  urisOf(server: string): string[] {
    return [...this.byUri].filter(([, e]) => e.server === server && e.sessions.size > 0).map(([uri]) => uri);
  }

  /** How many sessions are subscribed to `uri` (0 when none). */
  subscribers(uri: string): number {
    return this.byUri.get(uri)?.sessions.size ?? 0;
  }

  private release(session: Subscriber, uri: string): boolean {
    const held = this.bySession.get(session);
    if (!held?.uris.delete(uri)) return false;
    const bytes = Buffer.byteLength(uri);
    held.bytes -= bytes;
    this.totalBytes -= bytes;
    if (held.uris.size === 0) this.bySession.delete(session);
    return true;
  }
}
