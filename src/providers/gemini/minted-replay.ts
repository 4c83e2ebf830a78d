/**
 * Goldens' strict replay for the Gemini API (and Vertex's, which takes the same bodies): the
 * `thoughtSignature`s a replay served, read from its answers (a response body, or each chunk of a
 * stream), so the signature rules (thoughts.ts) take those and refuse any other, and a function call
 * of the current turn that comes back without its signature (Gemini 3).
 */
import type { MintedReplay, ServedAnswer } from '../adapter.ts';
import { ssePayloads } from '../common/views.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import { GeminiThoughts, servedThoughtSignature } from './thoughts.ts';

/** The candidates' parts of an answer: the body's, or every chunk's of a stream. */
function servedParts(answer: ServedAnswer): Json[] {
  const bodies = answer.frames ? ssePayloads(answer.frames).map((p) => p.data as unknown) : [answer.json];
  return bodies.flatMap((body) => {
    // A non-streamed body may also come as an array of chunks (`streamGenerateContent` without `alt=sse`).
    const chunks = Array.isArray(body) ? body : [body];
    return chunks.filter(isObject).flatMap((chunk) =>
      (Array.isArray(chunk.candidates) ? chunk.candidates : []).filter(isObject).flatMap((c) => (isObject(c.content) && Array.isArray(c.content.parts) ? c.content.parts.filter(isObject) : [])),
    );
  });
}

/** The rules about thought signatures a replay checks: altered or foreign ones, and a function call's dropped one. */
export const GEMINI_MINTED_RULES = ['gemini.corrupted-thought-signature', 'gemini.function-call-without-thought-signature'] as const;

/**
 * The Gemini API's strict replay: its state is the thoughts of the served seal.
 * @example adapter.mintedReplay!.served(thoughts, seal, requestBody, { frames })
 */
export const geminiMintedReplay: MintedReplay<GeminiThoughts> = {
  state: (seal) => new GeminiThoughts(seal),
  served(_thoughts, seal, _body, answer) {
    for (const part of servedParts(answer)) {
      const signature = part.thoughtSignature ?? part.thought_signature;
      if (typeof signature === 'string') servedThoughtSignature(seal, signature);
    }
  },
  rules: GEMINI_MINTED_RULES,
};
