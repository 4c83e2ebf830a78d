/**
 * The non-streaming `chat.completion` body, as an object and as JSON text, and the pieces every
 * OpenAI Chat answer shares (finish reason, usage, tier, choice count).
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalToolCall, FinishReason } from '../../scenario/canonical.ts';
import { withPrefix } from '../common/ids.ts';
import { reasoningUsage } from '../common/reasoning-usage.ts';
import { openAIModel, requestReasons } from '../openai-shared/reasoning-models.ts';

type Json = Record<string, unknown>;

/** What the API says about the backend; constant so goldens stay stable. */
export const SYSTEM_FINGERPRINT = 'fp_ghostwire';

/**
 * The `finish_reason` of an answer. OpenAI has no `stop_sequence`: a stop sequence ends the turn with `stop`.
 * A call of the function `tool_choice` names ends with `stop`, not `tool_calls`, streamed or not (measured
 * against the API: vllm-project/vllm#25054; `required` and `auto` end with `tool_calls`).
 * @example
 *   openAIFinishReason('tool_calls', { params: { tool_choice: { type: 'function', function: { name: 'f' } } } }) // 'stop'
 */
export function openAIFinishReason(reason: FinishReason, req?: Pick<CanonicalRequest, 'params'>): string {
  if (reason === 'stop_sequence') return 'stop';
  if (reason === 'tool_calls' && req && namedToolChoice(req.params.tool_choice)) return 'stop';
  return reason;
}

/** Whether `tool_choice` names one function (`{ type: 'function', function: { name } }`). */
export function namedToolChoice(choice: unknown): boolean {
  return typeof choice === 'object' && choice !== null && (choice as { type?: unknown }).type === 'function';
}

/**
 * The `reasoning_content` an answer carries: only OpenAI-compatible servers (DeepSeek, vLLM, Qwen)
 * send it, so only for a model that is not one of OpenAI's, never for redacted reasoning, and not
 * on a request that does not reason (effort `none`).
 */
export function reasoningContent(res: CanonicalResponse, req: CanonicalRequest): string | undefined {
  const reasoning = res.reasoning;
  return reasoning && !reasoning.redacted && !openAIModel(res.model) && requestReasons(req.model, req.params) ? reasoning.text : undefined;
}

/**
 * Usage with the detail objects the API always includes. `reasoning_tokens` (counted inside
 * `completion_tokens`) only on a request that reasons: a chat model (gpt-4o, gpt-4.1) or effort
 * `none` counts none (common/reasoning-usage.ts); o-series and gpt-5 count them though Chat
 * Completions never shows the reasoning.
 */
