/**
 * One mock's adapter states: what the APIs that remember things between requests (stored
 * responses, minted tool ids) remember for this mock alone. The adapters themselves are shared
 * (a server's sessions route over one list); each mock owns one of these, makes an adapter's state
 * on the first request that needs it (most mocks never call the APIs that keep any) and forgets
 * them all on reset.
 */
import type { ProviderAdapter } from './adapter.ts';

/**
 * The states of one mock's adapters, made on first use.
 * @example
 *   const states = new AdapterStates();
 *   adapter.parse(request, states.of(adapter));
 *   states.clear(); // MockLLM.reset(): the next request starts from fresh state
 */
export class AdapterStates {
  readonly #states = new Map<ProviderAdapter, unknown>();

  /** This mock's state for `adapter` (made now if it has none yet); undefined for an adapter without state. */
  of<State>(adapter: ProviderAdapter<State>): State {
    if (adapter.createState === undefined) return undefined as State;
    const key = adapter as ProviderAdapter;
    let state = this.#states.get(key) as State | undefined;
    if (state === undefined) this.#states.set(key, (state = adapter.createState()));
    return state;
  }

  /** Forgets every state: the next request makes a fresh one. */
  clear(): void {
    this.#states.clear();
  }
}
