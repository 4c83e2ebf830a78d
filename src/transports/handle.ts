/**
 * The transport core: a request in, a response out. `createCore` works on plain parts (what
 * node:http hands over, no Fetch objects to build); `createHandler` is the same core behind
 * Fetch `Request`/`Response` (MSW, tests, anything fetch-shaped). Transports are thin layers on it. It knows no provider: it routes to an adapter, asks the engine,
 * and applies what every provider shares — latency, chunk delays, disconnects, request ids,
 * the journal — in one place.
 */
import { BadRequestError, type IncomingRequest, type ProviderAdapter, type RenderedResponse } from '../providers/adapter.ts';
import { HexIds } from '../scenario/hex-ids.ts';
import { findAdapter } from '../providers/registry.ts';
import type { CanonicalError, CanonicalRequest } from '../scenario/canonical.ts';
import type { JournalEntry, NearMiss, ScenarioEngineLike, Selection, StepRef } from '../scenario/selection.ts';
import { assertNestingWithin } from './json-depth.ts';
import { sseBody } from './sse-body.ts';

const encoder = new TextEncoder();

/** A request as parts; `path` is the path to route on (a session prefix already removed). */
export interface RawRequest extends IncomingRequest {
  signal?: AbortSignal;
}

/** A response as parts: the whole body (JSON as text, SSE as bytes), or a paced stream. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
}

/** The core over parts. */
export type Core = (request: RawRequest) => Promise<RawResponse>;

export interface HandlerOptions {
  engine: ScenarioEngineLike;
  adapters: readonly ProviderAdapter[];
  /** Every request is appended here (the MockLLM's `requests`). */
  journal: { push(entry: JournalEntry): unknown };
  /** Model names the scenarios mention, for adapters that answer model listings (`GET /v1/models`). */
  models?: () => readonly string[];
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

function internalError(err: unknown): CanonicalError {
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, message: `ghostwire: ${message}`, headers: {} };
}

interface Outcome {
  rendered: RenderedResponse;
  canonical: CanonicalRequest | null;
  step: StepRef | null;
  nearMisses: NearMiss[];
  latencyMs: number;
}

function selectAndRender(adapter: ProviderAdapter, engine: ScenarioEngineLike, canonical: CanonicalRequest): Outcome {
  let selection: Selection;
  try {
    selection = engine.select(canonical);
  } catch (err) {
    return { rendered: adapter.renderError(internalError(err), canonical), canonical, step: null, nearMisses: [], latencyMs: 0 };
  }
  if (selection.kind === 'respond') {
    const rendered = adapter.render(selection.response, canonical);
    return { rendered, canonical, step: selection.step, nearMisses: [], latencyMs: selection.latencyMs };
  }
  if (selection.kind === 'error') {
    const rendered = adapter.renderError(selection.error, canonical);
    return { rendered, canonical, step: selection.step, nearMisses: [], latencyMs: selection.latencyMs };
  }
  return { rendered: adapter.renderError(selection.error, canonical), canonical, step: null, nearMisses: selection.nearMisses, latencyMs: 0 };
}

function outcomeFor(adapter: ProviderAdapter, engine: ScenarioEngineLike, incoming: IncomingRequest): Outcome {
  const none = { canonical: null, step: null, nearMisses: [], latencyMs: 0 };
  const authError = adapter.authenticate(incoming);
  if (authError) return { rendered: adapter.renderError(authError), ...none };
  let canonical: CanonicalRequest;
  try {
    // Token counts and stored responses: answered by the adapter, no scenario step consumed.
    assertNestingWithin(incoming.bodyText);
    const direct = adapter.answerWithoutStep?.(incoming);
    if (direct) return { rendered: direct.rendered, ...none, canonical: direct.request };
    canonical = adapter.parse(incoming);
  } catch (err) {
    if (err instanceof BadRequestError) {
      const error = { status: 400, message: err.message, param: err.param, code: err.code, headers: {} };
      return { rendered: adapter.renderError(error), ...none };
    }
    return { rendered: adapter.renderError(internalError(err)), ...none };
  }
  return selectAndRender(adapter, engine, canonical);
}

function unknownRoute(method: string, path: string): RenderedResponse {
  const message = `ghostwire: no mock API at ${method} ${path}`;
  return { status: 404, headers: {}, json: { error: { message, type: 'invalid_request_error', param: null, code: 'unknown_url' } } };
}

