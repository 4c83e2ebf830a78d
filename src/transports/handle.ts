/**
 * The transport core: a request in, a response out. `createCore` works on plain parts (what
 * node:http hands over, no Fetch objects to build); `createHandler` is the same core behind
 * Fetch `Request`/`Response` (MSW, tests, anything fetch-shaped). Transports are thin layers on it. It knows no provider: it asks the providers' router for an adapter, asks the engine,
 * and applies what every provider shares — latency, chunk delays, disconnects, request ids,
 * the journal — in one place.
 */
import { BadRequestError, type IncomingRequest, type ModelCatalog, type ProviderAdapter, type RenderedResponse } from '../providers/adapter.ts';
import { AdapterStates } from '../providers/adapter-states.ts';
import { FRAMING_CONTENT_TYPE } from '../providers/common/framing.ts';
import { withStreamError } from '../providers/common/stream-error.ts';
import { AdapterIds } from '../providers/adapter-ids.ts';
import { defaultAdapters } from '../providers/registry.ts';
import { ProviderRouter, type RouteResult } from '../providers/router.ts';
import { HexIds } from '../scenario/hex-ids.ts';
import type { CanonicalError, CanonicalRequest, ProviderId } from '../scenario/canonical.ts';
import type { JournalEntry, NearMiss, ScenarioEngineLike, Selection, StepRef } from '../scenario/selection.ts';
import { assertNestingWithin } from './json-depth.ts';
import { joinFrames, sseBody } from './sse-body.ts';

/** A request as parts; `path` is the path to route on (a session prefix already removed). */
export interface RawRequest extends IncomingRequest {
  signal?: AbortSignal;
  /**
   * Set by a transport that refused the request before reading it (a body past the limit, a
   * foreign origin): the core only routes it, to answer this error in that provider's shape.
   */
  refused?: CanonicalError;
}

/** A response as parts: the whole body (JSON as text, SSE as bytes), or a paced stream. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
}

/** The core over parts. */
export type Core = (request: RawRequest) => Promise<RawResponse>;

/**
 * The same core answering without a promise when nothing is paced (no latency to wait out): what a
 * transport calls on its hot path, so a plain answer costs no promise and no microtask hop. It may
 * throw where `Core` rejects.
 */
export type PartsCore = (request: RawRequest) => RawResponse | Promise<RawResponse>;

export interface HandlerOptions {
  engine: ScenarioEngineLike;
  /** The wire APIs served (all built-in ones by default); ignored when `router` is given. */
  adapters?: readonly ProviderAdapter[];
  /**
   * A router shared with other mocks (a server's sessions): its adapters hold no per-mock state, so
   * one router and its adapters serve every session. A router over `adapters` is made otherwise.
   */
  router?: ProviderRouter;
  /** This mock's adapter states (stored responses, tool ids); its owner clears them on reset. Made here otherwise. */
  states?: AdapterStates;
  /**
   * Every request is appended here (the MockLLM's `requests`). With `pushParsed`, a request parsed by
   * an adapter whose parse can be repeated goes there instead, with the adapter and what it parsed.
   */
  journal: { push(entry: JournalEntry): unknown; pushParsed?(entry: JournalEntry, adapter: ProviderAdapter, from: IncomingRequest): unknown };
  /** Model names the scenarios mention, for adapters that answer model listings (`GET /v1/models`). */
  models?: () => readonly string[];
  /** Would some step answer a request for this model on one of these providers (a catch-all)? */
  answersModel?: (model: string, providers: readonly ProviderId[]) => boolean;
  /** `false`: answer requests that break a provider's protocol rules instead of refusing them (default true). */
  protocolRules?: boolean;
}

export interface HandleOptions {
  /** The path to route on, when the transport removed a prefix (sessions); defaults to the URL's path. */
  path?: string;
}

/** `(request) => Promise<Response>`; the optional second argument overrides the routed path. */
export type Handler = (request: Request, options?: HandleOptions) => Promise<Response>;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * The error a throw becomes, in whichever provider's shape the caller renders it: a client's
 * mistake (a mis-shaped body, a malformed percent-escape, JSON nested too deep to walk) is a 400;
 * anything else is ghostwire's own fault, a 500.
 */
