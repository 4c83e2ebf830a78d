/**
 * A Responses mock's own state: its stored responses (`previous_response_id`, retrieval), the key
 * that seals its reasoning items' `encrypted_content`, and the ledger of the reasoning items it
 * minted (for the protocol rules). One per mock, made by the adapter's `createState`.
 */
import { ReasoningSeal } from '../common/reasoning-seal.ts';
import { ReasoningLedger } from './reasoning-ledger.ts';
import { ResponseStore } from './store.ts';

/**
 * Everything a Responses mock remembers between requests.
 * @example
 *   const state = new ResponsesState(new ResponseStore());
 *   state.seal.open(state.seal.encrypt('why')) // 'why'
 */
export class ResponsesState {
  readonly store: ResponseStore;
  readonly seal: ReasoningSeal;
  readonly reasoning = new ReasoningLedger();

  /** `seal`: a key of its own by default; a golden replay's ServedSeal. */
  constructor(store: ResponseStore, seal: ReasoningSeal = new ReasoningSeal()) {
    this.store = store;
    this.seal = seal;
  }
}
