/**
 * How much of each tool's name a query explains, worked out from the query's side: the few terms a query
 * reaches are looked up in an index of name terms, instead of every scored tool's name terms (and what the
 * lexicon also calls them) being looked up among the query's terms, tool after tool.
 */

/** A name's term and the stems the software lexicon also calls it. */
export interface NameTerm {
  term: string;
  also: string[];
}

/**
 * Name terms of an index's documents, in document order, and the best weight a query gives each.
 * @example
 *   const coverage = new NameCoverage([[{ term: 'directori', also: ['folder'] }]]);
 *   coverage.reach('folder', 0.8, 1);
 *   coverage.covered(0); // 0.8
 *   coverage.clear();
 */
export class NameCoverage {
  /** Where each document's slots (one per name term) start; the last entry ends the last document's. */
  private readonly starts: Int32Array;
  private readonly byTerm = new Map<string, number[]>();
  private readonly byAlso = new Map<string, number[]>();
  /** Per slot, the best weight the current query gives it (0: none). */
  private readonly best: Float64Array;
  private readonly touched: number[] = [];

  constructor(names: ReadonlyArray<readonly NameTerm[]>) {
    this.starts = new Int32Array(names.length + 1);
    let slot = 0;
    names.forEach((terms, d) => {
      for (const { term, also } of terms) {
        slotsOf(this.byTerm, term).push(slot);
        for (const a of also) slotsOf(this.byAlso, a).push(slot);
        slot++;
      }
      this.starts[d + 1] = slot;
    });
    this.best = new Float64Array(slot);
  }

  /** The query reaches `term` at `weight`: name terms that are it count that much, ones also called it `alsoFactor` times that. */
  reach(term: string, weight: number, alsoFactor: number): void {
    for (const s of this.byTerm.get(term) ?? []) this.raise(s, weight);
    for (const s of this.byAlso.get(term) ?? []) this.raise(s, weight * alsoFactor);
  }

  /** The sum, over a document's name terms in order, of the best weight the query gave each. */
  covered(doc: number): number {
    let covered = 0;
    for (let s = this.starts[doc]; s < this.starts[doc + 1]; s++) covered += this.best[s];
    return covered;
  }

  /** Forgets the query's weights, for the next query. */
  clear(): void {
    for (const s of this.touched) this.best[s] = 0;
    this.touched.length = 0;
  }

  private raise(slot: number, weight: number): void {
    if (this.best[slot] === 0) this.touched.push(slot);
    if (weight > this.best[slot]) this.best[slot] = weight;
  }
}

function slotsOf(map: Map<string, number[]>, term: string): number[] {
  let slots = map.get(term);
  if (!slots) map.set(term, (slots = []));
  return slots;
}
