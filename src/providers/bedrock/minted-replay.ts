/**
 * Goldens' strict replay for the Bedrock runtime: the reasoning values a replay served, read from its
 * answers, so the live rules (converse-reasoning.ts for Converse, the Messages API's thinking.ts for
 * InvokeModel's Anthropic bodies) accept those and refuse any other. Converse answers carry
 * `reasoningContent` blocks (a body's `output.message.content`, or ConverseStream's
 * `contentBlockDelta` events: text pieces, then the signature, or `redactedContent`);
 * InvokeModel answers are Anthropic messages, InvokeModelWithResponseStream's Anthropic events
 * base64 inside `chunk` events, read by the Anthropic replay once unwrapped.
 */
import type { MintedReplay, ServedAnswer } from '../adapter.ts';
import { ANTHROPIC_MINTED_RULES, serveAnthropicThinking } from '../anthropic/minted-replay.ts';
import { THINKING_PURPOSE } from '../anthropic/thinking.ts';
import type { ServedSeal } from '../common/served-seal.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import { anthropicFramesOf, decodeEvents, type DecodedEvent } from './event-stream.ts';

/** A `reasoningContent` as served: its text and signature, or redacted bytes (base64, as JSON carries them). */
interface ServedReasoningBlock {
  text: string;
  signature: string;
  redacted: string | null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function blockOf(reasoning: Json): ServedReasoningBlock {
  const text = isObject(reasoning.reasoningText) ? reasoning.reasoningText : {};
  return { text: str(text.text), signature: str(text.signature), redacted: typeof reasoning.redactedContent === 'string' ? reasoning.redactedContent : null };
}

/** Tells the seal what Converse reasoning blocks served: signatures for their text, redacted content as sealed. */
function serveConverse(seal: ServedSeal, blocks: Iterable<ServedReasoningBlock>): void {
  for (const block of blocks) {
    if (block.redacted !== null) seal.servedSealed(block.redacted, '');
    else seal.servedSignature(THINKING_PURPOSE, block.text, block.signature);
  }
}

/** A ConverseStream's reasoning blocks, assembled from its `contentBlockDelta` events by `contentBlockIndex`. */
function streamedReasoning(events: readonly DecodedEvent[]): ServedReasoningBlock[] {
  const blocks = new Map<number, ServedReasoningBlock>();
  for (const { type, payload } of events) {
    const delta = isObject(payload) && isObject(payload.delta) ? payload.delta.reasoningContent : undefined;
    if (type !== 'contentBlockDelta' || !isObject(delta)) continue;
    const index = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : 0;
    let block = blocks.get(index);
    if (!block) blocks.set(index, (block = { text: '', signature: '', redacted: null }));
    block.text += str(delta.text);
    block.signature += str(delta.signature);
    if (typeof delta.redactedContent === 'string') block.redacted = (block.redacted ?? '') + delta.redactedContent;
  }
  return [...blocks.values()];
}

/** Tells the seal what one Bedrock runtime answer served, whichever operation it answered. */
function serveBedrock(seal: ServedSeal, answer: ServedAnswer): void {
  if (answer.frames) {
    const events = decodeEvents(answer.frames).filter((e) => !e.exception);
    // InvokeModelWithResponseStream: the Anthropic events inside, as the Anthropic replay reads a stream.
    const anthropic = anthropicFramesOf(events);
    return anthropic ? serveAnthropicThinking(seal, { frames: anthropic }) : serveConverse(seal, streamedReasoning(events));
  }
  if (isObject(answer.json) && answer.json.type === 'message') return serveAnthropicThinking(seal, answer);
  const output = isObject(answer.json) && isObject(answer.json.output) ? answer.json.output : {};
  const content = isObject(output.message) && Array.isArray(output.message.content) ? output.message.content : [];
  serveConverse(seal, content.filter(isObject).flatMap((b) => (isObject(b.reasoningContent) ? [blockOf(b.reasoningContent)] : [])));
}

/** The rules about reasoning values a replay checks: Converse's signature and redacted content, InvokeModel's (the Messages API's). */
export const BEDROCK_MINTED_RULES = ['bedrock.thinking-signature', 'bedrock.redacted-thinking-data', ...ANTHROPIC_MINTED_RULES] as const;

/**
 * The Bedrock runtime's strict replay: its state is the seal itself (`{ seal }`, as `createState`
 * makes), one for Converse and InvokeModel as the live mock keeps one.
 * @example adapter.mintedReplay!.served(state, seal, body, { frames })
 */
export const bedrockMintedReplay: MintedReplay<unknown> = {
  state: (seal) => ({ seal }),
  served: (_state, seal, _body, answer) => serveBedrock(seal, answer),
  rules: BEDROCK_MINTED_RULES,
};
