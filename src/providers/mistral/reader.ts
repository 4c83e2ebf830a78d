/**
 * Reads recorded Mistral chat traffic: OpenAI-shaped chat, except that content may be a list of
 * chunks (`text`, and Magistral's `thinking` chunks, read as the answer's reasoning), whole or
 * streamed; an embeddings list only for its usage.
 */
import { bodyModel, EMPTY_ANSWER, ssePayloads, type AnswerView, type RecordedFrame, type WireReader } from '../common/views.ts';
import { openAIChatReader } from '../openai-chat/reader.ts';

/** The text and the thinking of a content value: a string, or a list of chunks. */
function split(content: unknown): { text: string; thinking: string } {
  if (typeof content === 'string') return { text: content, thinking: '' };
  if (!Array.isArray(content)) return { text: '', thinking: '' };
  let text = '';
  let thinking = '';
  for (const chunk of content as any[]) {
    if (chunk?.type === 'text' && typeof chunk.text === 'string') text += chunk.text;
    if (chunk?.type === 'thinking' && Array.isArray(chunk.thinking)) thinking += chunk.thinking.map((t: any) => (typeof t?.text === 'string' ? t.text : '')).join('');
  }
  return { text, thinking };
}

const withReasoning = (view: AnswerView, thinking: string): AnswerView => (thinking ? { ...view, reasoning: thinking } : view);

function answer(body: any): AnswerView {
  if (body?.object === 'list') return { ...EMPTY_ANSWER, usage: body.usage ? { inputTokens: body.usage.prompt_tokens ?? 0, outputTokens: 0 } : null };
  const view = openAIChatReader.answer(body);
  const { text, thinking } = split(body?.choices?.[0]?.message?.content);
  return withReasoning({ ...view, text }, thinking);
}

function streamedAnswer(frames: readonly RecordedFrame[]): AnswerView {
  const view = openAIChatReader.streamedAnswer(frames);
  let thinking = '';
  let listed = '';
  for (const { data } of ssePayloads(frames)) {
    const content = data?.choices?.[0]?.delta?.content;
    if (!Array.isArray(content)) continue;
    const part = split(content);
    thinking += part.thinking;
    listed += part.text;
  }
  return withReasoning(listed ? { ...view, text: view.text + listed } : view, thinking);
}

/** The Mistral reader. */
export const mistralReader: WireReader = { ...openAIChatReader, model: (_path, body) => bodyModel(body), answer, streamedAnswer };
