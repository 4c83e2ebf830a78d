/**
 * Canonical response → Gemini wire: `GenerateContentResponse` JSON, its SSE stream (`data:` lines
 * only, as `@google/genai`'s stream parser reads them; the last chunk carries `finishReason`, or the
 * SDK would try to resume the stream), and Google's error shape `{ error: { code, message, status } }`.
 */
import type { RenderedResponse } from '../adapter.ts';
import type { CanonicalError, CanonicalResponse, CanonicalStreamError, FinishReason } from '../../scenario/canonical.ts';
import { chunkText, sseFrame } from '../common/sse.ts';

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

function usageMetadata(response: CanonicalResponse): Record<string, unknown> {
  const { inputTokens, outputTokens } = response.usage;
  return {
    promptTokenCount: inputTokens,
    candidatesTokenCount: outputTokens,
    totalTokenCount: inputTokens + outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: inputTokens }],
  };
}

function functionCallParts(response: CanonicalResponse): Record<string, unknown>[] {
  return response.toolCalls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.arguments ?? {} } }));
}

function chunk(response: CanonicalResponse, parts: unknown[], final: boolean): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
  if (final) candidate.finishReason = geminiFinishReason(response.finishReason);
  return { candidates: [candidate], usageMetadata: usageMetadata(response), modelVersion: response.model, responseId: response.id };
}

/**
 * The non-streaming `GenerateContentResponse`.
 * @example
 *   renderGeminiResponse(response).candidates[0].finishReason // 'STOP'
 */
export function renderGeminiResponse(response: CanonicalResponse): Record<string, unknown> {
  const parts: unknown[] = [];
  if (response.text.length > 0 || response.toolCalls.length === 0) parts.push({ text: response.text });
  parts.push(...functionCallParts(response));
  return chunk(response, parts, true);
}

/**
 * The SSE frames of `:streamGenerateContent?alt=sse`: one chunk per text piece, function calls
 * whole in the last chunk (Gemini does not stream call arguments), which carries `finishReason`.
 * @example
 *   renderGeminiStream(response) // ['data: {"candidates":[...]}\n\n', ...]
 */
export function renderGeminiStream(response: CanonicalResponse): string[] {
  const pieces = response.stream.chunks ?? chunkText(response.text, response.stream.chunkSize);
  const calls = functionCallParts(response);
  const frames: string[] = [];
  pieces.forEach((text, i) => {
    const last = i === pieces.length - 1 && calls.length === 0;
    frames.push(sseFrame(chunk(response, [{ text }], last)));
  });
  if (calls.length > 0 || pieces.length === 0) {
    frames.push(sseFrame(chunk(response, calls.length > 0 ? calls : [{ text: '' }], true)));
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
