/**
 * What a golden replay served of each API's minted reasoning values (signatures, encrypted content),
 * and the check of a request that passes them back: the routed adapter's own protocol rules, run on a
 * state whose seal knows only what this replay served (ProviderAdapter.mintedReplay). One per replay
 * session; goldens ask here and know no provider.
 */
import { BadRequestError, type MintedReplay, type ProviderAdapter, type ServedAnswer } from './adapter.ts';
import { ServedSeal } from './common/served-seal.ts';
import type { CanonicalError, CanonicalRequest } from '../scenario/canonical.ts';
import type { ProviderRouter } from './router.ts';

interface Replay {
  checks: MintedReplay<unknown>;
  state: unknown;
  seal: ServedSeal;
}

/** Why a replay refuses a request: the API's error, and the protocol rule (with its doc) when one was broken. */
export interface MintedRefusal {
  error: CanonicalError;
  /** The rule's id and doc; absent when the request is mis-shaped without its minted field (a dropped `signature`: Field required). */
  rule?: string;
  doc?: string;
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
  /**
   * Per adapter: one state and seal for the whole session (a value served on one route may come back on
   * another of the same API). Keyed by the adapter itself, as a live mock keeps its states
   * (AdapterStates): Bedrock's runtime and Mantle share the id `bedrock` but not a seal.
   */
  readonly #replays = new Map<ProviderAdapter, Replay>();

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
    let replay = this.#replays.get(adapter);
    if (!replay) {
      const seal = new ServedSeal();
      replay = { checks, seal, state: checks.state(seal) };
      this.#replays.set(adapter, replay);
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
   * Why the API would refuse `request` when only what this replay served counts as minted: the first
   * broken rule about minted values (the live mock's error, in the API's words), or the parse error a
   * dropped field causes that `recorded` (the golden's request it matched) does not. Null when it
   * breaks none, or when its API mints nothing.
   * @example served.refusal(incoming, golden.interactions[1].request)?.error.message // 'messages.1.content.0: Invalid `signature` in `thinking` block'
   */
  refusal(request: ServedRequest, recorded?: ServedRequest): MintedRefusal | null {
    const route = this.#route(request);
    const replay = route && this.#replay(route.adapter);
    if (!route || !replay) return null;
    const parse = (r: ServedRequest): CanonicalRequest => {
      const bodyText = typeof r.body === 'string' ? r.body : r.body === null || r.body === undefined ? '' : JSON.stringify(r.body);
      return route.adapter.parse({ method: r.method.toUpperCase(), url: route.url, path: route.path, headers: new Headers(r.headers), bodyText }, replay.state);
    };
    let canonical: CanonicalRequest;
    try {
      canonical = parse(request);
    } catch (error) {
      if (!(error instanceof BadRequestError) || !recorded || !parses(() => parse(recorded))) return null;
      // Mis-shaped only for what the match left out (a minted field dropped): the API's 400 for it, as the live mock gives it.
      return { error: { status: error.status, message: error.message, param: error.param, code: error.code, headers: {}, ...(error.details === undefined ? {} : { details: error.details }) } };
    }
    const violation = canonical.violations?.find((v) => replay.checks.rules.includes(v.rule));
    return violation ? { error: violation.error, rule: violation.rule, doc: violation.doc } : null;
  }
}

function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}
