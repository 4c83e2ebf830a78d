/**
 * Reads recorded Ollama traffic: chat messages or a generate prompt, and the answer of one JSON
 * body or of its NDJSON lines (text concatenated, the `done` line carries the reason and counts).
 */
import { bodyModel, EMPTY_ANSWER, type AnswerView, type MessageView, type RecordedFrame, type StreamErrorView, type WireReader } from '../common/views.ts';

function answer(body: any): AnswerView {
  if (!body || typeof body !== 'object') return EMPTY_ANSWER;
  const usage = typeof body.prompt_eval_count === 'number' ? { inputTokens: body.prompt_eval_count, outputTokens: body.eval_count ?? 0 } : null;
  if (Array.isArray(body.embeddings)) return { ...EMPTY_ANSWER, usage: usage && { ...usage, outputTokens: 0 } };
  const message = body.message ?? {};
  const view: AnswerView = {
    text: typeof message.content === 'string' ? message.content : typeof body.response === 'string' ? body.response : '',
    toolCalls: (message.tool_calls ?? []).map((c: any) => ({ id: null, name: c.function?.name ?? '', arguments: c.function?.arguments ?? {} })),
    finishReason: body.done ? (body.done_reason ?? null) : null,
    usage: body.done ? usage : null,
  };
  const thinking = message.thinking ?? body.thinking;
  if (typeof thinking === 'string' && thinking !== '') view.reasoning = thinking;
  return view;
}

function streamedAnswer(frames: readonly RecordedFrame[]): AnswerView {
  let error: StreamErrorView | undefined;
  const views = frames.flatMap((f) => {
    if (typeof f !== 'string' || f.trim() === '') return [];
    try {
      const line = JSON.parse(f);
      // An `{"error": …}` line ends a failed stream.
      if (typeof line?.error === 'string') error = { message: line.error, type: null, status: null };
      return [answer(line)];
    } catch {
      return [];
    }
  });
  const reasoning = views.map((v) => v.reasoning ?? '').join('');
  return {
    ...(error ? { error } : {}),
    ...(reasoning ? { reasoning } : {}),
    text: views.map((v) => v.text).join(''),
    toolCalls: views.flatMap((v) => v.toolCalls),
    finishReason: views.map((v) => v.finishReason).filter((r) => r !== null).pop() ?? null,
    usage: views.map((v) => v.usage).filter((u) => u !== null).pop() ?? null,
  };
}

function messages(body: any): MessageView[] {
  if (!body || typeof body !== 'object') return [];
  if (!Array.isArray(body.messages)) {
    const out: MessageView[] = body.system ? [{ role: 'system', text: String(body.system) }] : [];
    if (typeof body.prompt === 'string') out.push({ role: 'user', text: body.prompt });
    return out;
  }
  return body.messages.map((m: any): MessageView => ({
    role: m.role,
    text: typeof m.content === 'string' ? m.content : '',
    ...(m.tool_calls ? { toolCalls: m.tool_calls.map((c: any) => ({ name: c.function?.name, arguments: c.function?.arguments ?? {} })) } : {}),
    ...(m.role === 'tool' && m.tool_name ? { answers: m.tool_name } : {}),
  }));
}

/** The Ollama reader. */
export const ollamaReader: WireReader = {
  conversational: true,
  model: (_path, body) => bodyModel(body),
  messages,
  answer,
  streamedAnswer,
  errorMessage: (body: any) => (typeof body?.error === 'string' ? body.error : null),
};
