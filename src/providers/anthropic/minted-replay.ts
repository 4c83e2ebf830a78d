/**
 * Goldens' strict replay for the Messages API (and Claude on Vertex, which takes the same bodies):
 * the thinking `signature`s and `redacted_thinking` `data` a replay served, read from its answers
 * (a message body, or a stream's `content_block_start` / `thinking_delta` / `signature_delta` events),
 * so the thinking rules (thinking.ts) accept those and refuse any other.
 */
import type { MintedReplay, ServedAnswer } from '../adapter.ts';
import type { ServedSeal } from '../common/served-seal.ts';
import { ssePayloads } from '../common/views.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import { THINKING_PURPOSE } from './thinking.ts';

/** A thinking block as served: its text and signature, or a redacted block's data. */
interface ServedBlock {
  type: string;
  thinking: string;
  signature: string;
  data: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function blockOf(b: Json): ServedBlock {
  return { type: str(b.type), thinking: str(b.thinking), signature: str(b.signature), data: str(b.data) };
}

/** The content blocks an answer carried, a stream's assembled from its events. */
function servedBlocks(answer: ServedAnswer): ServedBlock[] {
  if (answer.frames) {
    const blocks = new Map<number, ServedBlock>();
    for (const { data } of ssePayloads(answer.frames)) {
      if (!isObject(data) || typeof data.index !== 'number') continue;
      if (data.type === 'content_block_start' && isObject(data.content_block)) blocks.set(data.index, blockOf(data.content_block));
      const block = blocks.get(data.index);
      if (data.type !== 'content_block_delta' || !block || !isObject(data.delta)) continue;
      if (data.delta.type === 'thinking_delta') block.thinking += str(data.delta.thinking);
      if (data.delta.type === 'signature_delta') block.signature += str(data.delta.signature);
    }
    return [...blocks.values()];
  }
  const content = isObject(answer.json) && Array.isArray(answer.json.content) ? answer.json.content : [];
  return content.filter(isObject).map(blockOf);
}

/** Tells the seal the thinking signatures and redacted data an answer served. */
export function serveAnthropicThinking(seal: ServedSeal, answer: ServedAnswer): void {
  for (const block of servedBlocks(answer)) {
    if (block.type === 'thinking') seal.servedSignature(THINKING_PURPOSE, block.thinking, block.signature);
    if (block.type === 'redacted_thinking') seal.servedSealed(block.data, '');
  }
}

/** The rules about thinking values a replay checks: altered, foreign or dropped signatures and data. */
export const ANTHROPIC_MINTED_RULES = ['anthropic.thinking-signature', 'anthropic.redacted-thinking-data'] as const;

/**
 * The Messages API's strict replay: its state is the seal itself (`{ seal }`, as `createState` makes).
 * @example adapter.mintedReplay!.served(state, seal, body, { json: message })
 */
export const anthropicMintedReplay: MintedReplay<unknown> = {
  state: (seal) => ({ seal }),
  served: (_state, seal, _body, answer) => serveAnthropicThinking(seal, answer),
  rules: ANTHROPIC_MINTED_RULES,
};
