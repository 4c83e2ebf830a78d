/**
 * Which models reason, as the OpenAI APIs treat them: a reasoning model (o-series, gpt-5, codex)
 * answers with a `reasoning` item (Responses) and counts `reasoning_tokens`; a chat model (gpt-4o,
 * gpt-4.1, gpt-5-chat) does neither. Mock users name models freely (`m`, a deployment name), so only
 * the known non-reasoning OpenAI families are treated as non-reasoning: a scenario that scripts
 * reasoning for any other name gets it rendered.
 */

/** OpenAI chat model families that never reason (they answer without reasoning items or tokens). */
const NON_REASONING = /^(gpt-4|gpt-3\.5|chatgpt-|gpt-5(\.\d+)?-chat|gpt-audio|gpt-realtime|davinci|babbage)/;

/**
 * gpt-5.1 (and its snapshots) defaults to effort `none`, "which does not perform reasoning"; earlier
 * models default to `medium` (the API reference's `reasoning_effort`,
 * https://platform.openai.com/docs/api-reference/chat/create).
 */
const DEFAULTS_TO_NO_REASONING = /^gpt-5\.1(-\d{4}-\d{2}-\d{2})?$/;

/**
 * Models OpenAI serves (its own names); anything else behind a Chat Completions URL is an
 * OpenAI-compatible server's. gpt-oss is OpenAI's open-weight model, served by others (vLLM, Groq, Ollama).
 */
const OPENAI_MODEL = /^(gpt-(?!oss)|o\d|chatgpt-|codex-|computer-use-|davinci|babbage)/;

/** A model name without a fine-tune prefix (`ft:gpt-4o-mini:org::id` → `gpt-4o-mini:org::id`). */
function bare(model: string): string {
  const lower = model.toLowerCase();
  return lower.startsWith('ft:') ? lower.slice(3) : lower;
}

/**
 * Does this model reason, as the OpenAI APIs treat it? False only for known non-reasoning families.
 * @example
 *   reasoningModel('o4-mini') // true
 *   reasoningModel('gpt-4o') // false
 */
export function reasoningModel(model: string): boolean {
  return !NON_REASONING.test(bare(model));
}

/**
 * Is this one of OpenAI's own model names? OpenAI-compatible servers (DeepSeek, vLLM, Qwen) serve
 * other names, and they are the ones that send `reasoning_content` on Chat Completions.
 * @example
 *   openAIModel('gpt-5-mini') // true
 *   openAIModel('deepseek-reasoner') // false
 */
export function openAIModel(model: string): boolean {
  return OPENAI_MODEL.test(bare(model));
}

/** A request's reasoning effort: Chat Completions' `reasoning_effort`, or the Responses API's `reasoning.effort`. */
function effortOf(params: Record<string, unknown>): unknown {
  if (params.reasoning_effort !== undefined && params.reasoning_effort !== null) return params.reasoning_effort;
  const reasoning = params.reasoning;
  return typeof reasoning === 'object' && reasoning !== null ? (reasoning as { effort?: unknown }).effort : undefined;
}

/**
 * Does this request reason, as the OpenAI APIs treat it? Not with a chat model (`reasoningModel`),
 * nor with effort `none` (gpt-5.1 and later: "does not perform reasoning"), nor with gpt-5.1 left
 * without an effort (its default is `none`). Those answers carry no reasoning and count no
 * reasoning tokens; o-series and gpt-5 reason by default, and bill it even where the wire never
 * shows it. `params` are the request's top-level fields (Chat's `params`, a Responses body).
 * @example
 *   requestReasons('gpt-5.1', { reasoning_effort: 'low' }) // true
 *   requestReasons('gpt-5.1', {}) // false
 *   requestReasons('o4-mini', { reasoning: { effort: 'none' } }) // false
 */
export function requestReasons(model: string, params: Record<string, unknown> | undefined): boolean {
  if (!reasoningModel(model)) return false;
  const effort = params ? effortOf(params) : undefined;
  if (effort === 'none') return false;
  return !((effort === undefined || effort === null) && DEFAULTS_TO_NO_REASONING.test(bare(model)));
}