function errorOf(err: unknown): CanonicalError {
  if (err instanceof BadRequestError) {
    const error: CanonicalError = { status: err.status, message: err.message, param: err.param, code: err.code, headers: {} };
    if (err.details !== undefined) error.details = err.details;
    return error;
  }
  if (err instanceof URIError) return { status: 400, message: `The request path has a malformed percent-escape: ${err.message}`, headers: {} };
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return { status: 400, message: 'The request body is nested too deeply to be processed.', headers: {} };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, message: `ghostwire: ${message}`, headers: {} };
}

interface Outcome {
  rendered: RenderedResponse;
  canonical: CanonicalRequest | null;
  /** Set when `canonical` is `adapter.parse` of this request and the adapter's parse can be repeated. */
  parsedFrom?: IncomingRequest;
  step: StepRef | null;
  nearMisses: NearMiss[];
  latencyMs: number;
  /** What the journal adds for this request: the answer's reasoning, a refusing rule, an authoring error. */
  notes?: Pick<JournalEntry, 'reasoning' | 'violation' | 'authoringError'>;
}

function selectAndRender(adapter: ProviderAdapter, engine: ScenarioEngineLike, canonical: CanonicalRequest, state: unknown, router: ProviderRouter, rules: boolean): Outcome {
  const { random, templates } = router;
  const violation = canonical.violations?.[0];
  if (violation && rules && engine.protocolRules?.() !== false) {
    // The real API refuses this request (docs/scenario-format.md#protocol-rules): so does the mock, with its error.
    const notes = { violation: { rule: violation.rule, doc: violation.doc } };
    return { rendered: adapter.renderError(violation.error, canonical), canonical, step: null, nearMisses: [], latencyMs: 0, notes };
  }
  let selection: Selection;
  try {
    // Response ids, and tool call ids the step leaves out, are minted in this API's shape (`msg_01…`, `toolu_01…`).
    selection = engine.select(canonical, new AdapterIds(adapter, canonical, random));
  } catch (err) {
    return { rendered: adapter.renderError(errorOf(err), canonical), canonical, step: null, nearMisses: [], latencyMs: 0 };
  }
  if (selection.kind === 'respond') {
    const { response } = selection;
    const rendered = withStreamError(adapter, templates.render(adapter, response, canonical, state, random), response, canonical);
    const notes = response.reasoning ? { reasoning: response.reasoning } : undefined;
    return { rendered, canonical, step: selection.step, nearMisses: [], latencyMs: selection.latencyMs, notes };
  }
  if (selection.kind === 'error') {
    const rendered = adapter.renderError(selection.error, canonical);
    const notes = selection.authoring ? { authoringError: selection.error.message } : undefined;
    return { rendered, canonical, step: selection.step, nearMisses: [], latencyMs: selection.latencyMs, notes };
  }
  return { rendered: adapter.renderError(selection.error, canonical), canonical, step: null, nearMisses: selection.nearMisses, latencyMs: 0 };
}

function outcomeFor(
  adapter: ProviderAdapter,
  engine: ScenarioEngineLike,
  incoming: IncomingRequest,
  catalog: ModelCatalog,
  states: AdapterStates,
  router: ProviderRouter,
  rules: boolean,
): Outcome {
  const none = { canonical: null, step: null, nearMisses: [], latencyMs: 0 };
  let canonical: CanonicalRequest;
  let state: unknown;
  try {
    const authError = adapter.authenticate(incoming);
    if (authError) return { rendered: adapter.renderError(authError), ...none };
    // Model listings, token counts, stored responses: answered by the adapter, no scenario step consumed.
    const listing = adapter.listModels?.(incoming, catalog);
    if (listing) return { rendered: listing, ...none };
    assertNestingWithin(incoming.bodyText);
    // This mock's own state of the adapter (the adapter is shared): made on first use.
    state = states.of(adapter);
    const direct = adapter.answerWithoutStep?.(incoming, state);
    if (direct) return { rendered: direct.rendered, ...none, canonical: direct.request };
    canonical = adapter.parse(incoming, state);
  } catch (err) {
    return { rendered: adapter.renderError(errorOf(err)), ...none };
  }
  const outcome = selectAndRender(adapter, engine, canonical, state, router, rules);
  if (adapter.repeatableParse) outcome.parsedFrom = incoming;
  return outcome;
}

