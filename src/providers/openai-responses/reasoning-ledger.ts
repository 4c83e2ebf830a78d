/**
 * The reasoning items a Responses mock handed out, and which output items each one preceded: what
 * the protocol rules need to tell that code under test passed back a `function_call` without the
 * `reasoning` item before it, or a reasoning item without what followed it, or the id of a reasoning
 * item it was never given the content of (`store: false`). One per mock (the adapter's state),
 * bounded: the oldest entries are forgotten first, so a very long run stops checking its earliest
 * items rather than growing without end.
 */

/** One reasoning item as minted. */
export interface MintedReasoning {
  /** The ids of the output items that came after it in the same response (a message, function calls). */
  followers: string[];
  /** Was the response stored (`store` not false)? Only then can its items be passed back by id alone. */
  stored: boolean;
}

/** How many reasoning items a ledger remembers by default (an entry is a few ids: well under 1 KiB). */
export const REASONING_LEDGER_LIMIT = 10_000;
/**
 * How many ids (reasoning items and their followers) a ledger holds at most: about 150 bytes each
 * with the maps' own, so some 15 MB, however many calls each response made.
 */
export const REASONING_LEDGER_IDS = 100_000;

/**
 * Reasoning items by id, and the reasoning item each output item needs, by the output item's id.
 * @example
 *   const ledger = new ReasoningLedger();
 *   ledger.add('rs_1', { followers: ['fc_1'], stored: false });
 *   ledger.requiredBy('fc_1') // 'rs_1'
 */
export class ReasoningLedger {
  readonly #reasoning = new Map<string, MintedReasoning>();
  readonly #required = new Map<string, string>();
  readonly #limit: number;
  readonly #limitIds: number;
  #ids = 0;

  constructor(limit: number = REASONING_LEDGER_LIMIT, limitIds: number = REASONING_LEDGER_IDS) {
    this.#limit = limit;
    this.#limitIds = limitIds;
  }

  add(id: string, minted: MintedReasoning): void {
    this.#forget(id);
    this.#reasoning.set(id, minted);
    this.#ids += 1 + minted.followers.length;
    for (const follower of minted.followers) this.#required.set(follower, id);
    // Maps iterate in insertion order: the first key is the oldest. The newest entry always stays.
    while (this.#reasoning.size > 1 && (this.#reasoning.size > this.#limit || this.#ids > this.#limitIds)) {
      this.#forget(this.#reasoning.keys().next().value!);
    }
  }

  #forget(id: string): void {
    const entry = this.#reasoning.get(id);
    if (!entry) return;
    this.#reasoning.delete(id);
    this.#ids -= 1 + entry.followers.length;
    for (const follower of entry.followers) if (this.#required.get(follower) === id) this.#required.delete(follower);
  }

  /** The reasoning item minted with this id, if this mock minted it. */
  get(id: string): MintedReasoning | undefined {
    return this.#reasoning.get(id);
  }

  /** The id of the reasoning item that preceded this output item, if it had one. */
  requiredBy(itemId: string): string | undefined {
    return this.#required.get(itemId);
  }

  get size(): number {
    return this.#reasoning.size;
  }
}
