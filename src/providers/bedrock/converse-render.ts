/**
 * Bedrock Converse answers as `@aws-sdk/client-bedrock-runtime` reads them: the Converse JSON
 * (`output.message.content` blocks, `stopReason`, `usage`, `metrics`) and the ConverseStream event
 * sequence, one binary event-stream message each: messageStart, contentBlockStart/Delta/Stop,
 * messageStop, metadata.
 */
import { chunkText } from '../common/sse.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { reasoningUsage } from '../common/reasoning-usage.ts';
import type { CanonicalRequest, CanonicalResponse, FinishReason } from '../../scenario/canonical.ts';
import { THINKING_PURPOSE } from '../anthropic/thinking.ts';
import { isClaude, requestThinking } from './converse-reasoning.ts';
import { eventMessage } from './event-stream.ts';

export const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  stop_sequence: 'stop_sequence',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'content_filtered',
};

/**
 * Converse's usage: the reasoning counts into `outputTokens` only when the model reasons on the
 * request (`reasons`); Claude without `additionalModelRequestFields.thinking` has none to bill
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html).
 */
function usage(res: CanonicalResponse, request: CanonicalRequest | undefined) {
  const { inputTokens, outputTokens } = reasoningUsage(res.usage, request === undefined || reasons(request));
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** A reasoning block as Converse carries it: text with (Claude's) signature, or redacted bytes (base64 in JSON). */
type Reasoning = { reasoningText: { text: string; signature?: string } } | { redactedContent: string };

/** The kind of reasoning block an answer opens with: none, redacted, signed (Claude's) or unsigned text. */
type ReasoningKind = null | 'redacted' | 'signed' | 'unsigned';

/**
 * Does the model reason on this request? Claude only with `additionalModelRequestFields.thinking`
 * on (other reasoning models always), and, in a tool loop already under way, only when its
 * thinking is interleaved.
 */
function reasons(request: CanonicalRequest): boolean {
  const mode = requestThinking(request);
  if (!mode.enabled) return false;
  const messages = Array.isArray((request.raw as { messages?: unknown })?.messages) ? (request.raw as { messages: any[] }).messages : [];
  const last = messages.at(-1);
  const inLoop = last?.role === 'user' && Array.isArray(last.content) && last.content.some((b: any) => b?.toolResult);
  return !inLoop || mode.interleaved;
}

/** Which `reasoningContent` an answer opens with: one only when the model reasons on the request (`reasons`). */
function reasoningKind(res: CanonicalResponse, request: CanonicalRequest | undefined, seal: ReasoningSeal | undefined): ReasoningKind {
  if (!res.reasoning || !request || !seal || !reasons(request)) return null;
  if (res.reasoning.redacted) return 'redacted';
  // Claude signs its reasoning; other models' reasoning carries no signature.
  return isClaude(request.model) ? 'signed' : 'unsigned';
}

/** The `reasoningContent` an answer opens with (see `reasoningKind`), signed or encrypted with this mock's seal. */
function reasoningOf(res: CanonicalResponse, request: CanonicalRequest | undefined, seal: ReasoningSeal | undefined): Reasoning | null {
  const kind = reasoningKind(res, request, seal);
  if (kind === null) return null;
  const text = res.reasoning!.text;
  if (kind === 'redacted') return { redactedContent: seal!.encrypt(text) };
  return { reasoningText: { text, ...(kind === 'signed' ? { signature: seal!.sign(THINKING_PURPOSE, text) } : {}) } };
}

/**
 * What a Converse answer reads of the request besides its model, path and `stream`, for answer
 * templates: the reasoning block's kind, a signed one under this mock's seal's id (its templates are
 * that seal's alone); undefined for redacted reasoning, encrypted afresh each time.
 * @example
 *   converseTemplateKey(res, request, seal) // 'null' for an answer without reasoning
 */
export function converseTemplateKey(res: CanonicalResponse, request: CanonicalRequest, seal: ReasoningSeal | undefined): string | undefined {
  const kind = reasoningKind(res, request, seal);
  if (kind === 'redacted') return undefined;
  // Without a seal there is no block, but a reasoning request still counts the reasoning: not keyed by kind alone.
  if (!seal && res.reasoning && reasons(request)) return undefined;
  return JSON.stringify(kind === 'signed' ? `${kind}:${seal!.id}` : kind);
}

/** Converse has no refusal field: a refusal stops as `content_filtered`. */
const stopReason = (res: CanonicalResponse): string => (res.refusal !== undefined ? 'content_filtered' : STOP_REASONS[res.finishReason]);

/**
 * The Converse response body.
 * @example
 *   renderConverse(res).output.message.content // [{ text: 'Hello' }]
 */
export function renderConverse(res: CanonicalResponse, request?: CanonicalRequest, seal?: ReasoningSeal): Record<string, unknown> {
  const content: unknown[] = [];
  const reasoning = reasoningOf(res, request, seal);
  if (reasoning) content.push({ reasoningContent: reasoning });
  if (res.text !== '' || res.toolCalls.length === 0) content.push({ text: res.text });
  for (const call of res.toolCalls) content.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments ?? {} } });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: stopReason(res),
    usage: usage(res, request),
    metrics: { latencyMs: 0 },
  };
}

/**
 * The ConverseStream answer: one binary event-stream message per event.
 * @example
 *   renderConverseStream(res).length // messageStart, text block events, messageStop, metadata
 */
export function renderConverseStream(res: CanonicalResponse, request?: CanonicalRequest, seal?: ReasoningSeal): Uint8Array[] {
  const frames = [eventMessage('messageStart', { role: 'assistant' })];
  let index = 0;
  const reasoning = reasoningOf(res, request, seal);
  if (reasoning) {
    const deltas: unknown[] =
      'redactedContent' in reasoning
        ? [{ redactedContent: reasoning.redactedContent }]
        : [
            ...chunkText(reasoning.reasoningText.text, res.stream.chunkSize).map((text) => ({ text })),
            // The signature closes the block, after its text.
            ...(reasoning.reasoningText.signature ? [{ signature: reasoning.reasoningText.signature }] : []),
          ];
    for (const delta of deltas) frames.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: delta } }));
    frames.push(eventMessage('contentBlockStop', { contentBlockIndex: index }));
    index += 1;
  }
  if (res.text !== '' || res.toolCalls.length === 0) {
    for (const piece of res.stream.chunks ?? chunkText(res.text, res.stream.chunkSize)) {
      frames.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { text: piece } }));
    }
    frames.push(eventMessage('contentBlockStop', { contentBlockIndex: index }));
    index += 1;
  }
  for (const call of res.toolCalls) {
    frames.push(eventMessage('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: call.id, name: call.name } } }));
    const input = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    for (const piece of chunkText(input, res.stream.chunkSize)) {
      frames.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: piece } } }));
    }
    frames.push(eventMessage('contentBlockStop', { contentBlockIndex: index }));
    index += 1;
  }
  frames.push(eventMessage('messageStop', { stopReason: stopReason(res) }));
  frames.push(eventMessage('metadata', { usage: usage(res, request), metrics: { latencyMs: 0 } }));
  return frames;
}