/** A request no adapter serves: a 404 in the shape of the API its host or headers name. */
function unknownRoute(adapter: ProviderAdapter | null, method: string, path: string): RenderedResponse {
  return errorIn(adapter, { status: 404, message: `ghostwire: no mock API at ${method} ${path}`, param: null, code: 'unknown_url', headers: {} });
}

/** An error in the routed provider's shape; a neutral `{ error }` body where no provider claims the route. */
function errorIn(adapter: ProviderAdapter | null, error: CanonicalError): RenderedResponse {
  if (adapter) return adapter.renderError(error);
  return { status: error.status, headers: error.headers, json: { error: { message: error.message, code: error.code ?? null } } };
}

function toRaw(rendered: RenderedResponse, requestId: string, incoming: RawRequest): RawResponse {
  const headers: Record<string, string> = {};
  const given = rendered.headers;
  for (const name in given) headers[name.toLowerCase()] = given[name];
  headers['x-request-id'] ??= requestId;
  const stream = rendered.stream;
  if (stream) {
    // The adapter's (or the step's) content type stands; the framing's is only the default.
    headers['content-type'] ??= FRAMING_CONTENT_TYPE[stream.framing];
    headers['cache-control'] ??= 'no-cache';
    const { chunkDelayMs = 0, disconnectAfterChunks = null } = stream.timing ?? {};
    // `frames` may be computed on access (adapters that offer `body`): read it only when needed.
    const frames = chunkDelayMs > 0 || disconnectAfterChunks !== null || !stream.body ? stream.frames : null;
    if (!frames || (chunkDelayMs <= 0 && (disconnectAfterChunks === null || disconnectAfterChunks >= frames.length))) {
      // Nothing to pace or cut: the frames go out as one body (clients parse streams incrementally either way).
      return { status: rendered.status, headers, body: stream.body ? stream.body() : joinFrames(frames!) };
    }
    // Say chunked out loud: MSW writes a mocked body of unknown length as close-delimited, where a
    // cut would read as a clean end; with chunked framing the client sees the missing last chunk.
    headers['transfer-encoding'] = 'chunked';
    // The signal only now: transports may build it on first use (most requests never need one).
    return { status: rendered.status, headers, body: sseBody(frames, chunkDelayMs, disconnectAfterChunks, incoming.signal) };
  }
  headers['content-type'] ??= 'application/json';
  // As text: node writes a string body together with the head in one go, cheaper than bytes beside it.
  return { status: rendered.status, headers, body: rendered.text ?? JSON.stringify(rendered.json ?? null) };
}

/**
 * The request with another path. Named, not spread: a transport's request may serve `url` and
 * `signal` through getters (built on first use), which a spread would drop.
 */
function withPath(incoming: RawRequest, path: string): RawRequest {
  const { method, url, headers, bodyText, refused } = incoming;
  return { method, url, path, headers, bodyText, refused, get signal() { return incoming.signal; } };
}

/**
 * Builds the core over parts: route, authenticate, parse, select, render, journal, pace.
 * @example
 *   const core = createCore({ engine, adapters: defaultAdapters(), journal: [] });
 *   const res = await core({ method: 'POST', url, path: url.pathname, headers, bodyText });
 */
export function createCore(options: HandlerOptions): Core {
  const core = createPartsCore(options);
  return async (incoming: RawRequest): Promise<RawResponse> => core(incoming);
}

/**
 * The core over parts as `PartsCore`: synchronous unless the answer waits (latency).
 * @example
 *   const core = createPartsCore({ engine, adapters: defaultAdapters(), journal: [] });
 *   const res = core({ method: 'POST', url, path: url.pathname, headers, bodyText }); // a RawResponse, or a promise of one
 */
