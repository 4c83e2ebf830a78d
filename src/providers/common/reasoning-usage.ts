/**
 * The usage an answer reports, by whether the request reasons. The engine counts a step's scripted
 * reasoning into the output tokens, but only the provider can tell whether a request reasons at all
 * (Anthropic without `thinking`, Gemini `thinkingBudget: 0`, an OpenAI chat model or effort `none`):
 * the real APIs count no reasoning tokens there, so the adapter reports none. See
 * docs/decisions/reasoning-off-usage.md.
 */
import type { CanonicalResponse, CanonicalUsage } from '../../scenario/canonical.ts';

/**
 * The usage to report: the engine's on a request that reasons; on one that does not, no reasoning
 * tokens, and output tokens without the reasoning the engine estimated (scripted output tokens are
 * the author's and stay as written).
 * @example
 *   reasoningUsage({ inputTokens: 5, outputTokens: 12, reasoningTokens: 9, outputTokensWithoutReasoning: 3 }, false)
 *   // { inputTokens: 5, outputTokens: 3 }
 */
export function reasoningUsage(usage: CanonicalUsage, reasons: boolean): CanonicalUsage {
  if (reasons || usage.reasoningTokens === undefined) return usage;
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokensWithoutReasoning ?? usage.outputTokens };
}

/**
 * The answer with the usage it reports (see `reasoningUsage`): the same object when nothing changes.
 * @example
 *   withReasoningUsage(response, thinkingOn(request)).usage.reasoningTokens // undefined when thinking is off
 */
export function withReasoningUsage(response: CanonicalResponse, reasons: boolean): CanonicalResponse {
  const usage = reasoningUsage(response.usage, reasons);
  return usage === response.usage ? response : { ...response, usage };
}
