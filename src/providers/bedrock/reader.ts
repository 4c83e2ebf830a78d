/**
 * Reads recorded Bedrock traffic for goldens and `ghostwire inspect`: the model from the path,
 * Converse requests and answers, ConverseStream's binary events, and InvokeModel's Anthropic
 * bodies and `chunk` streams (read by the Anthropic reader once unwrapped).
 */
import { anthropicReader } from '../anthropic/reader.ts';
import { decodeSegment } from '../common/models.ts';
import { EMPTY_ANSWER, errorMessage, parseArgs, type AnswerView, type MessageView, type RecordedFrame, type WireReader } from '../common/views.ts';
import { anthropicFramesOf, decodeEvents } from './event-stream.ts';

export const MODEL_PATH = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

const text = (blocks: unknown): string => (Array.isArray(blocks) ? blocks.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('') : '');

function messages(body: any): MessageView[] {
  if (body?.anthropic_version !== undefined) return anthropicReader.messages(body);
  const out: MessageView[] = [];
  if (Array.isArray(body?.system)) out.push({ role: 'system', text: text(body.system) });
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    const view: MessageView = { role: String(m?.role ?? ''), text: text(m?.content) };
    const uses = (m?.content ?? []).filter((b: any) => b?.toolUse).map((b: any) => ({ name: String(b.toolUse.name ?? ''), arguments: b.toolUse.input ?? {} }));
    if (uses.length > 0) view.toolCalls = uses;
    const result = (m?.content ?? []).find((b: any) => b?.toolResult)?.toolResult;
    if (result) Object.assign(view, { answers: String(result.toolUseId ?? ''), ...(result.status === 'error' ? { isError: true } : {}) });
    out.push(view);
  }
  return out;
}

/** Redacted reasoning shows as this: its bytes are opaque. */
const REDACTED = '[redacted thinking]';

const usageView = (u: any): AnswerView['usage'] => (u ? { inputTokens: u.inputTokens ?? 0, outputTokens: u.outputTokens ?? 0 } : null);

function answer(body: any): AnswerView {
  if (body?.type === 'message') return anthropicReader.answer(body);
  if (Array.isArray(body?.embedding)) return { ...EMPTY_ANSWER, usage: { inputTokens: body.inputTextTokenCount ?? 0, outputTokens: 0 } };
  const content = body?.output?.message?.content;
  if (!Array.isArray(content)) return EMPTY_ANSWER;
  const reasoning = content.filter((b: any) => b?.reasoningContent).map((b: any) => b.reasoningContent.reasoningText?.text ?? REDACTED);
  return {
    ...(reasoning.length > 0 ? { reasoning: reasoning.join('\n') } : {}),
    text: text(content),
    toolCalls: content.filter((b: any) => b?.toolUse).map((b: any) => ({ id: b.toolUse.toolUseId ?? null, name: String(b.toolUse.name ?? ''), arguments: b.toolUse.input ?? {} })),
    finishReason: body.stopReason ?? null,
    usage: usageView(body.usage),
  };
}

/** An exception message that ended a stream: its exception's name (`ThrottlingException`) as the type. */
function exceptionView(exception: { type: string; payload: any } | undefined): Pick<AnswerView, 'error'> {
  if (!exception) return {};
  const type = exception.type.charAt(0).toUpperCase() + exception.type.slice(1);
  const status = exception.payload?.originalStatusCode;
  return { error: { message: String(exception.payload?.message ?? ''), type, status: typeof status === 'number' ? status : null } };
}

function streamedAnswer(frames: readonly RecordedFrame[]): AnswerView {
  const decoded = decodeEvents(frames);
  const events = decoded.filter((e) => !e.exception);
  const failure = exceptionView(decoded.find((e) => e.exception));
  // InvokeModelWithResponseStream: Anthropic events, base64 in `bytes`.
  const anthropic = anthropicFramesOf(events);
  if (anthropic) return { ...anthropicReader.streamedAnswer(anthropic), ...failure };
  const out: AnswerView = { text: '', toolCalls: [], finishReason: null, usage: null, ...failure };
  const inputs = new Map<number, string>();
  const reasoning = new Map<number, string>();
  for (const { type, payload } of events) {
    const index = payload?.contentBlockIndex ?? 0;
    if (type === 'contentBlockStart' && payload.start?.toolUse) {
      out.toolCalls.push({ id: payload.start.toolUse.toolUseId ?? null, name: String(payload.start.toolUse.name ?? ''), arguments: {} });
      inputs.set(index, '');
    } else if (type === 'contentBlockDelta') {
      if (typeof payload.delta?.text === 'string') out.text += payload.delta.text;
      const thought = payload.delta?.reasoningContent;
      if (thought) reasoning.set(index, (reasoning.get(index) ?? '') + (typeof thought.text === 'string' ? thought.text : thought.redactedContent !== undefined ? REDACTED : ''));
      if (typeof payload.delta?.toolUse?.input === 'string') inputs.set(index, (inputs.get(index) ?? '') + payload.delta.toolUse.input);
    } else if (type === 'messageStop') out.finishReason = payload.stopReason ?? null;
    else if (type === 'metadata') out.usage = usageView(payload.usage);
  }
  [...inputs.values()].forEach((json, i) => out.toolCalls[i] && (out.toolCalls[i].arguments = parseArgs(json)));
  if (reasoning.size > 0) out.reasoning = [...reasoning.values()].join('\n');
  return out;
}

/** The Bedrock runtime reader. */
export const bedrockReader: WireReader = {
  conversational: true,
  // Converse's reasoning signature and redacted content, and InvokeModel's Anthropic ones, are minted anew by every answer.
  volatileRequest: [
    { at: '$.messages[*].content[*].reasoningContent.reasoningText', drop: ['signature'] },
    { at: '$.messages[*].content[*].reasoningContent', drop: ['redactedContent'] },
    ...(anthropicReader.volatileRequest ?? []),
  ],
  model: (path) => {
    const m = MODEL_PATH.exec(path);
    return m ? decodeSegment(m[1]) : null;
  },
  messages,
  answer,
  streamedAnswer,
  errorMessage,
};
