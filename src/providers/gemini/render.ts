/**
 * Canonical response → Gemini wire: `GenerateContentResponse` JSON, its SSE stream (`data:` lines
 * only, as `@google/genai`'s stream parser reads them; the last chunk carries `finishReason`, or the
 * SDK would try to resume the stream), and Google's error shape `{ error: { code, message, status } }`.
 */
import type { RenderedResponse } from '../adapter.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError, FinishReason } from '../../scenario/canonical.ts';
import { chunkText, sseFrame } from '../common/sse.ts';
import { isObject } from '../common/wire-json.ts';
import { geminiThinking, isGemini3, thinkingModel, type GeminiThoughts } from './thoughts.ts';

const FINISH_REASONS: Record<FinishReason, string> = {
  stop: 'STOP',
  // Gemini ends a function-calling turn with STOP; the functionCall parts say what happened.
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  stop_sequence: 'STOP',
};

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * The google.rpc status name for an HTTP status.
 * @example
 *   googleStatusName(429) // 'RESOURCE_EXHAUSTED'
 */
function googleStatusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/** Gemini's finish reason for a canonical one. */
function geminiFinishReason(reason: FinishReason): string {
  return FINISH_REASONS[reason];
}

/**
 * What a step's answer shows of its thinking on this request: the thought summary (only when the
 * request sets `includeThoughts` and thinking is on; redacted reasoning has no Gemini form), the
 * signature the mock mints for it and where it goes, and the thought tokens.
 */
export interface GeminiThinkingView {
  thoughts: string | null;
  signature: string | null;
  /** Gemini 3 signs the first function call, or the answer's last part when there is none; 2.5 signs only calls. */
  signs: 'call' | 'text' | null;
  thoughtsTokens: number;
}

const NO_THINKING: GeminiThinkingView = { thoughts: null, signature: null, signs: null, thoughtsTokens: 0 };

/**
 * Does the model think on this request? Not with `thinkingBudget: 0` ("turn thinking off", 2.5
 * Flash models), nor a model that does not think (`thinkingModel`): those answers carry no thoughts
 * and count no `thoughtsTokenCount` (https://ai.google.dev/gemini-api/docs/thinking).
 * @example
 *   geminiThinks(request) // false for generationConfig.thinkingConfig.thinkingBudget: 0
 */
export function geminiThinks(request: CanonicalRequest, thinking = thinkingOf(request)): boolean {
  return !thinking.off && thinkingModel(request.model);
}

/** The request's thinking settings (`geminiThinking` of its generation config). */
function thinkingOf(request: CanonicalRequest): ReturnType<typeof geminiThinking> {
  const raw = isObject(request.raw) ? request.raw : {};
  return geminiThinking(raw.generationConfig ?? raw.generation_config);
}

/**
 * The thinking view of `response` for `request`, signatures minted by `thoughts` (none without).
 * @example
 *   geminiThinkingView(response, request, thoughts).signs // 'call' for a Gemini 3 function call
 */
export function geminiThinkingView(response: CanonicalResponse, request: CanonicalRequest, thoughts: GeminiThoughts | undefined): GeminiThinkingView {
  const thinking = thinkingOf(request);
  if (!geminiThinks(request, thinking)) return NO_THINKING;
  const reasoning = response.reasoning;
  const gemini3 = isGemini3(request.model);
  const hasCalls = response.toolCalls.length > 0;
  // Gemini 3 always thinks and signs every function call and answer; earlier models sign a call they thought about.
  const signs = gemini3 ? (hasCalls ? 'call' : 'text') : hasCalls && reasoning ? 'call' : null;
  return {
    thoughts: reasoning && !reasoning.redacted && thinking.includeThoughts ? reasoning.text : null,
    signature: signs && thoughts ? thoughts.mint(reasoning?.text ?? '') : null,
    signs: thoughts ? signs : null,
    thoughtsTokens: response.usage.reasoningTokens ?? 0,
  };
}

/**
 * What of a Gemini request the rendering reads besides the answer, model and `stream`: the thinking
 * settings (the key of its answers' templates, common/answer-templates.ts). Undefined for an answer
 * that carries a signature: it is sealed under this mock's key, fresh each time.
 * @example
 *   geminiTemplateKey(response, request, thoughts) // '[false,false]' for a request without thinkingConfig
 */
export function geminiTemplateKey(response: CanonicalResponse, request: CanonicalRequest, thoughts: GeminiThoughts | undefined): string | undefined {
  const thinking = thinkingOf(request);
  // As geminiThinkingView decides whether it mints a signature.
  const thinks = geminiThinks(request, thinking);
  const signs = thinks && (isGemini3(request.model) || (response.toolCalls.length > 0 && Boolean(response.reasoning)));
  if (signs && thoughts) return undefined;
  return JSON.stringify([thinking.includeThoughts, !thinks]);
}

function usageMetadata(response: CanonicalResponse, view: GeminiThinkingView): Record<string, unknown> {
  const { inputTokens, outputTokens } = response.usage;
  // Gemini counts thoughts apart from the candidates (canonical output tokens include them); the total has both.
  const thoughts = Math.min(view.thoughtsTokens, outputTokens);
  const usage: Record<string, unknown> = {
    promptTokenCount: inputTokens,
    candidatesTokenCount: outputTokens - thoughts,
    totalTokenCount: inputTokens + outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: inputTokens }],
  };
  if (thoughts > 0) usage.thoughtsTokenCount = thoughts;
  return usage;
}

