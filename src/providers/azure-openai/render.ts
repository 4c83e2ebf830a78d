/**
 * What Azure adds to OpenAI's answers: the content-filter annotations (`prompt_filter_results` on
 * the completion and on a first stream chunk with no choices, `content_filter_results` on each
 * choice) and Azure's own error bodies. Bodies come from the OpenAI renderers; this file decorates.
 */
import type { RenderedResponse } from '../adapter.ts';
import { openAIErrorBody } from '../openai-shared/error.ts';
import type { CanonicalError } from '../../scenario/canonical.ts';

const SAFE = { filtered: false, severity: 'safe' };

/** The four harm categories Azure's default filter scores, all safe. */
export const CONTENT_FILTER_RESULTS = Object.freeze({ hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE });

/** The prompt's filter annotation, as Azure puts it beside the answer. */
export const PROMPT_FILTER_RESULTS = Object.freeze([
  { prompt_index: 0, content_filter_results: { ...CONTENT_FILTER_RESULTS, jailbreak: { filtered: false, detected: false } } },
]);

/**
 * A chat completion body with Azure's filter annotations.
 * @example
 *   withContentFilters(renderChatCompletion(res, req)).prompt_filter_results[0].prompt_index // 0
 */
export function withContentFilters(body: Record<string, unknown>): Record<string, unknown> {
  const choices = (body.choices as Array<Record<string, unknown>>).map((c) => ({ ...c, content_filter_results: CONTENT_FILTER_RESULTS }));
  return { ...body, choices, prompt_filter_results: PROMPT_FILTER_RESULTS };
}

/**
 * Chat stream frames as Azure sends them: first a chunk with no choices carrying the prompt's filter
 * results, then each chunk with `content_filter_results` on its choices (scored on text, empty on
 * the role and finish chunks).
 * @example
 *   azureChatFrames(frames)[0] // 'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[...]}\n\n'
 */
export function azureChatFrames(frames: readonly string[]): string[] {
  const first = { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER_RESULTS };
  const out = [`data: ${JSON.stringify(first)}\n\n`];
  for (const frame of frames) {
    if (!frame.startsWith('data: {')) {
      out.push(frame);
      continue;
    }
    const chunk = JSON.parse(frame.slice(6)) as { choices: Array<{ delta?: { content?: unknown } }> };
    const choices = chunk.choices.map((c) => ({ ...c, content_filter_results: typeof c.delta?.content === 'string' && c.delta.content !== '' ? CONTENT_FILTER_RESULTS : {} }));
    out.push(`data: ${JSON.stringify({ ...chunk, choices })}\n\n`);
  }
  return out;
}

/** Azure's wording for a request without a usable key. */
export const AZURE_ACCESS_DENIED =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';

/**
 * Azure's errors. Its front end answers auth, routing and throttling as `{ error: { code, message } }`
 * (the status as a string code); the model behind it answers a mis-shaped request in OpenAI's shape
 * with `status`; a `content_filter` error carries Azure's `innererror` with the filter results.
 * @example
 *   renderAzureError({ status: 401, message: 'x', headers: {} }).json // { error: { code: '401', message: 'x' } }
 */
export function renderAzureError(error: CanonicalError): RenderedResponse {
  const headers = { ...error.headers };
  if (error.code === 'content_filter') {
    const { error: body } = openAIErrorBody({ ...error, param: error.param ?? 'prompt' });
    // Azure's filter refusal names no type.
    body.type = error.type ?? null;
    const innererror = { code: 'ResponsibleAIPolicyViolation', content_filter_result: { ...CONTENT_FILTER_RESULTS, violence: { filtered: true, severity: 'high' } } };
    return { status: error.status, headers, json: { error: { ...body, status: error.status, innererror } } };
  }
  if (error.status === 400 || error.status === 422) {
    const { error: body } = openAIErrorBody(error);
    return { status: error.status, headers, json: { error: { ...body, status: error.status } } };
  }
  const code = error.status === 404 && error.code === 'unknown_url' ? '404' : (error.code ?? String(error.status));
  const body: Record<string, unknown> = { code, message: error.message };
  if (error.details !== undefined) body.details = error.details;
  return { status: error.status, headers, json: { error: body } };
}
