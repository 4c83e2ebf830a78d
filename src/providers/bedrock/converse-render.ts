/**
 * Bedrock Converse answers as `@aws-sdk/client-bedrock-runtime` reads them: the Converse JSON
 * (`output.message.content` blocks, `stopReason`, `usage`, `metrics`) and the ConverseStream event
 * sequence, one binary event-stream message each: messageStart, contentBlockStart/Delta/Stop,
 * messageStop, metadata.
 */
import { chunkText } from '../common/sse.ts';
import type { CanonicalResponse, FinishReason } from '../../scenario/canonical.ts';
import { eventMessage } from './event-stream.ts';

export const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  stop_sequence: 'stop_sequence',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'content_filtered',
};

const usage = (res: CanonicalResponse) => ({
  inputTokens: res.usage.inputTokens,
  outputTokens: res.usage.outputTokens,
  totalTokens: res.usage.inputTokens + res.usage.outputTokens,
});

/**
 * The Converse response body.
 * @example
 *   renderConverse(res).output.message.content // [{ text: 'Hello' }]
 */
export function renderConverse(res: CanonicalResponse): Record<string, unknown> {
  const content: unknown[] = [];
  if (res.text !== '' || res.toolCalls.length === 0) content.push({ text: res.text });
  for (const call of res.toolCalls) content.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments ?? {} } });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: STOP_REASONS[res.finishReason],
    usage: usage(res),
    metrics: { latencyMs: 0 },
  };
}

/**
 * The ConverseStream answer: one binary event-stream message per event.
 * @example
 *   renderConverseStream(res).length // messageStart, text block events, messageStop, metadata
 */
export function renderConverseStream(res: CanonicalResponse): Uint8Array[] {
  const frames = [eventMessage('messageStart', { role: 'assistant' })];
  let index = 0;
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
  frames.push(eventMessage('messageStop', { stopReason: STOP_REASONS[res.finishReason] }));
  frames.push(eventMessage('metadata', { usage: usage(res), metrics: { latencyMs: 0 } }));
  return frames;
}
