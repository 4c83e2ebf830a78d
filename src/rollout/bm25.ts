/** One retrievable document, in the retrieval server's shape (Search-R1/GEM): title on the first line of `contents`. */
export interface SearchDocument {
  contents: string;
}

/** A search backend for the `search` tool: the best `topk` documents for a query, best first. */
export interface SearchBackend {
  search(query: string, topk: number): SearchDocument[] | Promise<SearchDocument[]>;
}

const tokenize = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * A local Okapi BM25 index over a document set (k1 = 1.2, b = 0.75), for tests and
 * small corpora. Ties keep the documents' order.
 *
 * @example
 * const index = new Bm25Index([{ contents: '"Paris"\nParis is the capital of France.' }]);
 * index.search('capital of France', 3) // [{ contents: '"Paris"\nParis is ...' }]
 */
export class Bm25Index implements SearchBackend {
  readonly documents: readonly SearchDocument[];
  readonly #terms: Array<Map<string, number>>;
  readonly #lengths: number[];
  readonly #documentFrequency = new Map<string, number>();
  readonly #averageLength: number;
  readonly #k1: number;
  readonly #b: number;

  constructor(documents: readonly SearchDocument[], options: { k1?: number; b?: number } = {}) {
    this.documents = [...documents];
    this.#k1 = options.k1 ?? 1.2;
    this.#b = options.b ?? 0.75;
    this.#terms = this.documents.map((doc) => {
      const counts = new Map<string, number>();
      for (const token of tokenize(doc.contents)) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const term of counts.keys()) this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
      return counts;
    });
    this.#lengths = this.#terms.map((counts) => [...counts.values()].reduce((a, b) => a + b, 0));
    this.#averageLength = this.#lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.#lengths.length);
  }

  search(query: string, topk: number): SearchDocument[] {
    const n = this.documents.length;
    const terms = [...new Set(tokenize(query))];
    const scored = this.#terms.map((counts, index) => {
      let score = 0;
      for (const term of terms) {
        const tf = counts.get(term);
        if (!tf) continue;
        const df = this.#documentFrequency.get(term)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (this.#k1 + 1)) / (tf + this.#k1 * (1 - this.#b + (this.#b * this.#lengths[index]) / (this.#averageLength || 1)));
      }
      return { index, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, topk)
      .map((s) => this.documents[s.index]);
  }
}
