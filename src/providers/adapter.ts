import type { CanonicalError, CanonicalRequest, CanonicalResponse, ProviderId, StreamOptions } from '../scenario/canonical.ts';

/**
 * What an adapter renders: either a JSON body or a list of complete SSE frames
 * (`event: x\ndata: {...}\n\n`). The transport core turns it into a Fetch `Response`,
 * applying latency, chunk delays and disconnects the same way for every provider.
 */
export interface RenderedResponse {
  status: number;
  headers: Record<string, string>;
  json?: unknown;
  /** Complete SSE frames, each ending in a blank line. */
  sse?: string[];
  /**
   * Optional, with `sse`: the same frames already encoded as one body (exactly the bytes of
   * `sse.join('')`), for adapters that can assemble it faster than joining; used when nothing is
   * paced or cut.
   */
  sseBody?: () => Uint8Array<ArrayBuffer>;
  /** Streaming timing, copied from the step. */
  stream?: Pick<StreamOptions, 'chunkDelayMs' | 'disconnectAfterChunks'>;
}

/** The request as a route saw it: URL with any session prefix already removed from `path`. */
export interface IncomingRequest {
  method: string;
  url: URL;
  /** `url.pathname` without a session prefix. */
  path: string;
  headers: Headers;
  /** The body as text (empty for GET). */
  bodyText: string;
}

/**
 * Thrown by `parse` for a mis-shaped request; rendered as the provider's 400.
 * @example
 *   throw new BadRequestError('messages: Field required', 'messages'); // the provider's 400, naming the field
 */
export class BadRequestError extends Error {
  readonly param: string | null;
  /** The API's error code, when it sends one (`previous_response_not_found`). */
  readonly code: string | undefined;
  constructor(message: string, param: string | null = null, options: { code?: string } = {}) {
    super(message);
    this.name = 'BadRequestError';
    this.param = param;
    this.code = options.code;
  }
}

/** A request an adapter answers itself, without a scenario step; `request` is what the journal keeps. */
export interface DirectAnswer {
  rendered: RenderedResponse;
  request: CanonicalRequest | null;
}

/** Everything one wire API knows. Provider wire knowledge lives only in implementations of this. */
export interface ProviderAdapter {
  readonly id: ProviderId;
  /** Does this adapter serve this method + path (e.g. POST /v1/chat/completions)? */
  routes(method: string, path: string): boolean;
  /** Presence checks of auth and required headers; an error to render, or null when fine. */
  authenticate(req: IncomingRequest): CanonicalError | null;
  /** Wire request → canonical request. Throws BadRequestError on a mis-shaped body. */
  parse(req: IncomingRequest): CanonicalRequest;
  /** Canonical response → wire response (JSON or SSE as `request.stream` says). */
  render(response: CanonicalResponse, request: CanonicalRequest): RenderedResponse;
  /** Canonical error → the provider's own error shape. `request` is absent when parsing failed. */
  renderError(error: CanonicalError, request?: CanonicalRequest): RenderedResponse;
  /**
   * Optional: answers a model-listing request (`GET /v1/models`, `/v1/models/{id}`, Gemini's
   * `/v1beta/models`) in this provider's shape over `models` (the names the scenarios mention),
   * auth checks included; null when the listing is another provider's (told apart by headers).
   * The transport core asks each adapter in turn before routing.
   */
  listModels?(req: IncomingRequest, models: readonly string[]): RenderedResponse | null;
  /**
   * Optional: requests on this adapter's routes that no scenario step answers (token counts,
   * stored responses), asked after `authenticate` and before `parse`; null for the rest. May throw
   * BadRequestError like `parse`.
   */
  answerWithoutStep?(req: IncomingRequest): DirectAnswer | null;
  /** Optional: forget state kept between requests (stored responses); MockLLM.reset() calls it. */
  reset?(): void;
}
