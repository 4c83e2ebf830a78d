/**
 * InvokeModel and InvokeModelWithResponseStream, for the bodies ghostwire speaks: Anthropic
 * Messages bodies (`anthropic_version: bedrock-2023-05-31`, no `model`: it is in the path), read
 * and answered by the Anthropic adapter's own parser and renderer, the stream wrapped as `chunk`
 * events of base64 `bytes`; and Titan text embeddings (`inputText`, `dimensions` 256/512/1024).
 */
import type { IncomingRequest } from '../adapter.ts';
import { requestWith } from '../adapter.ts';
import { parseAnthropicRequest } from '../anthropic/parse.ts';
import { anthropicAnswer, renderAnthropicMessage, renderAnthropicStream } from '../anthropic/render.ts';
import { embeddingModel } from '../common/embedding-models.ts';
import { withPrefix } from '../common/ids.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { ssePayloads } from '../common/views.ts';
import { headerRecord, parseJsonObject, restParams } from '../common/wire-json.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { validation } from './converse-parse.ts';
import { eventMessage } from './event-stream.ts';

/** Titan v2 answers these sizes only. */
const TITAN_V2_SIZES = [256, 512, 1024];

export const isTitanEmbed = (modelId: string): boolean => /amazon\.titan-embed-text/.test(modelId);

/**
 * Parses an InvokeModel body for `modelId`: Titan embeddings, else an Anthropic Messages body.
 * @example
 *   parseInvoke(req, 'anthropic.claude-3-haiku-20240307-v1:0', false).provider // 'bedrock'
 */
export function parseInvoke(req: IncomingRequest, modelId: string, stream: boolean, seal?: ReasoningSeal): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  if (isTitanEmbed(modelId)) return parseTitan(req, body, modelId);
  if (body.anthropic_version === undefined) {
    throw validation('anthropic_version', 'ghostwire answers InvokeModel with Anthropic Messages bodies (anthropic_version) or Titan embeddings (inputText)');
  }
  // The Anthropic parser wants `model` in the body; on Bedrock it is the path's.
  const canonical = parseAnthropicRequest(requestWith(req, { bodyText: JSON.stringify({ ...body, model: modelId }) }), { seal });
  return { ...canonical, provider: 'bedrock', model: modelId, stream, raw: body };
}

function parseTitan(req: IncomingRequest, body: Record<string, unknown>, modelId: string): CanonicalRequest {
  if (typeof body.inputText !== 'string' || body.inputText === '') throw validation('inputText', 'Member must not be null or empty');
  const model = embeddingModel(modelId);
  let dimensions = model.dimensions;
  if (body.dimensions !== undefined) {
    if (model.maxDimensions === 0 || !TITAN_V2_SIZES.includes(body.dimensions as number)) {
      throw validation('dimensions', model.maxDimensions === 0 ? `${modelId} takes no dimensions` : `Member must be one of ${TITAN_V2_SIZES.join(', ')}`);
    }
    dimensions = body.dimensions as number;
  }
  return {
    provider: 'embeddings',
    path: req.path,
    model: modelId,
    stream: false,
    messages: [{ role: 'user', content: body.inputText }],
    tools: [],
    headers: headerRecord(req.headers),
    params: restParams(body, ['inputText', 'dimensions']),
    input: [body.inputText],
    dimensions,
    raw: body,
  };
}

/** The Titan embeddings answer: one vector, and by type when `embeddingTypes` asked for it. */
export function renderTitan(res: CanonicalResponse, request: CanonicalRequest): Record<string, unknown> {
  const embedding = res.embeddings?.[0] ?? [];
  const out: Record<string, unknown> = { embedding, inputTextTokenCount: res.usage.inputTokens };
  const types = request.params.embeddingTypes;
  if (Array.isArray(types)) {
    out.embeddingsByType = Object.fromEntries(types.map((t) => [t, t === 'binary' ? embedding.map((v) => (v > 0 ? 1 : 0)) : embedding]));
  }
  return out;
}

/** The prefix of the message ids Claude on Bedrock answers with (`msg_bdrk_01…`). */
export const BEDROCK_MESSAGE_ID_PREFIX = 'msg_bdrk_';

const bedrockIds = (res: CanonicalResponse): CanonicalResponse => ({ ...res, id: withPrefix(BEDROCK_MESSAGE_ID_PREFIX, res.id) });

/** The Anthropic message InvokeModel answers with. */
export const renderInvoke = (res: CanonicalResponse, request: CanonicalRequest, seal?: ReasoningSeal): Record<string, unknown> =>
  renderAnthropicMessage(bedrockIds(res), request, seal);

/**
 * The InvokeModelWithResponseStream answer: each Anthropic stream event as a `chunk` event whose
 * `bytes` are the event's JSON, base64; the last one carries Bedrock's invocation metrics.
 * @example
 *   renderInvokeStream(res, req)[0] // chunk event of { type: 'message_start', ... }
 */
export function renderInvokeStream(res: CanonicalResponse, request: CanonicalRequest, seal?: ReasoningSeal): Uint8Array[] {
  const events = ssePayloads(renderAnthropicStream(bedrockIds(res), request, seal)).filter((e) => e.event !== 'ping');
  // The metrics count what the message counts: no thinking when Claude does not think on the request.
  const { inputTokens, outputTokens } = anthropicAnswer(res, request).usage;
  return events.map(({ data }) => {
    const payload =
      data.type === 'message_stop'
        ? { ...data, 'amazon-bedrock-invocationMetrics': { inputTokenCount: inputTokens, outputTokenCount: outputTokens, invocationLatency: 0, firstByteLatency: 0 } }
        : data;
    return eventMessage('chunk', { bytes: Buffer.from(JSON.stringify(payload)).toString('base64') });
  });
}
