/**
 * Goldens' strict replay for the Responses API: the reasoning items a replay served (their
 * `encrypted_content` and the items that followed each), read from its answers (a response body, or
 * a stream's `response.completed` / `response.output_item.done` events), so the reasoning rules
 * (rules.ts) accept the encrypted content it served and refuse any other, or a dropped one of a
 * response that was not stored.
 */
import type { MintedReplay, ServedAnswer } from '../adapter.ts';
import { ssePayloads } from '../common/views.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import { ResponsesState } from './state.ts';
import { ResponseStore } from './store.ts';

/** The output items an answer carried: the body's, or a stream's final response (else its finished items). */
function servedOutput(answer: ServedAnswer): Json[] {
  if (answer.frames) {
    const payloads = ssePayloads(answer.frames).map((p) => p.data as unknown).filter(isObject);
    const done = payloads.find((p) => p.type === 'response.completed' || p.type === 'response.incomplete');
    if (done && isObject(done.response) && Array.isArray(done.response.output)) return done.response.output.filter(isObject);
    return payloads.filter((p) => p.type === 'response.output_item.done' && isObject(p.item)).map((p) => p.item as Json);
  }
  return isObject(answer.json) && Array.isArray(answer.json.output) ? answer.json.output.filter(isObject) : [];
}

/** The rules about reasoning values a replay checks: altered or foreign encrypted content, dropped content of an unstored response. */
export const RESPONSES_MINTED_RULES = ['openai.reasoning-encrypted-content-altered', 'openai.reasoning-item-not-stored'] as const;

/**
 * The Responses API's strict replay: a state with the served seal and a ledger of the reasoning items served.
 * @example adapter.mintedReplay!.served(state, seal, requestBody, { json: response })
 */
export const responsesMintedReplay: MintedReplay<ResponsesState> = {
  state: (seal) => new ResponsesState(new ResponseStore(), seal),
  served(state, seal, requestBody, answer) {
    const stored = !isObject(requestBody) || requestBody.store !== false;
    const output = servedOutput(answer);
    output.forEach((item, i) => {
      if (item.type !== 'reasoning' || typeof item.id !== 'string') return;
      if (typeof item.encrypted_content === 'string') seal.servedSealed(item.encrypted_content, '');
      // As the live mock notes its own (index.ts `remember`): the items after it in the same response.
      state.reasoning.add(item.id, { followers: output.slice(i + 1).flatMap((o) => (typeof o.id === 'string' ? [o.id] : [])), stored });
    });
  },
  rules: RESPONSES_MINTED_RULES,
};
