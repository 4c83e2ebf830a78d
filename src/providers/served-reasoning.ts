/**
 * What a golden replay served of each API's minted reasoning values (signatures, encrypted content),
 * and the check of a request that passes them back: the routed adapter's own protocol rules, run on a
 * state whose seal knows only what this replay served (ProviderAdapter.mintedReplay). One per replay
 * session; goldens ask here and know no provider.
 */
import type { MintedReplay, ProviderAdapter, ServedAnswer } from './adapter.ts';
import { ServedSeal } from './common/served-seal.ts';
import type { ProtocolViolation } from '../scenario/canonical.ts';
import type { ProviderRouter } from './router.ts';

interface Replay {
  checks: MintedReplay<unknown>;
  state: unknown;
  seal: ServedSeal;
}

/** A recorded or incoming request as goldens hold it. */
export interface ServedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * The reasoning values one replay served, per API.
 * @example
 *   const served = new RecordedWires().servedReasoning();
 *   served.refusal(request)   // null, or the violation the live mock would refuse it with
 *   served.served(request, { json: body })
 */
export class ServedReasoning {
  readonly #router: ProviderRouter;
  /** Per adapter id: one state and seal for the whole session (a value served on one route may come back on another of the same API). */
  readonly #replays = new Map<string, Replay>();

  constructor(router: ProviderRouter) {
    this.#router = router;
  }

  #route(request: ServedRequest): { adapter: ProviderAdapter; path: string; url: URL; headers: Headers } | null {
    try {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      const route = this.#router.recordedRoute(request.method.toUpperCase(), url, headers);
      return route ? { ...route, url, headers } : null;
    } catch {
      return null;
    }
  }

  #replay(adapter: ProviderAdapter): Replay | null {
    const checks = adapter.mintedReplay as MintedReplay<unknown> | undefined;
    if (!checks) return null;
    let replay = this.#replays.get(adapter.id);
    if (!replay) {
      const seal = new ServedSeal();
      replay = { checks, seal, state: checks.state(seal) };
      this.#replays.set(adapter.id, replay);
    }
    return replay;
  }

  /** Notes the reasoning values `answer` (the golden's answer to `request`) hands to the client. */
  served(request: ServedRequest, answer: ServedAnswer): void {
    const route = this.#route(request);
    const replay = route && this.#replay(route.adapter);
    replay?.checks.served(replay.state, replay.seal, request.body, answer);
  }

  /**
   * The first violation of the rules about minted values that `request` breaks when only what this
   * replay served counts as minted (the error is the live mock's, in the API's words); null when it
   * breaks none, when its API mints nothing, or when the adapter cannot parse it (the recording answered that).
   */
  refusal(request: ServedRequest): ProtocolViolation | null {
    const route = this.#route(request);
    const replay = route && this.#replay(route.adapter);
    if (!route || !replay) return null;
    const bodyText = typeof request.body === 'string' ? request.body : request.body === null || request.body === undefined ? '' : JSON.stringify(request.body);
    try {
      const canonical = route.adapter.parse({ method: request.method.toUpperCase(), url: route.url, path: route.path, headers: route.headers, bodyText }, replay.state);
      return canonical.violations?.find((v) => replay.checks.rules.includes(v.rule)) ?? null;
    } catch {
      return null;
    }
  }
}
