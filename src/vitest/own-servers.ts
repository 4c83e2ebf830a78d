/**
 * The origins of ghostwire's servers listening on a real port in this process (`startMockLLMServer`,
 * `startMockMCPServer`, the MCP proxy's `listen()`), as they announce themselves on the listener channel (src/net/listener-channel.ts).
 * The MSW bridge's front handler lets requests to them through untouched, so a user's MSW server with
 * `onUnhandledFrame: 'warn'` or `'error'` neither warns about nor fails ghostwire's own traffic.
 * See docs/decisions/listener-channel.md.
 */
import { isLoopback, type ListenerMessage } from '../net/index.ts';

/** The origins a client may use for a server announced at `origin`: on loopback, `localhost` too; on every interface, the loopback names. */
function reachableOrigins(origin: string): string[] {
  const { hostname, port } = new URL(origin);
  if (hostname === '0.0.0.0' || hostname === '[::]') return [origin, ...['127.0.0.1', 'localhost', '[::1]'].map((h) => `http://${h}:${port}`)];
  if (isLoopback(hostname) && hostname !== 'localhost') return [origin, `http://localhost:${port}`];
  return [origin];
}

/** Announced origins, counted: an origin is forgotten when every server announced at it has closed. */
export class OwnServers {
  private readonly counts = new Map<string, number>();

  /**
   * Applies one announcement: `listening` adds the server's origins, `close` removes them.
   * @example own.update({ event: 'listening', origin: 'http://127.0.0.1:4100' }); own.has(new Request('http://localhost:4100/v1')) // true
   */
  update({ event, origin }: ListenerMessage): void {
    for (const key of reachableOrigins(new URL(origin).origin)) {
      const left = (this.counts.get(key) ?? 0) + (event === 'listening' ? 1 : -1);
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    }
  }

  /** Is `request` addressed to one of them? */
  has(request: Request): boolean {
    return this.counts.size > 0 && this.counts.has(new URL(request.url).origin);
  }
}
