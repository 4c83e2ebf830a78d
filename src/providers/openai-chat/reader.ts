/**
 * Reads recorded Chat Completions traffic: the conversation of a request, the answer of a
 * `chat.completion` body or of its `chat.completion.chunk` stream.
 */
import { bodyModel, contentText, EMPTY_ANSWER, errorMessage, parseArgs, ssePayloads, type AnswerView, type MessageView, type StreamErrorView, type WireReader } from '../common/views.ts';

/** `usage` of an OpenAI body, as input/output tokens. */
export function openAIUsageView(usage: any): AnswerView['usage'] {
  if (!usage) return null;
  const view: NonNullable<AnswerView['usage']> = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) view.reasoningTokens = reasoning;
  return view;
}

/** The reasoning (OpenAI-compatible servers' `reasoning_content`) and refusal of an answer, when present. */
function extras(reasoning: unknown, refusal: unknown): Pick<AnswerView, 'reasoning' | 'refusal'> {
  return {
    ...(typeof reasoning === 'string' && reasoning !== '' ? { reasoning } : {}),
    ...(typeof refusal === 'string' && refusal !== '' ? { refusal } : {}),
  };
}

function answer(body: any): AnswerView {
  if (!body || typeof body !== 'object') return EMPTY_ANSWER;
  const choice = body.choices?.[0] ?? {};
  const message = choice.message ?? {};
  return {
    text: typeof message.content === 'string' ? message.content : '',
    toolCalls: (message.tool_calls ?? []).map((c: any) => ({ id: c.id ?? null, name: c.function?.name ?? '', arguments: parseArgs(c.function?.arguments) })),
    finishReason: choice.finish_reason ?? null,
    usage: openAIUsageView(body.usage),
    ...extras(message.reasoning_content, message.refusal),
  };
}

function streamedAnswer(chunks: any[]): AnswerView {
  let text = '';
  let reasoning = '';
  let refusal = '';
  let finishReason: string | null = null;
  let usage: AnswerView['usage'] = null;
  let error: StreamErrorView | undefined;
  const calls = new Map<number, { id: string | null; name: string; args: string }>();
  for (const chunk of chunks) {
    // A chunk carrying `error` instead of choices: the stream failed there.
    if (chunk?.error && typeof chunk.error === 'object') error = openAIStreamErrorView(chunk.error);
    if (chunk.usage) usage = openAIUsageView(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (typeof choice.delta?.content === 'string') text += choice.delta.content;
    if (typeof choice.delta?.reasoning_content === 'string') reasoning += choice.delta.reasoning_content;
    if (typeof choice.delta?.refusal === 'string') refusal += choice.delta.refusal;
    for (const tc of choice.delta?.tool_calls ?? []) {
      const slot = calls.get(tc.index ?? 0) ?? { id: null, name: '', args: '' };
      if (tc.id) slot.id = tc.id;
      if (tc.function?.name) slot.name += tc.function.name;
      if (tc.function?.arguments) slot.args += tc.function.arguments;
      calls.set(tc.index ?? 0, slot);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => ({ id: c.id, name: c.name, arguments: parseArgs(c.args) }));
  return { text, toolCalls, finishReason, usage, ...extras(reasoning, refusal), ...(error ? { error } : {}) };
}

/**
 * An OpenAI error object met in a stream, as a view (a stream error has no HTTP status).
 * @example openAIStreamErrorView({ message: 'overloaded', type: 'server_error' }) // { message: 'overloaded', type: 'server_error', status: null }
 */
export function openAIStreamErrorView(error: any): StreamErrorView {
  return { message: String(error?.message ?? ''), type: typeof error?.type === 'string' ? error.type : null, status: null };
}

function messages(body: any): MessageView[] {
  if (!body || typeof body !== 'object') return [];
  return (body.messages ?? []).map((m: any): MessageView => ({
    role: m.role,
    text: contentText(m.content),
    ...(m.tool_calls ? { toolCalls: m.tool_calls.map((c: any) => ({ name: c.function?.name, arguments: parseArgs(c.function?.arguments) })) } : {}),
    ...(m.role === 'tool' ? { answers: m.tool_call_id } : {}),
  }));
}

/** The Chat Completions reader (also what OpenAI-compatible chat APIs read with). */
export const openAIChatReader: WireReader = {
  conversational: true,
  model: (_path, body) => bodyModel(body),
  messages,
  answer,
  streamedAnswer: (frames) => streamedAnswer(ssePayloads(frames).map((p) => p.data)),
  errorMessage,
};
