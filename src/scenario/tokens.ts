/**
 * The one token estimate of the mock (about four characters a token): the usage the engine reports
 * when a step names none, and the counts the token-counting endpoints answer, so both agree.
 */
import type { CanonicalRequest } from './canonical.ts';

/**
 * Rough token count of a text: about four characters a token, at least 1 for non-empty text.
 * @example
 *   estimateTokens('Hello, world') // 3
 */
export function estimateTokens(text: string): number {
  return tokensOfLength(text.length);
}

/**
 * The same estimate from a text's length alone (a text never built, only measured).
 * @example
 *   tokensOfLength(12) // 3
 */
export function tokensOfLength(length: number): number {
  return length === 0 ? 0 : Math.max(1, Math.ceil(length / 4));
}

/**
 * The input tokens of a request as the engine estimates them: its embedding inputs, or the text
 * of its messages joined by spaces.
 * @example
 *   estimateInputTokens(request) // the `inputTokens` a step without `usage` reports for this request
 */
export function estimateInputTokens(request: Pick<CanonicalRequest, 'messages' | 'input'>): number {
  if (request.input) return estimateTokens(request.input.join(' '));
  // The length of the joined text, without building it.
  const messages = request.messages;
  let length = Math.max(0, messages.length - 1);
  for (const m of messages) length += m.content?.length ?? 0;
  return tokensOfLength(length);
}
