/**
 * Gemini's thinking: what a request asks for (`generationConfig.thinkingConfig`), the
 * `thoughtSignature`s the mock mints, and Google's rules about passing them back.
 *
 * Signatures are the mock's own sealed tokens (providers/common/reasoning-seal.ts, AES-GCM with a
 * per-mock key): opaque like Google's, and the mock can tell one it minted from one altered, made
 * up or minted by another server ("Corrupted thought signature.", as Google answers that).
 *
 * The rules, as https://ai.google.dev/gemini-api/docs/thought-signatures describes them: Gemini 3
 * models validate signatures in the current turn (the model turns since the last user text turn,
 * the function-calling loop): each model step's first functionCall part must carry its signature.
 * The documented dummy values pass. Gemini 2.5 and earlier, and Gemini 3 Pro Image, enforce nothing.
 */
import type { ProtocolViolation } from '../../scenario/canonical.ts';
import { ReasoningSeal } from '../common/reasoning-seal.ts';
import type { ServedSeal } from '../common/served-seal.ts';
import { isObject, type Json } from '../common/wire-json.ts';

/** The Gemini API's page on thought signatures (the rules below reproduce it). */
export const GEMINI_SIGNATURES_DOC = 'https://ai.google.dev/gemini-api/docs/thought-signatures';
/** Vertex AI's page on the same rules. */
export const VERTEX_SIGNATURES_DOC = 'https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures';

/** The dummy signatures Google documents for history it did not mint (transferred from another model, injected). */
export const BYPASS_SIGNATURES: ReadonlySet<string> = new Set(['context_engineering_is_the_way_to_go', 'skip_thought_signature_validator']);

/** What the seal's plaintext starts with, so another adapter's sealed content is not taken for a Gemini signature. */
const PURPOSE = 'gemini.thoughtSignature\u0000';

/** Which API's wording the errors take. */
export type GoogleApi = 'gemini' | 'vertex';

/**
 * Gemini 3 models (`gemini-3-pro-preview`, `gemini-3-flash-preview`, `gemini-3.1-…`): signatures on
 * every function call, and the current turn's validated. Gemini 3 Pro Image does not enforce them.
 * @example
 *   isGemini3('gemini-3-flash-preview') // true
 *   isGemini3('gemini-2.5-pro') // false
 */
