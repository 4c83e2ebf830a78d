/**
 * Which adapter answers a request, looking at all of it: the host first (a request to an API's own
 * host is that API's, its unknown paths included), then method and path, and where two adapters
 * serve the same path on a shared host (the real port, a gateway), the client's own headers. On a
 * shared host a path may also name its provider first: `/mistral/v1/chat/completions`.
 */
import type { ProviderAdapter, RouteRequest } from './adapter.ts';
import { requestWith } from './adapter.ts';
import { hostPattern, type HostMatcher } from './common/host-pattern.ts';
import { AnswerTemplates } from './common/answer-templates.ts';
import { RandomBytes } from './common/ids.ts';

/**
 * The routing decision: the adapter serving the request, or the one whose 404 it gets. `path` is
 * set when the adapter sees a shorter path than the request's (a `/{provider}` prefix was removed).
 */
export type RouteResult = { adapter: ProviderAdapter; served: true; path?: string } | { adapter: ProviderAdapter | null; served: false };

/**
 * Routes requests over a list of adapters (registry order breaks remaining ties).
 * @example
 *   const router = new ProviderRouter(defaultAdapters());
 *   router.route({ method: 'POST', url, path: '/v1/messages', headers }).adapter?.id // 'anthropic'
 */
export class ProviderRouter {
  readonly #adapters: readonly ProviderAdapter[];
  readonly #hosts: ReadonlyArray<readonly HostMatcher[]>;
  readonly #byId = new Map<string, ProviderAdapter[]>();
  readonly #served = new Map<string, readonly ProviderAdapter[]>();
  /** Last host seen and its candidates: a server sees one host over and over. */
  #lastHost = '';
  #lastCandidates: readonly ProviderAdapter[] = [];
  /** The last route's host, method and path, the adapters serving it and its `/{provider}` reading. */
  #lastRouteHost = '';
  #lastMethod = '';
  #lastPath = '';
  #lastServing: readonly ProviderAdapter[] = [];
  #lastPrefixed: RouteResult | null | undefined = undefined;

  /**
   * The random pool the ids of these adapters' answers are drawn from (response and tool call ids).
   * Random bytes carry no mock's state, so the mocks sharing a router (a server's sessions) share
   * one pool: one refill serves them all, and it stays in the CPU's cache with 100 sessions in use.
   */
  readonly random = new RandomBytes();

  /** Per-answer templates of these adapters' answers, shared like the random pool (common/answer-templates.ts). */
  readonly templates = new AnswerTemplates();

  constructor(adapters: readonly ProviderAdapter[]) {
    this.#adapters = adapters;
    this.#hosts = adapters.map((a) => a.hosts.map(hostPattern));
    for (const a of adapters) this.#byId.set(a.id, [...(this.#byId.get(a.id) ?? []), a]);
  }

  /** The adapters whose hosts match, or every adapter when none claims the host. */
  #candidates(host: string): { candidates: readonly ProviderAdapter[]; owned: boolean } {
    if (host === this.#lastHost) return { candidates: this.#lastCandidates, owned: this.#lastCandidates !== this.#adapters };
    const owners = this.#adapters.filter((_, i) => this.#hosts[i].some((h) => h.match(host) !== null));
    const candidates = owners.length > 0 ? owners : this.#adapters;
    this.#lastHost = host;
    this.#lastCandidates = candidates;
    return { candidates, owned: owners.length > 0 };
  }

