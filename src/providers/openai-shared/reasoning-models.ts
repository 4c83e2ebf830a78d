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
 * Models OpenAI serves (its own names); anything else behind a Chat Completions URL is an
 * OpenAI-compatible server's. gpt-oss is OpenAI's open-weight model, served by others (vLLM, Groq, Ollama).
 */
const OPENAI_MODEL = /^(gpt-(?!oss)|o\d|chatgpt-|codex-|computer-use-|davinci|babbage)/;

/** A model name without a fine-tune prefix (`ft:gpt-4o-mini:org::id` → `gpt-4o-mini:org::id`). */
function bare(model: string): string {
  return model.toLowerCase().replace(/^ft:/, '');
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
