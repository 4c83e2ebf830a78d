/**
 * The golden fixture's real port: one ghostwire server per test worker, started on the first golden
 * fixture, whose sessions hand a child process's provider traffic to the test's own GoldenSession. The
 * child's requests are recorded and replayed exactly as the test's in-process ones are (one golden, one
 * recorder or replayer, the same reporter outcome), so `--record-goldens`, `-u` and the reporter need
 * nothing new. See docs/decisions/golden-port-per-worker.md.
 */
import type { GoldenSession } from '../goldens/session.ts';
import { toUpstreamRequest, upstreamTarget } from '../goldens/port-goldens.ts';
import { baseUrlEnv, ProviderUpstreams } from '../providers/index.ts';
import { answerThrough } from '../transports/golden-front.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { randomAlnum } from '../providers/common/ids.ts';
import { inProcessLayer } from './in-process.ts';

/** The worker's port: its server and the golden sessions its sessions belong to. */
export class GoldenPort {
  readonly #bound = new Map<string, GoldenSession>();
  readonly #routes = new ProviderUpstreams();
  #server: MockLLMServer | null = null;
  #starting: Promise<MockLLMServer> | null = null;

  /** Starts the server once. */
  start(): Promise<MockLLMServer> {
    this.#starting ??= startMockLLMServer({
      sessionIdleMs: 0,
      front: {
        take: (req, res, at) => {
          const session = this.#bound.get(at.session.id);
          if (!session) return false;
          answerThrough(req, res, at, (incoming) => {
            // The golden keeps the provider's own URL; recording forwards there (or to golden.upstream()).
            const target = upstreamTarget(this.#routes, incoming, {}, false);
            return session.serve(toUpstreamRequest(target, incoming));
          }, session.relativeFile);
          return true;
        },
      },
    }).then((server) => (this.#server = server));
    return this.#starting;
  }

  /**
   * A session of the worker's server for `session`'s golden, until `release`: its URL and the base-URL
   * variables the SDKs read.
   */
  bind(session: GoldenSession): { url: string; env: Record<string, string>; release: () => void } {
    const server = this.#server;
    if (!server) throw new Error('ghostwire: the golden port is not started');
    const id = `g${randomAlnum(12)}`;
    server.sessions.create({ id, empty: true });
    this.#bound.set(id, session);
    const url = server.sessionUrl(id);
    return {
      url,
      env: baseUrlEnv(url),
      release: () => {
        this.#bound.delete(id);
        server.sessions.delete(id);
      },
    };
  }
}

/**
 * The worker's golden port, started on first use.
 * @example const port = await goldenPort(); const { env, release } = port.bind(session);
 */
export async function goldenPort(): Promise<GoldenPort> {
  const cache = inProcessLayer().cache;
  let port = cache.get('golden-port') as GoldenPort | undefined;
  if (!port) {
    port = new GoldenPort();
    cache.set('golden-port', port);
  }
  await port.start();
  return port;
}
