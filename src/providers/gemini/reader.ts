/**
 * Reads recorded Gemini traffic: `contents` and `systemInstruction` of a request, the answer of a
 * `GenerateContentResponse` or of its SSE chunks (text concatenated, the last usage is the total).
 */
import { EMPTY_ANSWER, errorMessage, ssePayloads, type AnswerView, type MessageView, type WireReader } from '../common/views.ts';

/** The model of a Gemini method path (`/v1/models/{model}:generateContent`). */
export function geminiPathModel(path: string): string | null {
  return /\/models\/([^/:]+):/.exec(path)?.[1] ?? null;
}

function answer(body: any): AnswerView {
  if (!body || typeof body !== 'object') return EMPTY_ANSWER;
  // A stream's chunk carrying Google's error object: the stream failed there.
  if (body.error && typeof body.error === 'object') {
    const { code, message, status } = body.error;
    return { ...EMPTY_ANSWER, error: { message: String(message ?? ''), type: typeof status === 'string' ? status : null, status: typeof code === 'number' ? code : null } };
  }
  const candidate = body.candidates?.[0] ?? {};
  const parts: any[] = candidate.content?.parts ?? [];
  const meta = body.usageMetadata;
  const view: AnswerView = {
    text: parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join(''),
    toolCalls: parts.filter((p) => p.functionCall).map((p) => ({ id: p.functionCall.id ?? null, name: p.functionCall.name, arguments: p.functionCall.args ?? {} })),
    finishReason: candidate.finishReason ?? null,
    usage: meta ? usageView(meta) : null,
  };
  const thoughts = parts.filter((p) => typeof p.text === 'string' && p.thought === true).map((p) => p.text).join('');
  if (thoughts) view.reasoning = thoughts;
  return view;
}

/** Gemini counts thought tokens apart from the candidates'; a view's output tokens include them, as every API's do. */
function usageView(meta: any): NonNullable<AnswerView['usage']> {
  const thoughts = typeof meta.thoughtsTokenCount === 'number' ? meta.thoughtsTokenCount : 0;
  const usage: NonNullable<AnswerView['usage']> = { inputTokens: meta.promptTokenCount ?? 0, outputTokens: (meta.candidatesTokenCount ?? 0) + thoughts };
  if (thoughts > 0) usage.reasoningTokens = thoughts;
  return usage;
}

function merge(views: AnswerView[]): AnswerView {
  const error = views.findLast((v) => v.error)?.error;
  const reasoning = views.map((v) => v.reasoning ?? '').join('');
  return {
    ...(error ? { error } : {}),
    ...(reasoning ? { reasoning } : {}),
    text: views.map((v) => v.text).join(''),
    toolCalls: views.flatMap((v) => v.toolCalls),
    finishReason: views.map((v) => v.finishReason).filter((f) => f !== null).pop() ?? null,
    // Gemini repeats cumulative usage on chunks; the last one is the total.
    usage: views.map((v) => v.usage).filter((u) => u !== null).pop() ?? null,
  };
}

function messages(body: any): MessageView[] {
  if (!body || typeof body !== 'object') return [];
  const out: MessageView[] = body.systemInstruction ? [{ role: 'system', text: (body.systemInstruction.parts ?? []).map((p: any) => p.text ?? '').join('') }] : [];
  for (const c of body.contents ?? []) {
    const parts: any[] = c.parts ?? [];
    const plain = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('');
    const calls = parts.filter((p) => p.functionCall).map((p) => ({ name: p.functionCall.name, arguments: p.functionCall.args ?? {} }));
    if (plain || calls.length) out.push({ role: c.role === 'model' ? 'assistant' : (c.role ?? 'user'), text: plain, ...(calls.length ? { toolCalls: calls } : {}) });
    for (const p of parts.filter((q) => q.functionResponse)) out.push({ role: 'tool', text: JSON.stringify(p.functionResponse.response), answers: p.functionResponse.name });
  }
  return out;
}

/** The Gemini reader. */
export const geminiReader: WireReader = {
  conversational: true,
  // Thought signatures are minted anew by every answer (the REST API reads either spelling).
  volatileRequest: [{ at: '$.contents[*].parts[*]', drop: ['thoughtSignature', 'thought_signature'] }],
  model: (path) => geminiPathModel(path),
  messages,
  answer,
  streamedAnswer: (frames) => merge(ssePayloads(frames).map((p) => answer(p.data))),
  errorMessage,
};
