/**
 * Reads recorded Cohere v2 traffic for goldens and `ghostwire inspect`: chat requests, chat
 * answers (text or tool plan, tool calls, finish reason, billed tokens) whole or streamed.
 */
import { bodyModel, contentText, EMPTY_ANSWER, errorMessage, parseArgs, ssePayloads, type AnswerView, type MessageView, type RecordedFrame, type WireReader } from '../common/views.ts';

const usageView = (usage: any): AnswerView['usage'] => {
  const tokens = usage?.tokens ?? usage?.billed_units;
  return tokens ? { inputTokens: tokens.input_tokens ?? 0, outputTokens: tokens.output_tokens ?? 0 } : null;
};

function messages(body: any): MessageView[] {
  if (!Array.isArray(body?.messages)) return [];
  return body.messages.map((m: any): MessageView => {
    const view: MessageView = { role: String(m?.role ?? ''), text: contentText(m?.content) || String(m?.tool_plan ?? '') };
    if (Array.isArray(m?.tool_calls)) view.toolCalls = m.tool_calls.map((c: any) => ({ name: String(c?.function?.name ?? ''), arguments: parseArgs(c?.function?.arguments) }));
    if (typeof m?.tool_call_id === 'string') view.answers = m.tool_call_id;
    return view;
  });
}

function answer(body: any): AnswerView {
  if (body?.response_type === 'embeddings_by_type') {
    const tokens = body.meta?.billed_units?.input_tokens;
    return { ...EMPTY_ANSWER, usage: typeof tokens === 'number' ? { inputTokens: tokens, outputTokens: 0 } : null };
  }
  const m = body?.message;
  if (!m) return EMPTY_ANSWER;
  const thinking = Array.isArray(m.content) ? m.content.filter((c: any) => c?.type === 'thinking').map((c: any) => String(c.thinking ?? '')).join('') : '';
  return {
    ...(thinking ? { reasoning: thinking } : {}),
    text: contentText(m.content) || String(m.tool_plan ?? ''),
    toolCalls: (m.tool_calls ?? []).map((c: any) => ({ id: c?.id ?? null, name: String(c?.function?.name ?? ''), arguments: parseArgs(c?.function?.arguments) })),
    finishReason: body.finish_reason ?? null,
    usage: usageView(body.usage),
  };
}

function streamedAnswer(frames: readonly RecordedFrame[]): AnswerView {
  const out: AnswerView = { text: '', toolCalls: [], finishReason: null, usage: null };
  const args: string[] = [];
  for (const { data } of ssePayloads(frames)) {
    const m = data?.delta?.message;
    if (data?.type === 'content-delta') {
      out.text += m?.content?.text ?? '';
      if (typeof m?.content?.thinking === 'string') out.reasoning = (out.reasoning ?? '') + m.content.thinking;
    }
    else if (data?.type === 'tool-plan-delta') out.text += m?.tool_plan ?? '';
    else if (data?.type === 'tool-call-start') {
      out.toolCalls.push({ id: m?.tool_calls?.id ?? null, name: String(m?.tool_calls?.function?.name ?? ''), arguments: {} });
      args.push(m?.tool_calls?.function?.arguments ?? '');
    } else if (data?.type === 'tool-call-delta' && args.length > 0) args[args.length - 1] += m?.tool_calls?.function?.arguments ?? '';
    else if (data?.type === 'message-end') {
      out.finishReason = data.delta?.finish_reason ?? null;
      out.usage = usageView(data.delta?.usage);
      // Cohere's one in-stream failure: finish reason ERROR with the message in `delta.error`.
      if (typeof data.delta?.error === 'string') out.error = { message: data.delta.error, type: null, status: null };
    }
  }
  out.toolCalls.forEach((c, i) => (c.arguments = parseArgs(args[i])));
  return out;
}

/** The Cohere v2 reader. */
export const cohereReader: WireReader = {
  conversational: true,
  model: (_path, body) => bodyModel(body),
  messages,
  answer,
  streamedAnswer,
  errorMessage,
};
