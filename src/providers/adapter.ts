import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError, ProviderId, StreamOptions } from '../scenario/canonical.ts';
import type { Framing } from './common/framing.ts';
import type { RandomBytes, ResponseIdShape, ToolCallIdShape } from './common/ids.ts';
import type { RecordedFrame, WireReader } from './common/views.ts';
import type { ServedSeal } from './common/served-seal.ts';

export type { Framing } from './common/framing.ts';

/**
 * A streamed answer: complete frames in the adapter's framing (SSE and NDJSON frames as text,
 * binary event-stream messages as bytes). The transport core paces and cuts them the same way for
 * every provider; goldens keep the same frame boundaries.
 */
export interface RenderedStream {
  framing: Framing;
  /** Complete frames, each one whole message of the framing (an SSE frame ends in its blank line). */
  readonly frames: ReadonlyArray<string | Uint8Array>;
  /**
   * Optional: the same frames already encoded as one body (exactly their bytes in order), for
   * adapters that can assemble it faster than joining; used when nothing is paced or cut.
   */
  body?: () => Uint8Array<ArrayBuffer>;
  /** Streaming timing, copied from the step. */
  timing?: Pick<StreamOptions, 'chunkDelayMs' | 'disconnectAfterChunks'>;
}

/**
 * How an API's binary stream frames read as text and back, so its streams can come from answer
 * templates (common/answer-templates.ts), which cut text: the text shows every value the frame
 * carries as it is (a payload inside base64 decoded), and `frame` gives the frame back whole, its
 * lengths and checksums computed afresh. A template is kept only when `frame` reproduces a second
 * rendering byte for byte.
 */
export interface FrameText {
  /** The frame as text; null for a frame that does not read so (the answer is then rendered each time). */
  text(frame: Uint8Array): string | null;
  /** The frame a text stands for. */
  frame(text: string): Uint8Array;
}

/**
 * What an adapter renders: a JSON body or a stream of frames, with the provider's own headers
 * (its `content-type` included; the core only fills in a default when the adapter gives none).
 */
export interface RenderedResponse {
  status: number;
  headers: Record<string, string>;
  json?: unknown;
  /**
   * Optional: `json` already encoded, exactly `JSON.stringify(json)`, for adapters that assemble
   * their common answers faster than the generic serialiser; the transports write it as given.
   */
  text?: string;
  stream?: RenderedStream;
}

/** Where a mid-stream error falls: the answer being streamed and how many of its frames went before. */
export interface StreamErrorContext {
  request: CanonicalRequest;
  response: CanonicalResponse;
  /** The frames sent before the error frame (its index in the stream). */
  sent: number;
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
  /**
   * `url.host`, when the transport knows it without building `url` (the real port: its own
   * origin's host). Routing reads it first.
   */
  host?: string;
}

/** What routing looks at: the whole request but its body. */
export type RouteRequest = Pick<IncomingRequest, 'method' | 'url' | 'path' | 'headers' | 'host'>;

/**
 * The request with some parts changed. Named, not spread: a transport's request may serve `url`
 * from a getter (built on first use), which a spread drops.
 * @example
 *   const inner = requestWith(req, { path: '/v1/messages' });
 */
export function requestWith<R extends RouteRequest>(req: R, changes: Partial<IncomingRequest>): R {
  return { ...req, url: req.url, ...changes };
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
  /** The status the API answers a mis-shaped request with: 400, or 422 for validation-style APIs (Mistral). */
  readonly status: number;
  /** Extra data the provider's error body carries (a validation API's `detail` list). */
  readonly details: unknown;
  constructor(message: string, param: string | null = null, options: { code?: string; status?: number; details?: unknown } = {}) {
    super(message);
    this.name = 'BadRequestError';
    this.param = param;
    this.code = options.code;
    this.status = options.status ?? 400;
    this.details = options.details;
  }
}

/** A request an adapter answers itself, without a scenario step; `request` is what the journal keeps. */
export interface DirectAnswer {
  rendered: RenderedResponse;
  request: CanonicalRequest | null;
}

