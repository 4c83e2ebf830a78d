/**
 * The Anthropic Messages adapter: `POST /v1/messages` (JSON or SSE), `POST /v1/messages/count_tokens`
 * and Anthropic's model listing.
 */
import type { DirectAnswer, IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { estimateInputTokens } from '../../scenario/tokens.ts';
import { parseAnthropicRequest } from './parse.ts';
import {
  anthropicTemplateKey,
  mintAnthropicRequestId,
  anthropicStreamErrorFrame,
  renderAnthropicError,
  renderAnthropicMessage,
  renderAnthropicStream,
} from './render.ts';
import { isAnthropicModelsRoute, renderAnthropicModels } from './models.ts';
import { anthropicReader } from './reader.ts';
import { jsonOrStream } from '../common/rendered.ts';
import type { RandomBytes, ResponseIdShape, ToolCallIdShape } from '../common/ids.ts';
import { ReasoningSeal } from '../common/reasoning-seal.ts';
import { ToolListMemo } from '../common/tool-list-memo.ts';
import { anthropicMintedReplay } from './minted-replay.ts';

/**
 * What one mock keeps for the Messages API: the seal that signs its thinking blocks and encrypts
 * its redacted thinking, so it can tell when code passes them back altered.
 */
export interface AnthropicState {
  seal: ReasoningSeal;
}

/** The seal in a state handed through (undefined for a caller without state). */
export const sealOf = (state: unknown): ReasoningSeal | undefined => (state as Partial<AnthropicState> | undefined)?.seal;

const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

function authError(status: number, type: string, message: string): CanonicalError {
  return { status, type, message, headers: {} };
}

/**
 * Anthropic's tool_use ids: `toolu_01` + 22 of [A-Za-z0-9] (the SDK's own examples:
 * `toolu_01D7FLrfh4GYq7yT1ULFeyMV`). Claude on Vertex and on Bedrock say so in the prefix.
 */
export const ANTHROPIC_TOOL_CALL_IDS: ToolCallIdShape = { prefix: 'toolu_01', length: 22 };

/** Anthropic's message ids: `msg_01` + 22 of [A-Za-z0-9] (the API reference's `msg_013Zva2CMHLNnXjNJJKqJ2EF`). */
export const ANTHROPIC_MESSAGE_IDS: ResponseIdShape = { prefix: 'msg_01', length: 22 };

/**
 * Creates the adapter serving Anthropic's Messages API as `@anthropic-ai/sdk` calls it.
 * @example
 *   const adapter = anthropicAdapter();
 *   adapter.routes({ method: 'POST', path: '/v1/messages', url, headers }); // true
 */
export function anthropicAdapter(): ProviderAdapter & { id: 'anthropic' } {
  // The adapter's own: tool lists are shared by text, whichever mock of the server parses them.
  const tools = new ToolListMemo();
  const authenticate = (req: IncomingRequest): CanonicalError | null => {
    const key = req.headers.get('x-api-key')?.trim();
    const bearer = /^Bearer\s+\S+/i.test(req.headers.get('authorization') ?? '');
    if (!key && !bearer) return authError(401, 'authentication_error', 'x-api-key header is required');
    if (!req.headers.get('anthropic-version')?.trim()) {
      return authError(400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    return null;
  };
  return {
    id: 'anthropic',
    hosts: ['api.anthropic.com'],
    credentials: { headers: ['x-api-key', 'authorization'], query: [] },
    framing: 'sse',
    routes: (req: RouteRequest) =>
      (req.method === 'POST' && (req.path === '/v1/messages' || req.path === '/v1/messages/' || req.path === COUNT_TOKENS_PATH)) || isAnthropicModelsRoute(req),
    /** Every Anthropic client sends `anthropic-version`; `x-api-key` is Anthropic's own key header. */
    recognizes: (req: RouteRequest) => req.headers.has('anthropic-version') || req.headers.has('x-api-key'),
    authenticate,
    /** `POST /v1/messages/count_tokens` → `{ input_tokens }`, the engine's estimate for the same request. */
    answerWithoutStep(req: IncomingRequest): DirectAnswer | null {
      if (req.path !== COUNT_TOKENS_PATH) return null;
      const request = parseAnthropicRequest(req, { countTokens: true });
      const json = { input_tokens: estimateInputTokens(request) };
      return { rendered: { status: 200, headers: { 'request-id': mintAnthropicRequestId() }, json }, request };
    },
    toolCallIds: () => ANTHROPIC_TOOL_CALL_IDS,
    responseIds: () => ANTHROPIC_MESSAGE_IDS,
    createState: (): AnthropicState => ({ seal: new ReasoningSeal() }),
    mintedReplay: anthropicMintedReplay,
    parse: (req: IncomingRequest, state: unknown) => parseAnthropicRequest(req, { seal: sealOf(state), tools }),
    render(response: CanonicalResponse, request: CanonicalRequest, state: unknown, random?: RandomBytes): RenderedResponse {
      const headers = { 'request-id': mintAnthropicRequestId(random), ...response.headers };
      const seal = sealOf(state);
      return jsonOrStream(response, request, headers, () => renderAnthropicMessage(response, request, seal), () => renderAnthropicStream(response, request, seal));
    },
    // What rendering reads of the request besides the answer, model and `stream` (stop sequence, thinking).
    templateKey: (response: CanonicalResponse, request: CanonicalRequest, state: unknown) => anthropicTemplateKey(response, request, sealOf(state)),
    renderError: (error: CanonicalError): RenderedResponse => renderAnthropicError(error),
    renderStreamError: (error: CanonicalStreamError) => [anthropicStreamErrorFrame(error)],
    listModels: (req: IncomingRequest, catalog: ModelCatalog) => renderAnthropicModels(req, catalog),
    reader: anthropicReader,
  };
}
