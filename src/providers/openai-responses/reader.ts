/**
 * Reads recorded Responses traffic: the input items of a request, the answer of a `response`
 * object or of its event stream (the terminal `response.completed` carries the whole response).
 */
import { openAIStreamErrorView } from '../openai-chat/reader.ts';
import { bodyModel, EMPTY_ANSWER, errorMessage, parseArgs, ssePayloads, type AnswerView, type MessageView, type WireReader } from '../common/views.ts';

function usageView(usage: any): AnswerView['usage'] {
  if (!usage) return null;
  const view: NonNullable<AnswerView['usage']> = { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 };
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) view.reasoningTokens = reasoning;
  return view;
}

function answer(body: any): AnswerView {
  if (!body || typeof body !== 'object') return EMPTY_ANSWER;
  const output: any[] = body.output ?? [];
  const text = output
    .filter((o) => o.type === 'message')
    .flatMap((o) => o.content ?? [])
    .filter((c: any) => c.type === 'output_text')
    .map((c: any) => c.text)
    .join('');
  const toolCalls = output.filter((o) => o.type === 'function_call').map((o) => ({ id: o.call_id ?? null, name: o.name, arguments: parseArgs(o.arguments) }));
  const view: AnswerView = { text, toolCalls, finishReason: body.status ?? null, usage: usageView(body.usage) };
  // The reasoning a reader can see is its summary (the rest is encrypted); a refusal is a message part of its own.
  const reasoning = output
    .filter((o) => o.type === 'reasoning')
    .flatMap((o) => o.summary ?? [])
    .map((p: any) => p.text ?? '')
    .join('\n\n');
  if (reasoning !== '') view.reasoning = reasoning;
  const refusal = output
    .filter((o) => o.type === 'message')
    .flatMap((o) => o.content ?? [])
    .filter((c: any) => c.type === 'refusal')
    .map((c: any) => c.refusal ?? '')
    .join('');
  if (refusal !== '') view.refusal = refusal;
  return view;
}

function messages(body: any): MessageView[] {
  if (!body || typeof body !== 'object') return [];
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  const out: MessageView[] = body.instructions ? [{ role: 'system', text: body.instructions }] : [];
  for (const item of input) {
    if (item.type === 'reasoning' || item.type === 'item_reference') continue;
    if (item.type === 'function_call') out.push({ role: 'assistant', text: '', toolCalls: [{ name: item.name, arguments: parseArgs(item.arguments) }] });
    else if (item.type === 'function_call_output') out.push({ role: 'tool', text: String(item.output), answers: item.call_id });
    else out.push({ role: item.role ?? 'user', text: typeof item.content === 'string' ? item.content : (item.content ?? []).map((c: any) => c.text ?? '').join('') });
  }
  return out;
}

/** The Responses reader. */
export const openAIResponsesReader: WireReader = {
  conversational: true,
  model: (_path, body) => bodyModel(body),
  messages,
  answer,
  streamedAnswer(frames) {
    const payloads = ssePayloads(frames);
    const done = payloads.find((p) => p.data?.type === 'response.completed' || p.data?.type === 'response.incomplete');
    if (done) return answer(done.data.response);
    // An `error` event ends a failed stream: its object nested under `error` (as OpenAI sends it) or flat.
    const failed = payloads.find((p) => p.event === 'error' || p.data?.type === 'error')?.data;
    const error = failed ? openAIStreamErrorView(failed.error && typeof failed.error === 'object' ? failed.error : failed) : undefined;
    return { ...EMPTY_ANSWER, text: payloads.map((p) => (p.data?.type === 'response.output_text.delta' ? p.data.delta : '')).join(''), ...(error ? { error } : {}) };
  },
  errorMessage,
};
