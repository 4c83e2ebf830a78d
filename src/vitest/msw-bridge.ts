/**
 * The MSW side of the in-process layer, loaded only once something needs interception (a mock, a golden,
 * a request through the sealed `fetch`, or an MSW the user already loaded): ghostwire's two handlers placed
 * in whichever MSW server listens, and ghostwire's own server when none does.
 * See docs/decisions/one-msw-server-per-worker.md.
 *
 * - `front` (first): answers what the calling test's golden or mocks claim, and lets requests to the ports
 *   of servers ghostwire itself started pass through (no `onUnhandledRequest` warning for ghostwire's own
 *   traffic); matches nothing else, so the user's handlers, `server.use()` overrides and
 *   `onUnhandledRequest` keep working.
 * - `seal` (last): a request to a provider host (or any non-loopback request during a golden replay)
 *   that no handler answered fails its test, naming the request and how to mock it; it never leaves.
 */
import { http, passthrough, ws, type HttpHandler, type WebSocketHandler } from 'msw';
import { HttpNetworkFrame, WebSocketNetworkFrame } from 'msw/experimental';
import { realtimeHandler } from '../transports/msw-realtime.ts';
import { realtimeUpgrade } from '../transports/msw.ts';
import { enableWsClientBridge } from '../transports/ws-client-bridge.ts';
import { defaultNetworkOptions, setupServer, type SetupServer } from 'msw/node';
import type { InProcessLayer } from './in-process.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const PATCHED = Symbol.for('ghostwire.mswPatched');
const BRIDGE = Symbol.for('ghostwire.mswBridge');

/** ghostwire's handlers and own server for one worker's layer. */
export class MswBridge {
  readonly front: HttpHandler;
  readonly seal: HttpHandler;
  /** The same two for WebSocket connections (realtime APIs): a test's mock first, a sealed host refused last. */
  readonly wsFront: WebSocketHandler;
  readonly wsSeal: WebSocketHandler;
  private own: SetupServer | null = null;
  private readonly layer: InProcessLayer;

  constructor(layer: InProcessLayer) {
    this.layer = layer;
    this.front = http.all(
      ({ request }) => layer.isOwnServer(request) || layer.routeFor(request) !== undefined,
      ({ request }) => {
        if (layer.isOwnServer(request)) return passthrough();
        const route = layer.routeFor(request);
        if (!route) throw new Error(`ghostwire: the mock for ${request.method} ${request.url} is gone (its test has finished)`);
        // A `ws`-package client's realtime upgrade: the test's golden or mock takes the connection over.
        const realtime = layer.realtimeRouteFor(new URL(request.url));
        const upgraded = realtimeUpgrade(request, realtime?.route);
        if (upgraded) return upgraded;
        return route.handle(request);
      },
    );
    this.seal = http.all(
      ({ request }) => !LOOPBACK.has(new URL(request.url).hostname) && layer.isSealed(request),
      ({ request }) => {
        const message = layer.refuse(request);
        // A 4xx the SDKs do not retry, in the providers' error shape, naming what to do.
        return Response.json({ error: { message, type: 'invalid_request_error', param: null, code: 'ghostwire_unhandled' } }, { status: 404, headers: { 'x-should-retry': 'false' } });
      },
    );
    this.wsFront = realtimeHandler((url) => layer.realtimeRouteFor(url));
    enableWsClientBridge();
    const sealedSocket = (url: URL | string) => {
      const http = new URL(String(url).replace(/^ws/, 'http'));
      return !LOOPBACK.has(http.hostname) && layer.isSealed(new Request(http));
    };
    this.wsSeal = ws.link(/^wss?:\/\//).addEventListener('connection', ({ client }) => {
      const message = layer.refuse(new Request(String(client.url).replace(/^ws/, 'http')));
      // An application close code (MSW's client takes 1000 and 3000-4999): 4004, nothing answers here.
      client.close(4004, message.slice(0, 120));
    });
    // Only connections to sealed hosts: the rest stay the user's handlers' (or `onUnhandledFrame`'s).
    (this.wsSeal as unknown as { predicate: (args: { url: URL | string }) => boolean }).predicate = ({ url }) => !this.wsFrontClaims(url) && sealedSocket(url);
  }

  private wsFrontClaims(url: URL | string): boolean {
    return this.layer.realtimeRouteFor(new URL(String(url))) !== undefined;
  }

  /**
   * Makes sure interception is on: when no MSW server listens (none yet, or the user's closed one),
   * ghostwire's own listens. A user's server that starts later takes over, with ghostwire's handlers in it.
   */
  ensureIntercepting(): void {
    patchMsw();
    if (listening()) return;
    this.own ??= setupServer();
    if (this.own.readyState !== 0) this.own.close();
    this.own.listen({ onUnhandledFrame: 'bypass' });
  }

  /** ghostwire's own MSW server (created on first call), for suites that have none of their own. */
  ownServer(): SetupServer {
    this.ensureIntercepting();
    return (this.own ??= setupServer());
  }

  /** Runs a test in ghostwire's own server's boundary (so `ownServer().use()` stays in that test), if it has one. */
  boundary(run: () => Promise<void> | void): () => Promise<void> | void {
    return this.own ? this.own.boundary(run) : run;
  }
}

