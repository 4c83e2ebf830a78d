/**
 * Claude in Amazon Bedrock on the `bedrock-mantle` endpoint, as `@anthropic-ai/bedrock-sdk`'s
 * `AnthropicBedrockMantle` calls it: Anthropic's Messages API as is (`anthropic-version` header,
 * model in the body, SSE streams) under `/anthropic` on `bedrock-mantle.{region}.api.aws`:
 * `POST /anthropic/v1/messages` and `/anthropic/v1/messages/count_tokens`. Credentials are a
 * SigV4 signature for the `bedrock-mantle` service, or a Bedrock API key (`Bearer`, or `x-api-key`
 * as AWS's own examples send it), accepted by presence. The Anthropic adapter parses and renders;
 * the provider is `bedrock`, as for the runtime endpoint.
 */
import type { DirectAnswer, IncomingRequest, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import { requestWith } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { anthropicAdapter } from '../anthropic/index.ts';
import { anthropicReader } from '../anthropic/reader.ts';
import { anthropicStreamErrorFrame, renderAnthropicError } from '../anthropic/render.ts';
import type { RandomBytes } from '../common/ids.ts';
import { BEDROCK_CLAUDE_MESSAGE_IDS, BEDROCK_CLAUDE_TOOL_CALL_IDS } from '../bedrock/index.ts';

/** The path prefix Mantle serves Anthropic's API under. */
const PREFIX = '/anthropic';
const PATHS = new Set([`${PREFIX}/v1/messages`, `${PREFIX}/v1/messages/count_tokens`]);
const SIGV4 = /^\s*AWS4-HMAC-SHA256\s+Credential=\S+/i;

/** The request as the Anthropic adapter serves it: the same request without the `/anthropic` prefix. */
const asAnthropic = (req: IncomingRequest): IncomingRequest => requestWith(req, { path: req.path.slice(PREFIX.length) });

function authenticate(req: IncomingRequest): CanonicalError | null {
  const auth = req.headers.get('authorization') ?? '';
  const signed = SIGV4.test(auth) || /^\s*Bearer\s+\S/i.test(auth) || Boolean(req.headers.get('x-api-key')?.trim());
  if (!signed) return { status: 401, type: 'authentication_error', message: 'authentication required: a Bedrock API key or a SigV4 signature for bedrock-mantle', headers: {} };
  if (!req.headers.get('anthropic-version')?.trim()) return { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required', headers: {} };
  return null;
}

/**
 * Creates the Bedrock Mantle adapter.
 * @example
 *   bedrockMantleAdapter().routes({ method: 'POST', path: '/anthropic/v1/messages', url, headers }); // true
 */
export function bedrockMantleAdapter(): ProviderAdapter & { id: 'bedrock' } {
  const anthropic = anthropicAdapter();
  return {
    id: 'bedrock',
    hosts: ['bedrock-mantle.*.api.aws'],
    credentials: { headers: ['authorization', 'x-api-key', 'x-amz-security-token', 'x-amz-date', 'x-amz-content-sha256'], query: [] },
    framing: 'sse',
    routes: (req: RouteRequest) => req.method === 'POST' && PATHS.has(req.path),
    /**
     * The client's fingerprint: a SigV4 scope naming `bedrock-mantle`, or the SDK's user agent
     * (`AnthropicBedrockMantle/JS …`). Without it, `/anthropic/…` on a shared host is the explicit
     * provider prefix of Anthropic's own API.
     */
    recognizes: (req: RouteRequest) =>
      /\/bedrock-mantle\/aws4_request/.test(req.headers.get('authorization') ?? '') || /^AnthropicBedrockMantle\//.test(req.headers.get('user-agent') ?? ''),
    authenticate,
    // Anthropic's state, whatever it keeps, is this API's: made by it and handed through.
    createState: anthropic.createState,
    answerWithoutStep: (req: IncomingRequest, state: unknown): DirectAnswer | null => anthropic.answerWithoutStep!(asAnthropic(req), state),
    // Claude in Bedrock, as on the runtime endpoint: `toolu_bdrk_01…`.
    toolCallIds: () => BEDROCK_CLAUDE_TOOL_CALL_IDS,
    responseIds: () => BEDROCK_CLAUDE_MESSAGE_IDS,
    parse(req: IncomingRequest, state: unknown): CanonicalRequest {
      return { ...anthropic.parse(asAnthropic(req), state), provider: 'bedrock', path: req.path };
    },
    render: (response: CanonicalResponse, request: CanonicalRequest, state: unknown, random?: RandomBytes): RenderedResponse => anthropic.render(response, request, state, random),
    // Anthropic's rendering, read the same way.
    templateKey: anthropic.templateKey,
    renderError: (error: CanonicalError): RenderedResponse => renderAnthropicError(error),
    renderStreamError: (error: CanonicalStreamError) => [anthropicStreamErrorFrame(error)],
    reader: anthropicReader,
    // Anthropic's bodies, so Anthropic's strict replay; its own seal (a separate adapter), as the live mock keeps one.
    mintedReplay: anthropic.mintedReplay,
  };
}