/** Model listings are answered by the adapters directly: no scenario step is involved. */
function listModels(
  adapters: readonly ProviderAdapter[],
  incoming: IncomingRequest,
  models: (() => readonly string[]) | undefined,
): { adapter: ProviderAdapter; rendered: RenderedResponse } | null {
  if (incoming.method !== 'GET') return null;
  let names: readonly string[] | undefined;
  for (const adapter of adapters) {
    if (!adapter.listModels) continue;
    names ??= models?.() ?? [];
    const rendered = adapter.listModels(incoming, names);
    if (rendered) return { adapter, rendered };
  }
  return null;
}

function toRaw(rendered: RenderedResponse, requestId: string, incoming: RawRequest): RawResponse {
  const headers: Record<string, string> = {};
  const given = rendered.headers;
  for (const name in given) headers[name.toLowerCase()] = given[name];
  headers['x-request-id'] = requestId;
  if (rendered.sseBody || rendered.sse !== undefined) {
    headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] = 'no-cache';
    const { chunkDelayMs = 0, disconnectAfterChunks = null } = rendered.stream ?? {};
    // `sse` may be computed on access (adapters that offer `sseBody`): read it only when needed.
    const frames = chunkDelayMs > 0 || disconnectAfterChunks !== null || !rendered.sseBody ? (rendered.sse ?? []) : null;
    if (!frames || (chunkDelayMs <= 0 && (disconnectAfterChunks === null || disconnectAfterChunks >= frames.length))) {
      // Nothing to pace or cut: the frames go out as one body (clients parse SSE incrementally either way).
      return { status: rendered.status, headers, body: rendered.sseBody ? rendered.sseBody() : encoder.encode(frames!.join('')) };
    }
    // Say chunked out loud: MSW writes a mocked body of unknown length as close-delimited, where a
    // cut would read as a clean end; with chunked framing the client sees the missing last chunk.
    headers['transfer-encoding'] = 'chunked';
    // The signal only now: transports may build it on first use (most requests never need one).
    return { status: rendered.status, headers, body: sseBody(frames, chunkDelayMs, disconnectAfterChunks, incoming.signal) };
  }
  headers['content-type'] = 'application/json';
  // Buffer.from: small bodies come from node's pool, cheaper than a fresh ArrayBuffer per response.
  // As text: node writes a string body together with the head in one go, cheaper than bytes beside it.
  return { status: rendered.status, headers, body: JSON.stringify(rendered.json ?? null) };
}

/**
 * Builds the core over parts: route, authenticate, parse, select, render, journal, pace.
 * @example
 *   const core = createCore({ engine, adapters: defaultAdapters(), journal: [] });
 *   const res = await core({ method: 'POST', url, path: url.pathname, headers, bodyText });
 */
export function createCore(options: HandlerOptions): Core {
  const { engine, adapters, journal } = options;
  const ids = new HexIds();
  return async (incoming: RawRequest): Promise<RawResponse> => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const { method, path } = incoming;
    // `req_` + 32 hex digits, as OpenAI sends it.
    const requestId = incoming.headers.get('x-request-id') || `req_${ids.next(32)}`;
    const listing = listModels(adapters, incoming, options.models);
    const adapter = listing ? listing.adapter : findAdapter(adapters, method, path);
    let outcome: Outcome;
    if (listing) {
      outcome = { rendered: listing.rendered, canonical: null, step: null, nearMisses: [], latencyMs: 0 };
    } else if (!adapter) {
      outcome = { rendered: unknownRoute(method, path), canonical: null, step: null, nearMisses: [], latencyMs: 0 };
    } else {
      outcome = outcomeFor(adapter, engine, incoming);
    }
    if (outcome.latencyMs > 0) await sleep(outcome.latencyMs, incoming.signal);
    journal.push({
      requestId,
      method,
      path,
      provider: adapter?.id ?? null,
      request: outcome.canonical,
      status: outcome.rendered.status,
      step: outcome.step,
      nearMisses: outcome.nearMisses,
      startedAt,
      durationMs: performance.now() - t0,
      bodyLength: incoming.bodyText.length,
    });
    return toRaw(outcome.rendered, requestId, incoming);
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
