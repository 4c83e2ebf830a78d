/**
 * ghostwire's real-port servers say when they start and stop listening, on one `node:diagnostics_channel`
 * channel: a test layer that intercepts `fetch` (the Vitest layer's MSW) subscribes and lets their traffic
 * through, while the servers stay unaware of Vitest and MSW. Channels are process-wide by name, so every
 * module instance of ghostwire (source, dist, the plugin's and the test's copies) meets on the same one,
 * and a publish with no subscriber costs one check. See docs/decisions/listener-channel.md.
 */
import { channel } from 'node:diagnostics_channel';

/** The channel's name: stable, part of what subscribers rely on. */
export const LISTENER_CHANNEL = 'ghostwire:listener';

/** One message on the channel: a server of this process started (`listening`) or stopped (`close`) serving `origin`. */
export interface ListenerMessage {
  event: 'listening' | 'close';
  /** `http://host:port` as the server's `url` gives it. */
  origin: string;
}

/**
 * Publishes that a server of this process started or stopped listening at `origin` (no-op without subscribers).
 * @example announceListener('listening', server.url); ...; announceListener('close', server.url);
 */
export function announceListener(event: ListenerMessage['event'], url: string): void {
  const named = channel(LISTENER_CHANNEL);
  if (named.hasSubscribers) named.publish({ event, origin: new URL(url).origin } satisfies ListenerMessage);
}