/**
 * The models a mock answers: the names its scenarios match exactly (what a listing shows), and
 * whether a request for any other model would be answered (a catch-all step).
 */
export interface ModelCatalog {
  readonly names: readonly string[];
  /** True when some step would answer a request for `model` on one of `providers`. */
  answers(model: string, providers: readonly ProviderId[]): boolean;
}

/** A served answer as a golden holds it: a JSON body, or the frames of a stream. */
export interface ServedAnswer {
  json?: unknown;
  frames?: readonly RecordedFrame[];
}

/**
 * How a golden replay checks the reasoning values this API mints (signatures, encrypted content) when
 * code under test passes them back: the adapter's own protocol rules run on a state whose seal knows
 * only what the replay served (docs/decisions/golden-volatile-request-fields.md).
 */
export interface MintedReplay<State> {
  /** A state for one replay session, its checks made with `seal`. */
  state(seal: ServedSeal): State;
  /** Tells `state` (and `seal`) what one served answer minted; `requestBody` is the request it answered. */
  served(state: State, seal: ServedSeal, requestBody: unknown, answer: ServedAnswer): void;
  /**
   * The ids of the rules about minted values (altered, foreign or dropped ones): a replay refuses a
   * request only for these, the rest of the conversation was matched against the recording.
   */
  readonly rules: readonly string[];
}

/**
 * Everything one wire API knows. Provider wire knowledge lives only in implementations of this.
 *
 * An adapter holds no state of its own mock: one adapter serves many mocks (a server's sessions).
 * An API that remembers something between requests (stored responses, minted tool ids) says how
 * to make it with `createState`; each mock makes its own when it first needs it, hands it to
 * `answerWithoutStep`, `parse` and `render`, and makes a fresh one on `reset()`. Adapters without
 * state get `undefined`. See docs/decisions/stateless-adapters.md.
 */
