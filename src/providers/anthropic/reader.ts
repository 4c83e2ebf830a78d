/**
 * Reads recorded Anthropic Messages traffic: system prompt and content blocks of a request, the
 * answer of a `message` body or of its event stream.
 */
import { bodyModel, contentText, EMPTY_ANSWER, errorMessage, parseArgs, ssePayloads, type AnswerView, type MessageView, type StreamErrorView, type WireReader } from '../common/views.ts';

/** Redacted thinking shows as this: its data is opaque. */
const REDACTED = '[redacted thinking]';

/** The reasoning, refusal and thinking-token count of an answer, where it has them. */
function extras(blocks: Array<{ type: string; thinking?: string }>, stopReason: unknown, stopDetails: any): Partial<AnswerView> {
  const out: Partial<AnswerView> = {};
  const thoughts = blocks.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking').map((b) => (b.type === 'thinking' ? (b.thinking ?? '') : REDACTED));
  if (thoughts.length > 0) out.reasoning = thoughts.join('\n');
  if (stopReason === 'refusal') out.refusal = typeof stopDetails?.explanation === 'string' ? stopDetails.explanation : '';
  return out;
}

function usageOf(usage: any): AnswerView['usage'] {
  if (!usage) return null;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  return { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0, ...(typeof thinking === 'number' ? { reasoningTokens: thinking } : {}) };
}

function answer(body: any): AnswerView {
  if (!body || typeof body !== 'object') return EMPTY_ANSWER;
  const content: any[] = body.content ?? [];
  return {
    text: content.filter((c) => c.type === 'text').map((c) => c.text).join(''),
    toolCalls: content.filter((c) => c.type === 'tool_use').map((c) => ({ id: c.id ?? null, name: c.name, arguments: c.input ?? {} })),
    finishReason: body.stop_reason ?? null,
    usage: usageOf(body.usage),
    ...extras(content, body.stop_reason, body.stop_details),
  };
}

function streamedAnswer(events: any[]): AnswerView {
  const blocks = new Map<number, { type: string; text: string; thinking: string; id: string | null; name: string; json: string; input: unknown }>();
  let finishReason: string | null = null;
  let stopDetails: unknown = null;
  let reasoningTokens: number | undefined;
  let inputTokens = 0;
  let outputTokens = 0;
  let sawUsage = false;
  let error: StreamErrorView | undefined;
  for (const e of events) {
    if (e.type === 'error') {
      error = { message: String(e.error?.message ?? ''), type: typeof e.error?.type === 'string' ? e.error.type : null, status: null };
    } else if (e.type === 'message_start' && e.message?.usage) {
      sawUsage = true;
      inputTokens = e.message.usage.input_tokens ?? 0;
      outputTokens = e.message.usage.output_tokens ?? 0;
    } else if (e.type === 'content_block_start') {
      const b = e.content_block ?? {};
      blocks.set(e.index, { type: b.type, text: b.text ?? '', thinking: b.thinking ?? '', id: b.id ?? null, name: b.name ?? '', json: '', input: b.input });
    } else if (e.type === 'content_block_delta') {
      const b = blocks.get(e.index);
      if (!b) continue;
      if (e.delta?.type === 'text_delta') b.text += e.delta.text;
      if (e.delta?.type === 'input_json_delta') b.json += e.delta.partial_json;
      if (e.delta?.type === 'thinking_delta') b.thinking += e.delta.thinking;
    } else if (e.type === 'message_delta') {
      if (e.delta?.stop_reason) finishReason = e.delta.stop_reason;
      if (e.delta?.stop_details) stopDetails = e.delta.stop_details;
      if (typeof e.usage?.output_tokens_details?.thinking_tokens === 'number') reasoningTokens = e.usage.output_tokens_details.thinking_tokens;
      if (e.usage) {
        sawUsage = true;
        if (typeof e.usage.input_tokens === 'number') inputTokens = e.usage.input_tokens;
        if (typeof e.usage.output_tokens === 'number') outputTokens = e.usage.output_tokens;
      }
    }
  }
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
  return {
    text: ordered.filter((b) => b.type === 'text').map((b) => b.text).join(''),
    toolCalls: ordered.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, arguments: b.json ? parseArgs(b.json) : (b.input ?? {}) })),
    finishReason,
    usage: sawUsage ? { inputTokens, outputTokens, ...(reasoningTokens !== undefined ? { reasoningTokens } : {}) } : null,
    ...extras(ordered, finishReason, stopDetails),
    ...(error ? { error } : {}),
  };
}

function messages(body: any): MessageView[] {
  if (!body || typeof body !== 'object') return [];
  const out: MessageView[] = body.system ? [{ role: 'system', text: contentText(body.system) }] : [];
  for (const m of body.messages ?? []) {
    const blocks: any[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    // Keep block order: text and tool_use gather into one message, each tool_result is its own.
    let current: MessageView | null = null;
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        current = null;
        out.push({ role: 'tool', text: contentText(b.content), answers: b.tool_use_id, ...(b.is_error ? { isError: true } : {}) });
        continue;
      }
      if (b.type !== 'text' && b.type !== 'tool_use') continue;
      if (!current) {
        current = { role: m.role, text: '' };
        out.push(current);
      }
      if (b.type === 'text') current.text += b.text;
      else (current.toolCalls ??= []).push({ name: b.name, arguments: b.input });
    }
  }
  return out;
}

/** The Anthropic Messages reader. */
export const anthropicReader: WireReader = {
  conversational: true,
  // A thinking block's signature and a redacted block's data are minted anew by every answer.
  volatileRequest: [
    { at: '$.messages[*].content[*]', when: { type: 'thinking' }, drop: ['signature'] },
    { at: '$.messages[*].content[*]', when: { type: 'redacted_thinking' }, drop: ['data'] },
  ],
  model: (_path, body) => bodyModel(body),
  messages,
  answer,
  streamedAnswer: (frames) => streamedAnswer(ssePayloads(frames).map((p) => p.data)),
  errorMessage,
};
