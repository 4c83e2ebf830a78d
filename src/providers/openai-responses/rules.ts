/**
 * The Responses API's protocol rules for reasoning items (docs/scenario-format.md#protocol-rules).
 * A reasoning model's output items belong together: passed back as input without stored state,
 * a `function_call` (or message) needs the `reasoning` item that came before it, and a reasoning
 * item needs what followed it. Reasoning content comes back as the `encrypted_content` the API
 * minted, untouched; a reasoning item of an unstored response cannot come back by id alone. The
 * real API refuses each with its own error; this mock knows the items it minted (the ledger) and
 * opens the content it sealed, so it refuses exactly those, and nothing it cannot know about.
 */
import type { ProtocolViolation } from '../../scenario/canonical.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import type { ReasoningLedger } from './reasoning-ledger.ts';

/** The reasoning guide: keeping reasoning items in context, stateless use with encrypted content. */
export const REASONING_DOC = 'https://developers.openai.com/api/docs/guides/reasoning';
/** The conversation-state guide: items of a response stored with `store: false` are not kept. */
const CONVERSATION_STATE_DOC = 'https://developers.openai.com/api/docs/guides/conversation-state';

function violation(rule: string, doc: string, status: number, message: string, param: string | null, code: string | null = null): ProtocolViolation {
  return { rule, doc, error: { status, message, type: 'invalid_request_error', param, code, headers: {} } };
}

/** `gAAA...DQ==`: the API names encrypted content by its ends. */
const abbreviate = (sealed: string) => (sealed.length > 8 ? `${sealed.slice(0, 4)}...${sealed.slice(-4)}` : sealed);

/** An item the model produced (what may follow a reasoning item), as opposed to the caller's own input. */
function isOutputItem(item: unknown): boolean {
  if (!isObject(item)) return false;
  const type = item.type ?? 'message';
  if (type === 'message') return item.role === 'assistant';
  // An item_reference may name the output item that followed: not knowing, the rule lets it pass.
  return type !== 'function_call_output';
}

/** What the rules read of this mock's state. */
export interface ReasoningState {
  reasoning: ReasoningLedger;
  seal: ReasoningSeal;
}

/**
 * The reasoning rules a request's `input` breaks, in input order.
 * @example
 *   responsesReasoningRules({ input: [{ type: 'function_call', id: 'fc_1', ... }] }, state)[0]?.rule // 'openai.function-call-without-reasoning'
 */
export function responsesReasoningRules(body: Json, state: ReasoningState): ProtocolViolation[] {
  const input = body.input;
  if (!Array.isArray(input)) return [];
  const found: ProtocolViolation[] = [];
  // With previous_response_id the stored response supplies the reasoning of its own items.
  const stateful = typeof body.previous_response_id === 'string';
  const seen = new Set<string>();
  input.forEach((item, i) => {
    if (!isObject(item)) return;
    const id = typeof item.id === 'string' ? item.id : undefined;
    // A reference to a stored item stands for the item itself.
    if (item.type === 'item_reference') {
      if (id !== undefined) seen.add(id);
      return;
    }
    if (item.type === 'reasoning') {
      if (id !== undefined) seen.add(id);
      const minted = id === undefined ? undefined : state.reasoning.get(id);
      if (typeof item.encrypted_content === 'string') {
        if (state.seal.open(item.encrypted_content) === null) {
          found.push(
            violation(
              'openai.reasoning-encrypted-content-altered',
              REASONING_DOC,
              400,
              `The encrypted content ${abbreviate(item.encrypted_content)} could not be verified.`,
              null,
              'invalid_encrypted_content',
            ),
          );
        }
      } else if (minted && !minted.stored) {
        found.push(
          violation(
            'openai.reasoning-item-not-stored',
            CONVERSATION_STATE_DOC,
            404,
            `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            'input',
          ),
        );
      }
      if (minted && minted.followers.length > 0 && !isOutputItem(input[i + 1])) {
        found.push(violation('openai.reasoning-without-following-item', REASONING_DOC, 400, `Item '${id}' of type 'reasoning' was provided without its required following item.`, 'input'));
      }
      return;
    }
    if (stateful || id === undefined) return;
    const required = state.reasoning.requiredBy(id);
    if (required !== undefined && !seen.has(required)) {
      const type = typeof item.type === 'string' ? item.type : 'message';
      found.push(
        violation('openai.function-call-without-reasoning', REASONING_DOC, 400, `Item '${id}' of type '${type}' was provided without its required 'reasoning' item: '${required}'.`, 'input'),
      );
    }
  });
  return found;
}