export function isGemini3(model: string): boolean {
  const id = model.replace(/^.*\//, '').toLowerCase();
  return /^gemini-3(?:[.-]|$)/.test(id) && !id.includes('image');
}

/** Gemini models that do not think: the 1.x and 2.0 families (2.0 Flash Thinking aside) and the 1.0 names. */
const NON_THINKING = /^gemini-(?:1\.\d|2\.0-(?!flash-thinking)|pro$|pro-vision|ultra)/;

/**
 * Does this model think? Thinking came with the 2.5 and 3 series
 * (https://ai.google.dev/gemini-api/docs/thinking); mock users name models freely, so only the
 * known older families are taken not to.
 * @example
 *   thinkingModel('gemini-2.5-flash') // true
 *   thinkingModel('gemini-2.0-flash') // false
 */
export function thinkingModel(model: string): boolean {
  return !NON_THINKING.test(model.replace(/^.*\//, '').toLowerCase());
}

/** The request's thinking settings, camelCase or snake_case as the REST API takes either. */
export interface GeminiThinking {
  /** `includeThoughts: true`: thought summaries come back as `thought: true` parts. */
  includeThoughts: boolean;
  /** `thinkingBudget: 0`: thinking is off (2.5 Flash models); the model has no thoughts to sign. */
  off: boolean;
}

/**
 * Reads `generationConfig.thinkingConfig`.
 * @example
 *   geminiThinking({ thinkingConfig: { includeThoughts: true } }) // { includeThoughts: true, off: false }
 */
export function geminiThinking(generationConfig: unknown): GeminiThinking {
  const config = isObject(generationConfig) ? (generationConfig.thinkingConfig ?? generationConfig.thinking_config) : undefined;
  if (!isObject(config)) return { includeThoughts: false, off: false };
  const budget = config.thinkingBudget ?? config.thinking_budget;
  return { includeThoughts: (config.includeThoughts ?? config.include_thoughts) === true, off: budget === 0 };
}

/**
 * A mock's signatures: minted over the reasoning they stand for, recognised only when untouched.
 * Kept in the Gemini adapter's state, one per mock.
 * @example
 *   const thoughts = new GeminiThoughts();
 *   thoughts.valid(thoughts.mint('The user wants Paris.')); // true
 */
export class GeminiThoughts {
  readonly #seal: ReasoningSeal;

  constructor(seal: ReasoningSeal = new ReasoningSeal()) {
    this.#seal = seal;
  }

  /** A fresh signature (base64) for a step's thoughts. */
  mint(reasoning: string): string {
    return this.#seal.encrypt(PURPOSE + reasoning);
  }

  /** Did this mock mint `signature`, unaltered? */
  valid(signature: string): boolean {
    return this.#seal.open(signature)?.startsWith(PURPOSE) ?? false;
  }

  /** The reasoning a signature this mock minted stands for (null for any other string). */
  reasoningOf(signature: string): string | null {
    const text = this.#seal.open(signature);
    return text?.startsWith(PURPOSE) ? text.slice(PURPOSE.length) : null;
  }
}

/**
 * Tells a golden replay's seal that it served `signature`, so `valid` takes it (what it stands for is
 * the recording's: a replay knows only that it served it).
 * @example servedThoughtSignature(seal, part.thoughtSignature)
 */
export function servedThoughtSignature(seal: ServedSeal, signature: string): void {
  seal.servedSealed(signature, PURPOSE);
}

const partsOf = (content: unknown): Json[] => (isObject(content) && Array.isArray(content.parts) ? content.parts.filter(isObject) : []);
const signatureOf = (part: Json): unknown => part.thoughtSignature ?? part.thought_signature;
const callOf = (part: Json): Json | null => {
  const call = part.functionCall ?? part.function_call;
  return isObject(call) ? call : null;
};

/** The index of the last user turn with text: the current turn is everything after it. */
function lastUserText(contents: readonly unknown[]): number {
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i];
    if (!isObject(content) || (content.role ?? 'user') !== 'user') continue;
    if (partsOf(content).some((p) => typeof p.text === 'string')) return i;
  }
  return -1;
}

function missing(api: GoogleApi, name: string, position: number): ProtocolViolation {
  const message =
    api === 'vertex'
      ? `Unable to submit request because function call \`default_api:${name}\` in the ${position}. content block is missing a \`thought_signature\`. Learn more: ${VERTEX_SIGNATURES_DOC}`
      : `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position}. Please refer to ${GEMINI_SIGNATURES_DOC} for more details.`;
  return {
    rule: 'gemini.function-call-without-thought-signature',
    doc: api === 'vertex' ? VERTEX_SIGNATURES_DOC : GEMINI_SIGNATURES_DOC,
    error: { status: 400, message, type: 'INVALID_ARGUMENT', headers: {} },
  };
}

function corrupted(api: GoogleApi): ProtocolViolation {
  return {
    rule: 'gemini.corrupted-thought-signature',
    doc: api === 'vertex' ? VERTEX_SIGNATURES_DOC : GEMINI_SIGNATURES_DOC,
    error: { status: 400, message: 'Corrupted thought signature.', type: 'INVALID_ARGUMENT', headers: {} },
  };
}

/**
 * The signature rules a Gemini 3 request breaks, in content order: a signature that is not one this
 * mock minted (altered, made up, another server's; the dummy values pass), and a model step of the
 * current turn whose first functionCall part has none. Positions count contents from 1, as Google's do.
 * Empty for every other model.
 * @example
 *   signatureViolations(body.contents, 'gemini-3-pro-preview', thoughts, 'gemini')[0]?.rule // 'gemini.function-call-without-thought-signature'
 */
export function signatureViolations(contents: unknown, model: string, thoughts: GeminiThoughts, api: GoogleApi): ProtocolViolation[] {
  if (!isGemini3(model) || !Array.isArray(contents)) return [];
  const current = lastUserText(contents);
  const found: ProtocolViolation[] = [];
  contents.forEach((content, i) => {
    if (!isObject(content) || content.role !== 'model') return;
    const parts = partsOf(content);
    for (const part of parts) {
      const signature = signatureOf(part);
      if (typeof signature === 'string' && signature !== '' && !BYPASS_SIGNATURES.has(signature) && !thoughts.valid(signature)) {
        found.push(corrupted(api));
        return;
      }
    }
    if (i < current) return;
    const first = parts.find((p) => callOf(p) !== null);
    if (first === undefined) return;
    const signature = signatureOf(first);
    if (typeof signature !== 'string' || signature === '') found.push(missing(api, String(callOf(first)!.name ?? ''), i + 1));
  });
  return found;
}