export interface ProviderAdapter<State = unknown> {
  readonly id: ProviderId;
  /**
   * The hosts the API answers on, as patterns: `api.openai.com`, `*.openai.azure.com` (one label),
   * `{location}-aiplatform.googleapis.com` (a named part). A request to one of them is this API's
   * (its unknown paths get this API's 404); on any other host (the real port, a gateway) routing is by path.
   */
  readonly hosts: readonly string[];
  /** Where this API's clients put credentials: never written to a golden or a journal. */
  readonly credentials: { readonly headers: readonly string[]; readonly query: readonly string[] };
  /** The framing of this API's streamed answers. */
  readonly framing: Framing;
  /**
   * Does this adapter serve this method and path (on this host)? Decided by those alone (the router
   * remembers the answer); a client's headers belong in `recognizes`.
   */
  routes(req: RouteRequest): boolean;
  /**
   * Optional: does the request carry this API's client fingerprint (its SDK's headers)? Decides
   * between adapters that serve the same path on a shared host (`GET /v1/models`).
   */
  recognizes?(req: RouteRequest): boolean;
  /** Presence checks of auth and required headers; an error to render, or null when fine. */
  authenticate(req: IncomingRequest): CanonicalError | null;
  /**
   * Optional: a fresh, empty state for one mock (its stored responses, its tool-id map). Each mock
   * asks once, on the first request that needs it, and again after `reset()`.
   */
  createState?(): State;
  /**
   * Optional: the shape of the ids this API mints for tool calls (`toolu_01` + 22, `tooluse_` + 22),
   * for this request (Bedrock's depends on the operation). The engine mints a call's id in it when
   * the scenario gives none, so the id on the wire is the canonical one and a tool result the
   * client sends back names it as is; an id the scenario gives is kept exactly. Default: OpenAI's
   * `call_` + 24. See docs/decisions/tool-call-ids.md.
   */
  toolCallIds?(request: CanonicalRequest): ToolCallIdShape;
  /**
   * Optional: the shape of the ids this API gives its responses (`msg_01` + 22, `chatcmpl-` + 29),
   * for this request; undefined for a wire that carries none (Bedrock Converse, Ollama). The engine
   * mints each response's id in it, so the id rendered, stored and journaled is one. Without it the
   * engine's own hex id is used. See docs/decisions/response-ids.md.
   */
  responseIds?(request: CanonicalRequest): ResponseIdShape | undefined;
  /** Wire request → canonical request. Throws BadRequestError on a mis-shaped body. */
  parse(req: IncomingRequest, state: State): CanonicalRequest;
  /**
   * Optional: `parse` reads nothing but the request's method, path, headers and body text (no state,
   * no URL), so it gives the same canonical request again later. A journal then keeps such a request
   * as its body text and parses it again when read: far fewer objects for the collector to copy per
   * request on a busy server (docs/decisions/journal-memory.md).
   */
  readonly repeatableParse?: boolean;
  /**
   * Canonical response → wire response (JSON or a stream as `request.stream` says). `random` is the
   * mock's id pool (the one response and tool call ids come from), for ids a wire carries besides
   * those (the Responses API's output item ids); absent when rendering outside a mock.
   */
  render(response: CanonicalResponse, request: CanonicalRequest, state: State, random?: RandomBytes): RenderedResponse;
  /**
   * Optional: lets answers of this API come from per-answer templates (common/answer-templates.ts).
   * What `render` reads of the request, as a string, besides the answer itself and the request's
   * model, path and `stream` (`stream_options`, the service tier); undefined for an answer that must
   * be rendered each time (one whose rendering reads this mock's state, such as a signature under
   * this mock's key: templates are shared by the mocks of a server; or writes it, unless `templated`
   * does that write for templated answers). Without it every
   * answer is rendered. A template is kept only when a second
   * rendering with other ids, `created` and random draws reproduces it byte for byte; what that
   * check cannot see is the key's to name: everything `render` reads must be in the key or the answer.
   */
  templateKey?(response: CanonicalResponse, request: CanonicalRequest, state: State): string | undefined;
  /**
   * Optional, with templateKey: what `render` does to this mock's state besides the bytes (a stored
   * response, the ids of the calls it made), done for an answer given from a template, which is not
   * rendered. `random` replays the draws the answer's rendering made (its item ids), in order. With
   * it, a templateKey may allow answers whose rendering writes the state, never ones that read it.
   */
  templated?(response: CanonicalResponse, request: CanonicalRequest, state: State, random: RandomBytes): void;
  /** Optional, for APIs whose streams are binary frames: how they read as text, so templates can hold them. */
  readonly frameText?: FrameText;
  /** Canonical error → the provider's own error shape. `request` is absent when parsing failed. */
  renderError(error: CanonicalError, request?: CanonicalRequest): RenderedResponse;
  /**
   * Optional, for APIs that stream: a failure in the middle of a stream as this API's own closing
   * frames (an `error` event, a `data: {"error":…}` chunk, an event-stream exception message). The
   * core sends them after the first `context.sent` frames of the rendered stream, and ends the stream.
   */
  renderStreamError?(error: CanonicalStreamError, context: StreamErrorContext): ReadonlyArray<string | Uint8Array>;
  /**
   * Optional: answers a model-listing request on this adapter's routes (`GET /v1/models`,
   * `/v1/models/{id}`, Gemini's `/v1beta/models`) in this provider's shape; null for other routes.
   * Asked after `authenticate`.
   */
  listModels?(req: IncomingRequest, catalog: ModelCatalog): RenderedResponse | null;
  /**
   * Optional: requests on this adapter's routes that no scenario step answers (token counts,
   * stored responses), asked after `authenticate` and before `parse`; null for the rest. May throw
   * BadRequestError like `parse`.
   */
  answerWithoutStep?(req: IncomingRequest, state: State): DirectAnswer | null;
  /** Reads recorded requests and answers of this API (goldens' summaries, `ghostwire inspect`). */
  readonly reader: WireReader;
  /** Optional, for APIs that mint reasoning values: how a golden replay checks them (see MintedReplay). */
  readonly mintedReplay?: MintedReplay<State>;
}
