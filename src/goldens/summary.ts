import type { AnswerView } from '../providers/index.ts';
import type { AnswerSummary } from './schema.ts';

/**
 * The value of an answer whose whole text is a JSON object or array (a structured answer), else
 * undefined: kept beside the text so golden diffs and drift show the object, not an escaped string.
 * @example structuredValue('{"city":"Paris"}') // { city: 'Paris' }
 */
export function structuredValue(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The readable summary a golden keeps of an answer, from its provider's reader: text and tool
 * calls, the reasoning and refusal when it carried them, a structured answer's value.
 * @example answerSummary({ text: '{"a":1}', toolCalls: [], finishReason: 'stop', usage: null }).json // { a: 1 }
 */
export function answerSummary(view: AnswerView): AnswerSummary {
  const json = structuredValue(view.text);
  return {
    text: view.text,
    toolCalls: view.toolCalls,
    finishReason: view.finishReason,
    ...(view.reasoning ? { reasoning: view.reasoning } : {}),
    ...(view.refusal ? { refusal: view.refusal } : {}),
    ...(json !== undefined ? { json } : {}),
    ...(view.error ? { error: view.error } : {}),
  };
}
