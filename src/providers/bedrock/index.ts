/**
 * The Amazon Bedrock runtime adapter (`@aws-sdk/client-bedrock-runtime`): Converse and
 * ConverseStream (binary event stream), InvokeModel and InvokeModelWithResponseStream with
 * Anthropic bodies, and Titan embeddings through InvokeModel, on `bedrock-runtime.{region}.amazonaws.com`
 * at `/model/{modelId}/…` (the id URL-encoded: `:` and ARNs' `/` escaped). SigV4-signed requests are
 * accepted by the presence of their `AWS4-HMAC-SHA256` authorization (no signature check: test
 * credentials are static), as are Bedrock API keys (`Bearer`).
 */
import type { IncomingRequest, ProviderAdapter, RenderedResponse, RouteRequest, StreamErrorContext } from '../adapter.ts';
import { BadRequestError } from '../adapter.ts';
import { decodeSegment } from '../common/models.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { parseConverse } from './converse-parse.ts';
import { converseTemplateKey, renderConverse, renderConverseStream } from './converse-render.ts';
import { eventStreamText } from './event-stream.ts';
import { anthropicTemplateKey } from '../anthropic/render.ts';
import { bedrockStreamErrorFrame, renderBedrockError } from './errors.ts';
import { parseInvoke, renderInvoke, renderInvokeStream, renderTitan } from './invoke.ts';
import { bedrockMintedReplay } from './minted-replay.ts';
import { bedrockReader, MODEL_PATH } from './reader.ts';
import { randomUuid, type RandomBytes, type ResponseIdShape, type ToolCallIdShape } from '../common/ids.ts';
import { ReasoningSeal } from '../common/reasoning-seal.ts';

const SIGV4 = /^\s*AWS4-HMAC-SHA256\s+Credential=\S+/i;
const BEARER = /^\s*Bearer\s+\S/i;

function authenticate(req: IncomingRequest): CanonicalError | null {
  const auth = req.headers.get('authorization') ?? '';
  if (SIGV4.test(auth) || BEARER.test(auth)) return null;
  if (auth === '') return { status: 403, message: 'Missing Authentication Token', type: 'MissingAuthenticationTokenException', headers: {} };
  return { status: 403, message: `Authorization header requires 'Credential' parameter.`, type: 'IncompleteSignatureException', headers: {} };
}

/** What one mock keeps for Bedrock: the seal of Claude's reasoning signatures and redacted content (Converse and InvokeModel). */
interface BedrockState {
  seal: ReasoningSeal;
}

const sealOf = (state: unknown): ReasoningSeal | undefined => (state as Partial<BedrockState> | undefined)?.seal;

function parse(req: IncomingRequest, state: unknown): CanonicalRequest {
  const match = MODEL_PATH.exec(req.path);
  const modelId = match ? decodeSegment(match[1]) : null;
  if (!match || modelId === null || modelId === '') throw new BadRequestError('1 validation error detected: Value at \'modelId\' failed to satisfy constraint: Member must be a valid model identifier', 'modelId');
  const operation = match[2];
  if (operation === 'converse' || operation === 'converse-stream') return parseConverse(req, modelId, operation === 'converse-stream', sealOf(state));
  return parseInvoke(req, modelId, operation === 'invoke-with-response-stream', sealOf(state));
}

const metricHeaders = (res: CanonicalResponse, random: RandomBytes | undefined): Record<string, string> => ({
  'x-amzn-requestid': randomUuid(random),
  'x-amzn-bedrock-input-token-count': String(res.usage.inputTokens),
  'x-amzn-bedrock-output-token-count': String(res.usage.outputTokens),
  'x-amzn-bedrock-invocation-latency': '0',
});

/** InvokeModel (Anthropic's Messages bodies) rather than Converse. */
const isInvoke = (path: string) => /\/invoke(-with-response-stream)?$/.test(path);

function render(response: CanonicalResponse, request: CanonicalRequest, state: unknown, random?: RandomBytes): RenderedResponse {
  const headers = { ...metricHeaders(response, random), ...response.headers };
  if (request.provider === 'embeddings') return { status: 200, headers, json: renderTitan(response, request) };
  const converse = !isInvoke(request.path);
  const seal = sealOf(state);
  if (!request.stream) return { status: 200, headers, json: converse ? renderConverse(response, request, seal) : renderInvoke(response, request, seal) };
  const frames = converse ? renderConverseStream(response, request, seal) : renderInvokeStream(response, request, seal);
  const { chunkDelayMs, disconnectAfterChunks } = response.stream;
  // InvokeModelWithResponseStream names the body's content type in its own header.
  const streamHeaders = converse ? headers : { ...headers, 'x-amzn-bedrock-content-type': 'application/json' };
  return { status: 200, headers: streamHeaders, stream: { framing: 'binary', frames, timing: { chunkDelayMs, disconnectAfterChunks } } };
}