function functionCallParts(response: CanonicalResponse, view: GeminiThinkingView): Record<string, unknown>[] {
  return response.toolCalls.map((call, i) => {
    const part: Record<string, unknown> = { functionCall: { id: call.id, name: call.name, args: call.arguments ?? {} } };
    if (i === 0 && view.signs === 'call' && view.signature) part.thoughtSignature = view.signature;
    return part;
  });
}

/** The answer's text: Gemini has no refusal field, so a scripted refusal is the model's words. */
const answerText = (response: CanonicalResponse): string => (response.text === '' && response.refusal !== undefined ? response.refusal : response.text);

function textPart(text: string, signed: boolean, view: GeminiThinkingView): Record<string, unknown> {
  return signed && view.signs === 'text' && view.signature ? { text, thoughtSignature: view.signature } : { text };
}

function chunk(response: CanonicalResponse, parts: unknown[], final: boolean, view: GeminiThinkingView): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
  if (final) candidate.finishReason = geminiFinishReason(response.finishReason);
  return { candidates: [candidate], usageMetadata: usageMetadata(response, view), modelVersion: response.model, responseId: response.id };
}

/**
 * The non-streaming `GenerateContentResponse`: thought parts first (`thought: true`), then the
 * answer's text and function calls, the signature where the model family puts it.
 * @example
 *   renderGeminiResponse(response).candidates[0].finishReason // 'STOP'
 */
export function renderGeminiResponse(response: CanonicalResponse, view: GeminiThinkingView = NO_THINKING): Record<string, unknown> {
  const parts: unknown[] = [];
  if (view.thoughts !== null) parts.push({ text: view.thoughts, thought: true });
  const text = answerText(response);
  if (text.length > 0 || response.toolCalls.length === 0) parts.push(textPart(text, true, view));
  parts.push(...functionCallParts(response, view));
  return chunk(response, parts, true, view);
}

/**
 * The SSE frames of `:streamGenerateContent?alt=sse`: thought pieces first, then one chunk per text
 * piece, function calls whole in the last chunk (Gemini does not stream call arguments), which
 * carries `finishReason`. A signed text answer's signature rides on its last piece.
 * @example
 *   renderGeminiStream(response) // ['data: {"candidates":[...]}\n\n', ...]
 */
export function renderGeminiStream(response: CanonicalResponse, view: GeminiThinkingView = NO_THINKING): string[] {
  const text = answerText(response);
  const pieces = response.stream.chunks ?? chunkText(text, response.stream.chunkSize);
  const calls = functionCallParts(response, view);
  const frames: string[] = [];
  if (view.thoughts !== null) {
    for (const piece of chunkText(view.thoughts, response.stream.chunkSize)) frames.push(sseFrame(chunk(response, [{ text: piece, thought: true }], false, view)));
  }
  pieces.forEach((piece, i) => {
    const last = i === pieces.length - 1 && calls.length === 0;
    frames.push(sseFrame(chunk(response, [textPart(piece, last, view)], last, view)));
  });
  if (calls.length > 0 || pieces.length === 0) {
    frames.push(sseFrame(chunk(response, calls.length > 0 ? calls : [textPart('', true, view)], true, view)));
  }
  return frames;
}

/**
 * Google's error body. Near misses of a no-match go in `error.details`, as google.rpc details do.
 * @example
 *   googleErrorBody({ status: 404, message: 'no step', headers: {} }) // { error: { code: 404, message: 'no step', status: 'NOT_FOUND' } }
 */
function googleErrorBody(error: CanonicalError): { error: Record<string, unknown> } {
  const body: Record<string, unknown> = { code: error.status, message: error.message, status: googleStatusName(error.status) };
  if (error.details !== undefined) {
    body.details = [{ '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: JSON.stringify(error.details) }];
  }
  return { error: body };
}

/** The headers Google's front end puts on every JSON answer (its own system tests expect them). */
export const GOOGLE_JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=UTF-8',
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '0',
};

/** A streamed answer's content type (the security headers stay). */
export const GOOGLE_STREAM_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'text/event-stream' };

/**
 * A stream that fails: a `data:` chunk carrying Google's error object instead of candidates, which
 * `@google/genai` throws as an ApiError with the object's `code` as its status (it only throws for
 * a code of 400-599, so the step's status defaults to 500). A step's `type` is the status name.
 * @example
 *   geminiStreamErrorFrame({ message: 'overloaded', status: 503 })
 *   // 'data: {"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}\n\n'
 */
export function geminiStreamErrorFrame(error: CanonicalStreamError): string {
  const code = error.status ?? 500;
  return sseFrame({ error: { code, message: error.message, status: error.type ?? googleStatusName(code) } });
}

/** A rendered Google error with the step's headers (`retry-after`). */
export function renderGoogleError(error: CanonicalError): RenderedResponse {
  return { status: error.status, headers: { ...GOOGLE_JSON_HEADERS, ...error.headers }, json: googleErrorBody(error) };
}