export function openAIUsage(res: CanonicalResponse, req: CanonicalRequest): Json {
  const usage = reasoningUsage(res.usage, requestReasons(req.model, req.params));
  const { inputTokens, outputTokens } = usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** Arguments as the wire carries them: a JSON string (a string kept as sent). */
export function argumentsText(call: CanonicalToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

/** The `service_tier` an answer reports: the one asked for, `default` for `auto` or none. */
export function serviceTier(req: CanonicalRequest): string {
  const asked = req.params.service_tier;
  return typeof asked === 'string' && asked !== 'auto' ? asked : 'default';
}

/** How many choices an answer carries (`n`). */
export function choiceCount(req: CanonicalRequest): number {
  const n = req.params.n;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1;
}

/**
 * The non-streaming `chat.completion` body.
 * @example
 *   renderChatCompletion(response, request).choices[0].message.content
 */
export function renderChatCompletion(res: CanonicalResponse, req: CanonicalRequest): Json {
  const thinking = reasoningContent(res, req);
  const message: Json = {
    role: 'assistant',
    // A tool-call-only answer, and a refusal, have `content: null`, as the API sends them.
    content: res.text === '' && (res.toolCalls.length > 0 || res.refusal !== undefined) ? null : res.text,
    ...(thinking === undefined ? {} : { reasoning_content: thinking }),
    refusal: res.refusal ?? null,
    annotations: [],
  };
  if (res.toolCalls.length > 0) {
    message.tool_calls = res.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsText(c) } }));
  }
  const finishReason = openAIFinishReason(res.finishReason, req);
  const choices: Json[] = [];
  for (let index = 0, n = choiceCount(req); index < n; index++) choices.push({ index, message, logprobs: null, finish_reason: finishReason });
  return {
    id: withPrefix('chatcmpl-', res.id),
    object: 'chat.completion',
    created: res.created,
    model: res.model,
    choices,
    usage: openAIUsage(res, req),
    service_tier: serviceTier(req),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

function finite(n: number): boolean {
  return typeof n === 'number' && Number.isFinite(n);
}

/** Values whose text JSON.stringify gives as a string literal (anything else takes the generic path). */
function strings(...values: unknown[]): boolean {
  for (const v of values) if (typeof v !== 'string') return false;
  return true;
}

/** The part of a `chat.completion` after the model: choices, usage, tier and fingerprint. */
function completionTail(res: CanonicalResponse, req: CanonicalRequest, tier: string, n: number): string {
  const { inputTokens, outputTokens } = res.usage;
  const calls = res.toolCalls;
  let message = `{"role":"assistant","content":${res.text === '' && calls.length > 0 ? 'null' : JSON.stringify(res.text)},"refusal":null,"annotations":[]`;
  if (calls.length > 0) {
    const encoded = calls.map((c) => `{"id":${JSON.stringify(c.id)},"type":"function","function":{"name":${JSON.stringify(c.name)},"arguments":${JSON.stringify(argumentsText(c))}}}`);
    message += `,"tool_calls":[${encoded.join(',')}]`;
  }
  message += '}';
  const finish = JSON.stringify(openAIFinishReason(res.finishReason, req));
  let choices = '';
  for (let index = 0; index < n; index++) {
    choices += `${index === 0 ? '' : ','}{"index":${index},"message":${message},"logprobs":null,"finish_reason":${finish}}`;
  }
  return (
    `"choices":[${choices}],"usage":{"prompt_tokens":${inputTokens},"completion_tokens":${outputTokens},"total_tokens":${inputTokens + outputTokens},` +
    '"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},' +
    '"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},' +
    `"service_tier":${JSON.stringify(tier)},"system_fingerprint":"${SYSTEM_FINGERPRINT}"}`
  );
}

/**
 * The same body as JSON text, exactly `JSON.stringify(renderChatCompletion(res, req))` (the tests
 * hold it to that), assembled from its parts: the envelope is fixed text, so only the values need
 * encoding. JSON.stringify walking the freshly built object was the largest single cost of a
 * non-streaming answer on the real port (about 2 µs for 850 bytes: a dozen small objects, every key
 * checked for escapes). Undefined when a value needs the generic serialiser (a number that is not
 * finite, a missing string); the caller serialises the object then.
 * @example
 *   chatCompletionText(response, request) === JSON.stringify(renderChatCompletion(response, request)) // true
 */
export function chatCompletionText(res: CanonicalResponse, req: CanonicalRequest): string | undefined {
  const { inputTokens, outputTokens } = res.usage;
  const calls = res.toolCalls;
  if (!finite(res.created) || !finite(inputTokens) || !finite(outputTokens) || !strings(res.id, res.model, res.text, res.finishReason)) return undefined;
  // Reasoning and refusals are rare: the generic serialiser writes them (the fixed text has no place for them).
  if (res.reasoning !== undefined || res.refusal !== undefined || res.usage.reasoningTokens) return undefined;
  for (const c of calls) if (!strings(c.id, c.name)) return undefined;
  const tier = serviceTier(req);
  const n = choiceCount(req);
  const tail = completionTail(res, req, tier, n);
  return `{"id":${JSON.stringify(withPrefix('chatcmpl-', res.id))},"object":"chat.completion","created":${res.created},"model":${JSON.stringify(res.model)},${tail}`;
}