  /**
   * A request under an explicit provider prefix (`/mistral/v1/chat/completions`, `/ollama/api/chat`):
   * that provider's adapters, on the path after the prefix. Null when the first segment names no provider.
   */
  #prefixed(req: RouteRequest): RouteResult | null {
    const slash = req.path.indexOf('/', 1);
    if (slash < 0) return null;
    const id = req.path.slice(1, slash);
    const named = this.#byId.get(id);
    if (named === undefined) return null;
    const path = req.path.slice(slash);
    const inner = requestWith(req, { path });
    const adapter = named.find((a) => a.routes(inner));
    return adapter ? { adapter, served: true, path } : { adapter: named[0], served: false };
  }

  /**
   * The adapter for a request; for an unknown route, the adapter whose error shape the 404 takes: the
   * host's API, else the API the client's headers name, else the first registered (null: no adapters).
   */
  route(req: RouteRequest): RouteResult {
    const host = req.host ?? req.url.host;
    const { candidates, owned } = this.#candidates(host);
    const serving = this.#serving(candidates, req, host);
    if (!owned) {
      // Read only off a host no API owns (once per route: it depends on the method and path alone).
      let prefixed = this.#lastPrefixed;
      if (prefixed === undefined) prefixed = this.#lastPrefixed = this.#prefixed(req);
      // An API whose own paths look like a prefix (Azure's `/openai/v1/...`) keeps them when its client says so.
      if (prefixed) {
        const own = serving.find((a) => a.recognizes?.(req) === true);
        if (own) return { adapter: own, served: true };
        // The prefix's provider answers (or gives its 404) unless another API serves the whole path
        // (`/openai/deployments/...` is Azure's own).
        if (prefixed.served) return prefixed;
        if (serving.length === 0) {
          // Nobody serves it: the 404 takes the shape of the API the client's headers name, else the prefix's.
          const named = candidates.find((a) => a.recognizes?.(req) === true);
          return named ? { adapter: named, served: false } : prefixed;
        }
      }
    }
    if (serving.length === 1) return { adapter: serving[0], served: true };
    if (serving.length > 1) {
      // Two adapters serve this path: the client's fingerprint decides, registry order otherwise.
      return { adapter: serving.find((a) => a.recognizes?.(req) === true) ?? serving[0], served: true };
    }
    if (owned) return { adapter: candidates[0], served: false };
    return { adapter: candidates.find((a) => a.recognizes?.(req) === true) ?? candidates[0] ?? null, served: false };
  }

  /**
   * The candidates serving a method and path, remembered per host, method and path (`routes` looks
   * at those only; client headers are `recognizes'`), so the hot path asks each adapter once; the
   * `/{provider}` prefix reading of the same path is remembered beside it once read (#lastPrefixed). A
   * server sees the same few routes over and over: the last one is compared before any key is built.
   */
  #serving(candidates: readonly ProviderAdapter[], req: RouteRequest, host: string): readonly ProviderAdapter[] {
    const { method, path } = req;
    if (path === this.#lastPath && method === this.#lastMethod && host === this.#lastRouteHost) return this.#lastServing;
    this.#lastPrefixed = undefined;
    // Long paths are not remembered: the memory stays bounded in bytes (1,024 keys of a few hundred).
    if (path.length > 200) {
      this.#lastPath = '';
      return candidates.filter((a) => a.routes(req));
    }
    const key = `${host} ${method} ${path}`;
    let serving = this.#served.get(key);
    if (serving === undefined) {
      serving = candidates.filter((a) => a.routes(req));
      // Paths carry model names and ids: start over rather than grow.
      if (this.#served.size >= 1024) this.#served.clear();
      this.#served.set(key, serving);
    }
    this.#lastRouteHost = host;
    this.#lastMethod = method;
    this.#lastPath = path;
    this.#lastServing = serving;
    return serving;
  }

  /**
   * The adapter that would have served a recorded request, trying the path without leading
   * segments too (a gateway's `/openai/v1/chat/completions`); null when none would.
   */
  recorded(method: string, url: URL, headers: Headers): ProviderAdapter | null {
    return this.recordedRoute(method, url, headers)?.adapter ?? null;
  }

  /** As `recorded`, with the API path the adapter recognised (the URL's path minus any base prefix). */
  recordedRoute(method: string, url: URL, headers: Headers): { adapter: ProviderAdapter; path: string } | null {
    const segments = url.pathname.split('/');
    for (let skip = 0; skip < segments.length - 1; skip++) {
      const path = `/${segments.slice(skip + 1).join('/')}`;
      const result = this.route({ method, url, path, headers });
      if (result.served) return { adapter: result.adapter, path: result.path ?? path };
    }
    return null;
  }
}
