/**
 * Mistral's tool-call ids are 9 letters and digits (`D681PevKs`), and its API refuses a request
 * naming any other ("Tool call id was call_… but must be a-z, A-Z, 0-9, with a length of 9").
 * Ids the engine mints are in that shape already (the adapter's `toolCallIds`); an id a scenario
 * gives in another shape (`call_weather_1`) is the one exception to "kept as given": the adapter
 * renders it as a 9-character id and maps it back when a tool result answers it, so
 * `expectToolResults` and `match.toolResults` see the scenario's id. Bounded: the oldest mappings go first.
 */
import { randomAlnum } from '../common/ids.ts';

const NINE = /^[A-Za-z0-9]{9}$/;

/**
 * Is `id` in Mistral's form already (rendered as it is, without this mock's map)?
 * @example
 *   isMistralToolId('D681PevKs') // true
 */
export const isMistralToolId = (id: string): boolean => NINE.test(id);

export class MistralToolIds {
  readonly #toWire = new Map<string, string>();
  readonly #toCanonical = new Map<string, string>();
  readonly #limit: number;

  constructor(limit = 10_000) {
    this.#limit = limit;
  }

  /** The 9-character id for a canonical one (ids already in Mistral's form stay). */
  wire(canonical: string): string {
    if (NINE.test(canonical)) return canonical;
    let id = this.#toWire.get(canonical);
    if (id === undefined) {
      id = randomAlnum(9);
      this.#toWire.set(canonical, id);
      this.#toCanonical.set(id, canonical);
      if (this.#toWire.size > this.#limit) {
        const [oldCanonical, oldWire] = this.#toWire.entries().next().value as [string, string];
        this.#toWire.delete(oldCanonical);
        this.#toCanonical.delete(oldWire);
      }
    }
    return id;
  }

  /** The canonical id a wire id stands for (an id this adapter never minted stays as it is). */
  canonical(wire: string): string {
    return this.#toCanonical.get(wire) ?? wire;
  }
}