export function createPartsCore(options: HandlerOptions): PartsCore {
  const { engine, journal } = options;
  const router = options.router ?? new ProviderRouter(options.adapters ?? defaultAdapters());
  const states = options.states ?? new AdapterStates();
  const ids = new HexIds();
  const rules = options.protocolRules !== false;
  // One catalog; its names are read only when a listing asks for them (most requests are not listings).
  const catalog: ModelCatalog = {
    get names() {
      return options.models?.() ?? [];
    },
    answers: (model, providers) => options.answersModel?.(model, providers) ?? false,
  };
  /** Journals the request and encodes its answer (after any latency, so the entry's duration includes it). */
  const finish = (incoming: RawRequest, route: RouteResult, outcome: Outcome, requestId: string, startedAt: number, t0: number): RawResponse => {
    const { method, path } = incoming;
    const entry: JournalEntry = {
      requestId,
      method,
      path,
      provider: route.served ? route.adapter.id : null,
      request: outcome.canonical,
      status: outcome.rendered.status,
      step: outcome.step,
      nearMisses: outcome.nearMisses,
      startedAt,
      durationMs: performance.now() - t0,
      bodyLength: incoming.bodyText.length,
      ...outcome.notes,
    };
    const from = outcome.parsedFrom;
    // `parsedFrom` is set only by outcomeFor, for the routed adapter.
    if (from && journal.pushParsed) journal.pushParsed(entry, route.adapter!, from);
    else journal.push(entry);
    try {
      return toRaw(outcome.rendered, requestId, incoming);
    } catch (err) {
      // A body that cannot be encoded (nested too deep to stringify): the provider's error instead.
      const shape = route.adapter;
      return toRaw(shape ? shape.renderError(errorOf(err)) : unknownRoute(null, method, path), requestId, incoming);
    }
  };
  return (incoming: RawRequest): RawResponse | Promise<RawResponse> => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const { method, path } = incoming;
    // `req_` + 32 hex digits, as OpenAI sends it.
    const requestId = incoming.headers.get('x-request-id') || ids.next(32, 'req_');
    let route: RouteResult;
    try {
      route = router.route(incoming);
    } catch {
      // An adapter's route check that throws on a strange path must not fail the request.
      route = { adapter: null, served: false };
    }
    let outcome: Outcome;
    if (incoming.refused) {
      outcome = { rendered: errorIn(route.adapter, incoming.refused), canonical: null, step: null, nearMisses: [], latencyMs: 0 };
    } else if (route.served) {
      // Under an explicit `/{provider}` prefix the adapter sees the path after it.
      outcome = outcomeFor(route.adapter, engine, route.path === undefined ? incoming : withPath(incoming, route.path), catalog, states, router, rules);
    } else {
      outcome = { rendered: unknownRoute(route.adapter, method, path), canonical: null, step: null, nearMisses: [], latencyMs: 0 };
    }
    if (outcome.latencyMs > 0) {
      return sleep(outcome.latencyMs, incoming.signal).then(() => finish(incoming, route, outcome, requestId, startedAt, t0));
    }
    return finish(incoming, route, outcome, requestId, startedAt, t0);
  };
}

/**
 * The core behind Fetch objects.
 * @example
 *   const handle = fetchHandler(core);
 *   const res = await handle(new Request('https://api.openai.com/v1/chat/completions', init));
 */
export function fetchHandler(core: Core): Handler {
  return async (request: Request, handleOptions: HandleOptions = {}): Promise<Response> => {
    const url = new URL(request.url);
    const bodyText = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const raw = await core({
      method: request.method,
      url,
      path: handleOptions.path ?? url.pathname,
      headers: request.headers,
      bodyText,
      signal: request.signal,
    });
    return new Response(raw.body, { status: raw.status, headers: raw.headers });
  };
}

/**
 * Builds the Fetch handler over an engine and a list of adapters.
 * @example
 *   const handle = createHandler({ engine, adapters: defaultAdapters(), journal: [] });
 *   const res = await handle(new Request('https://api.openai.com/v1/chat/completions', { method: 'POST', body }));
 */
export function createHandler(options: HandlerOptions): Handler {
  return fetchHandler(createCore(options));
}
