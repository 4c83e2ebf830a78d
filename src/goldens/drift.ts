import type { GoldenFile } from './schema.ts';
import { compareValues } from './compare.ts';
import { Masker } from './masks.ts';
import { sameJson } from './normalize.ts';
import { structuredValue } from './summary.ts';

const NO_MASKS = new Masker({ defaults: false });

/**
 * Where a re-recorded golden differs from the previous recording in behaviour: the tool-call sequence
 * (names and arguments, in order) or the final answer. Empty when nothing drifted.
 * @example describeDrift(oldGolden, newGolden) // ['final answer: "Sunny" → "Rainy"']
 */
export function describeDrift(before: GoldenFile, after: GoldenFile): string[] {
  const drift: string[] = [];
  const callsBefore = toolCalls(before);
  const callsAfter = toolCalls(after);
  const names = (calls: typeof callsBefore): string => calls.map((c) => c.name).join(' → ') || '(none)';
  if (names(callsBefore) !== names(callsAfter)) {
    drift.push(`tool calls: ${names(callsBefore)}  ⇒  ${names(callsAfter)}`);
  } else {
    callsBefore.forEach((c, i) => {
      if (!sameJson(c.arguments, callsAfter[i].arguments)) {
        drift.push(`tool call ${i + 1} (${c.name}) arguments: ${JSON.stringify(c.arguments)} ⇒ ${JSON.stringify(callsAfter[i].arguments)}`);
      }
    });
  }
  const answerBefore = finalAnswer(before);
  const answerAfter = finalAnswer(after);
  const objectBefore = finalJson(before);
  const objectAfter = finalJson(after);
  if (objectBefore !== undefined && objectAfter !== undefined) {
    // A structured answer drifts field by field: the object's changes, not two escaped strings.
    const { diff } = compareValues(objectBefore, objectAfter, { masker: NO_MASKS });
    if (diff) drift.push(`final answer (JSON):\n${diff}`);
  } else if (answerBefore !== answerAfter) drift.push(`final answer: ${JSON.stringify(answerBefore)} ⇒ ${JSON.stringify(answerAfter)}`);
  const failuresBefore = streamErrors(before);
  const failuresAfter = streamErrors(after);
  if (failuresBefore.join('\n') !== failuresAfter.join('\n')) {
    const list = (errors: string[]) => (errors.length > 0 ? errors.map((e) => JSON.stringify(e)).join(', ') : '(none)');
    drift.push(`stream errors: ${list(failuresBefore)} ⇒ ${list(failuresAfter)}`);
  }
  return drift;
}

/**
 * Every tool call the model made across the conversation, in order.
 * @example
 *   toolCalls(readGolden(file)).map((c) => c.name) // ['get_weather', 'send_email']
 */
export function toolCalls(golden: GoldenFile): Array<{ name: string; arguments: unknown }> {
  return golden.interactions.flatMap((i) => (i.summary?.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments })));
}

/**
 * The messages of the streams that ended with the API's own error event, in order.
 * @example
 *   streamErrors(readGolden(file)) // ['Overloaded']
 */
export function streamErrors(golden: GoldenFile): string[] {
  return golden.interactions.flatMap((i) => (i.summary?.error ? [i.summary.error.message] : []));
}

/**
 * The value of the last answer that carried text, when that text is a structured (JSON) answer.
 * @example
 *   finalJson(readGolden(file)) // { city: 'Paris', temperature: 21 }, or undefined for a text answer
 */
export function finalJson(golden: GoldenFile): unknown {
  for (let i = golden.interactions.length - 1; i >= 0; i--) {
    const summary = golden.interactions[i].summary;
    // Goldens recorded before summaries kept `json` are read from their text.
    if (summary?.text) return summary.json ?? structuredValue(summary.text);
  }
  return undefined;
}

/**
 * The text of the last answer that carried text.
 * @example
 *   finalAnswer(readGolden(file)) // the last text the model answered, or null
 */
export function finalAnswer(golden: GoldenFile): string | null {
  for (let i = golden.interactions.length - 1; i >= 0; i--) {
    const text = golden.interactions[i].summary?.text;
    if (text) return text;
  }
  return null;
}
