/**
 * Claude on Vertex AI, as `@anthropic-ai/vertex-sdk` calls it:
 * `POST /v1/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:rawPredict` (a message) and
 * `:streamRawPredict` (its SSE events), the body Anthropic's Messages request without `model` and
 * with `anthropic_version: "vertex-2023-10-16"`; token counts at `models/count-tokens:rawPredict`.
 * The Anthropic adapter parses and renders; Vertex's front end answers credentials and unknown
 * routes in Google's error shape, the model behind it in Anthropic's.
 */
import { BadRequestError, type DirectAnswer, type IncomingRequest, type ProviderAdapter, type RenderedResponse, type RouteRequest, requestWith } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { anthropicAdapter } from '../anthropic/index.ts';
import { anthropicReader } from '../anthropic/reader.ts';
import { anthropicStreamErrorFrame, renderAnthropicError } from '../anthropic/render.ts';
import { withPrefix } from '../common/ids.ts';
import { decodeSegment } from '../common/models.ts';
import { parseJsonObject } from '../common/wire-json.ts';
import { renderGoogleError } from '../gemini/render.ts';
import { VERTEX_CREDENTIALS, VERTEX_HOSTS, vertexAuthError, vertexRoute } from '../vertex-shared/index.ts';
import type { RandomBytes, ResponseIdShape, ToolCallIdShape } from '../common/ids.ts';

/**
 * The version Vertex documents for the body; the current SDK copies its `anthropic-version` header
 * (`2023-06-01`) there instead, so any version string is taken.
 */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** The prefix of the message ids Claude on Vertex answers with. */
export const VERTEX_MESSAGE_ID_PREFIX = 'msg_vrtx_';

const METHODS = new Set(['rawPredict', 'streamRawPredict']);
const COUNT_TOKENS_MODEL = 'count-tokens';

/**
 * The request as the Anthropic adapter serves it: `/v1/messages` (or `/v1/messages/count_tokens`),
 * the model from the path, the version as a header.
 */
function asAnthropic(req: IncomingRequest): IncomingRequest {
  const route = vertexRoute(req.path)!;
  const model = decodeSegment(route.model);
  if (model === null) throw new BadRequestError(`model: the path segment "${route.model}" is not a valid URL-encoded name`, 'model');
  const body = parseJsonObject(req.bodyText);
  const version = body.anthropic_version;
  if (version === undefined) throw new BadRequestError('anthropic_version: Field required', 'anthropic_version');
  if (typeof version !== 'string' || version.trim() === '') {
    throw new BadRequestError(`anthropic_version: Input should be a valid string such as '${VERTEX_ANTHROPIC_VERSION}'`, 'anthropic_version');
  }
  const headers = new Headers(req.headers);
  headers.set('anthropic-version', version);
  const { anthropic_version: _version, ...rest } = body;
  const counting = model === COUNT_TOKENS_MODEL;
  const bodyText = JSON.stringify(counting ? rest : { ...rest, model });
  return requestWith(req, { headers, bodyText, path: counting ? '/v1/messages/count_tokens' : '/v1/messages' });
}

/** Claude on Vertex's tool_use ids: `toolu_vrtx_01` + 22 of [A-Za-z0-9] (`toolu_vrtx_01SSt2KZd8fXU4dL7usyGrzJ`). */
const VERTEX_TOOL_CALL_IDS: ToolCallIdShape = { prefix: 'toolu_vrtx_01', length: 22 };
/** Claude on Vertex's message ids: `msg_vrtx_01` + 22 of [A-Za-z0-9], as its tool ids say Vertex. */
const VERTEX_MESSAGE_IDS: ResponseIdShape = { prefix: `${VERTEX_MESSAGE_ID_PREFIX}01`, length: 22 };

/**
 * Creates the Claude-on-Vertex adapter.
 * @example
 *   vertexAnthropicAdapter().routes({ method: 'POST', path: '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict', url, headers }); // true
 */
export function vertexAnthropicAdapter(): ProviderAdapter & { id: 'vertex-anthropic' } {
  const anthropic = anthropicAdapter();
  return {
    id: 'vertex-anthropic',
    hosts: VERTEX_HOSTS,
    credentials: VERTEX_CREDENTIALS,
    framing: 'sse',
    routes(req: RouteRequest): boolean {
      const route = req.method === 'POST' ? vertexRoute(req.path) : null;
      return route?.publisher === 'anthropic' && METHODS.has(route.method);
    },
    /** The SDK's user-agent (`AnthropicVertex/JS …`): a shared host's unknown paths then get this API's 404. */
    recognizes: (req: RouteRequest) => /^AnthropicVertex\//.test(req.headers.get('user-agent') ?? ''),
    authenticate: vertexAuthError,
    // Anthropic's state, whatever it keeps, is this API's: made by it and handed through.
    createState: anthropic.createState,
    mintedReplay: anthropic.mintedReplay,
    answerWithoutStep(req: IncomingRequest, state: unknown): DirectAnswer | null {
      if (vertexRoute(req.path)?.model !== COUNT_TOKENS_MODEL) return null;
      return anthropic.answerWithoutStep!(asAnthropic(req), state);
    },
    toolCallIds: () => VERTEX_TOOL_CALL_IDS,
    responseIds: () => VERTEX_MESSAGE_IDS,
    parse(req: IncomingRequest, state: unknown): CanonicalRequest {
      const canonical = anthropic.parse(asAnthropic(req), state);
      return { ...canonical, provider: 'vertex-anthropic', path: req.path };
    },
    // Claude on Vertex mints its message ids as `msg_vrtx_…` (the stream's `message_start` too).
    render: (response: CanonicalResponse, request: CanonicalRequest, state: unknown, random?: RandomBytes): RenderedResponse =>
      anthropic.render({ ...response, id: withPrefix(VERTEX_MESSAGE_ID_PREFIX, response.id) }, request, state, random),
    // Anthropic's rendering, read the same way (the id's prefix is the answer's own).
    templateKey: anthropic.templateKey,
    renderError(error: CanonicalError): RenderedResponse {
      // The front end (credentials, unknown routes) answers as Google; the model as Anthropic.
      if (error.status === 401 || error.code === 'unknown_url') return renderGoogleError(error);
      return renderAnthropicError(error);
    },
    renderStreamError: (error: CanonicalStreamError) => [anthropicStreamErrorFrame(error)],
    reader: { ...anthropicReader, model: (path, body) => anthropicReader.model(path, body) ?? (vertexRoute(path) ? decodeSegment(vertexRoute(path)!.model) : null) },
  };
}