/**
 * The bridge of `layer`, created once per process.
 * @example createBridge(layer).ensureIntercepting()
 */
export function createBridge(layer: InProcessLayer): MswBridge {
  const holder = layer as unknown as Record<symbol, MswBridge | undefined>;
  return (holder[BRIDGE] ??= new MswBridge(layer));
}

type Source = { enable: (...args: unknown[]) => unknown; disable: (...args: unknown[]) => unknown; emitter?: { listenerCount(type: string): number } };

/** Is some MSW server (the user's or ghostwire's) listening in this process? */
function listening(): boolean {
  const source = defaultNetworkOptions.sources[0] as unknown as Source;
  return (source.emitter?.listenerCount('frame') ?? 0) > 0;
}

/** The bridge of the process's layer, if any (MSW's patched frames ask on every request). */
function currentBridge(): MswBridge | undefined {
  const layer = (globalThis as unknown as Record<symbol, object | undefined>)[Symbol.for('ghostwire.inProcess')];
  return layer ? (layer as Record<symbol, MswBridge | undefined>)[BRIDGE] : undefined;
}

/**
 * Two adjustments to MSW 3 (measured on msw 3.0.5), applied once per process:
 * - every HTTP frame, whichever server resolves it, gets ghostwire's `front` first and `seal` last
 *   (every WebSocket frame the same with `wsFront` and `wsSeal`);
 * - the interceptor source all `setupServer()`s share is enabled once: a second `listen()` while another
 *   server listens otherwise subscribes the source twice, and every request is handled twice (the
 *   second run reading a body already read: "Body is unusable"). Before it enables, the layer's sealed
 *   `fetch` steps aside, so MSW wraps the platform's `fetch`, not ghostwire's.
 */
function patchMsw(): void {
  const proto = HttpNetworkFrame.prototype as unknown as Record<symbol, boolean> & { getHandlers: (this: unknown, controller: unknown) => unknown[] };
  if (!proto[PATCHED]) {
    const original = proto.getHandlers;
    proto.getHandlers = function getHandlers(this: unknown, controller: unknown) {
      const handlers = original.call(this, controller);
      const bridge = currentBridge();
      return bridge ? [bridge.front, ...handlers, bridge.seal] : handlers;
    };
    proto[PATCHED] = true;
  }
  const wsProto = WebSocketNetworkFrame.prototype as unknown as Record<symbol, boolean> & { getHandlers: (this: unknown, controller: unknown) => unknown[] };
  if (!wsProto[PATCHED]) {
    const original = wsProto.getHandlers;
    wsProto.getHandlers = function getHandlers(this: unknown, controller: unknown) {
      const handlers = original.call(this, controller);
      const bridge = currentBridge();
      return bridge ? [bridge.wsFront, ...handlers, bridge.wsSeal] : handlers;
    };
    wsProto[PATCHED] = true;
  }
  const source = defaultNetworkOptions.sources[0] as unknown as Source & Record<symbol, boolean>;
  if (!source[PATCHED]) {
    const enable = source.enable;
    const disable = source.disable;
    let enabled = false;
    source.enable = function (this: unknown, ...args: unknown[]) {
      if (enabled) return undefined;
      enabled = true;
      const layer = (globalThis as unknown as Record<symbol, InProcessLayer | undefined>)[Symbol.for('ghostwire.inProcess')];
      layer?.unsealFetch();
      return enable.apply(this, args);
    };
    source.disable = function (this: unknown, ...args: unknown[]) {
      enabled = false;
      return disable.apply(this, args);
    };
    source[PATCHED] = true;
  }
}