/**
 * What rendering reads of the request besides the answer, model, path and `stream`, for answer
 * templates: InvokeModel's what Anthropic's rendering reads (stop sequence, thinking), Converse's
 * its reasoning block's kind. (Titan embeddings never reach it: embeddings answers are rendered each time.)
 */
function templateKey(response: CanonicalResponse, request: CanonicalRequest, state: unknown): string | undefined {
  const seal = sealOf(state);
  return isInvoke(request.path) ? anthropicTemplateKey(response, request, seal) : converseTemplateKey(response, request, seal);
}

/** Claude's tool_use ids through InvokeModel: `toolu_bdrk_01` + 22 of [A-Za-z0-9] (`toolu_bdrk_01NR9pamiL6h5WqSnVZF1unz`). */
export const BEDROCK_CLAUDE_TOOL_CALL_IDS: ToolCallIdShape = { prefix: 'toolu_bdrk_01', length: 22 };

/** Claude's message ids through InvokeModel: `msg_bdrk_01` + 22 of [A-Za-z0-9]. Converse's answer carries no id. */
export const BEDROCK_CLAUDE_MESSAGE_IDS: ResponseIdShape = { prefix: 'msg_bdrk_01', length: 22 };

/**
 * Converse's toolUseIds: `tooluse_` + 22 of URL-safe base64 (`tooluse_hbTgdi0CSLq_hM4P8csZJA` in AWS's
 * Converse tool-use example; the API's pattern is `[a-zA-Z0-9_-]+`).
 */
const CONVERSE_TOOL_CALL_IDS: ToolCallIdShape = { prefix: 'tooluse_', length: 22, alphabet: 'base64url' };

/**
 * Creates the Bedrock runtime adapter.
 * @example
 *   bedrockAdapter().hosts // ['bedrock-runtime.*.amazonaws.com', 'bedrock-runtime-fips.*.amazonaws.com']
 */
export function bedrockAdapter(): ProviderAdapter & { id: 'bedrock' } {
  return {
    id: 'bedrock',
    hosts: ['bedrock-runtime.*.amazonaws.com', 'bedrock-runtime-fips.*.amazonaws.com'],
    credentials: { headers: ['authorization', 'x-amz-security-token', 'x-amz-date', 'x-amz-content-sha256'], query: ['X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token'] },
    framing: 'binary',
    routes: ({ method, path }: RouteRequest) => method === 'POST' && MODEL_PATH.test(path),
    /**
     * AWS's fingerprint: a SigV4 scope naming the `bedrock` service, or an SDK's user agent (the AWS
     * SDK's, or `@anthropic-ai/bedrock-sdk`'s `AnthropicBedrock/JS …` when it sends a Bedrock API key).
     */
    recognizes: (req: RouteRequest) =>
      /\/bedrock\/aws4_request/.test(req.headers.get('authorization') ?? '') ||
      /client-bedrock-runtime/.test(`${req.headers.get('x-amz-user-agent') ?? ''} ${req.headers.get('user-agent') ?? ''}`) ||
      /^AnthropicBedrock\//.test(req.headers.get('user-agent') ?? ''),
    authenticate,
    toolCallIds: (request: CanonicalRequest) => (isInvoke(request.path) ? BEDROCK_CLAUDE_TOOL_CALL_IDS : CONVERSE_TOOL_CALL_IDS),
    responseIds: (request: CanonicalRequest) => (isInvoke(request.path) ? BEDROCK_CLAUDE_MESSAGE_IDS : undefined),
    createState: (): BedrockState => ({ seal: new ReasoningSeal() }),
    parse,
    render,
    templateKey,
    // Event-stream messages read as text and framed again: ConverseStream and InvokeModel streams come from templates too.
    frameText: eventStreamText,
    renderError: renderBedrockError,
    renderStreamError: (error: CanonicalStreamError, { request }: StreamErrorContext) => [bedrockStreamErrorFrame(error, isInvoke(request.path))],
    reader: bedrockReader,
    mintedReplay: bedrockMintedReplay,
  };
}
