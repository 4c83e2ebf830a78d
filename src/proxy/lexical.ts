/**
 * Local lexical search: BM25 over tool names, descriptions and parameter names. The fallback when
 * no embeddings API is configured, and fast enough to search 10,000 tools in well under 5 ms.
 */

const STOPWORDS = new Set(('a an and are as at be by can do does for from get has have how i in into is it its me my of on or ' +
  'that the their them then there these this to use used using was what when which will with you your all any').split(' '));

/** Crude suffix stripping so "files"/"file", "searching"/"search", "created"/"create" meet. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && /(sh|ch|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  if (word.endsWith('e') && word.length > 4) return word.slice(0, -1);
  return word;
}

/**
 * Splits text into search terms: camelCase and snake_case split, lowercased, stopwords dropped, stemmed.
 * @example
 *   tokenize('readFile: Reads files'); // ['read', 'file', 'read', 'file']
 */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const out: string[] = [];
  for (const word of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

export interface LexicalDoc {
  id: string;
  name: string;
  description: string;
  params: string[];
}

export interface LexicalHit {
  id: string;
  /** Raw BM25 score. */
  score: number;
  /** Score over the best score the query could reach: 0..1, comparable with min_similarity. */
  similarity: number;
}

const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 3;

/**
 * A BM25 index.
 * @example
 *   const index = new LexicalIndex([{ id: 'fs/read_file', name: 'read_file', description: 'Read a file', params: ['path'] }]);
 *   index.search('open a file', 5);
 */
export class LexicalIndex {
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private avgLength = 0;

  constructor(docs: LexicalDoc[]) {
    let total = 0;
    docs.forEach((doc, i) => {
      this.ids.push(doc.id);
      const terms: string[] = [];
      const nameTerms = tokenize(doc.name);
      for (let w = 0; w < NAME_WEIGHT; w++) terms.push(...nameTerms);
      terms.push(...tokenize(doc.description), ...doc.params.flatMap(tokenize));
      const counts = new Map<string, number>();
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let p = this.postings.get(term);
        if (!p) { p = { docs: [], tfs: [] }; this.postings.set(term, p); }
        p.docs.push(i);
        p.tfs.push(tf);
      }
      this.lengths.push(terms.length);
      total += terms.length;
    });
    this.avgLength = docs.length ? total / docs.length : 0;
  }

  get size(): number {
    return this.ids.length;
  }

  private idf(term: string): number {
    const df = this.postings.get(term)?.docs.length ?? 0;
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  /** Top k documents for the query, best first; docs sharing no term are left out. */
  search(query: string, k: number, allow?: (id: string) => boolean): LexicalHit[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0 || this.ids.length === 0) return [];
    const scores = new Map<number, number>();
    let best = 0;
    for (const term of terms) {
      const p = this.postings.get(term);
      const idf = this.idf(term);
      best += idf * (K1 + 1);
      if (!p) continue;
      for (let j = 0; j < p.docs.length; j++) {
        const d = p.docs[j];
        const tf = p.tfs[j];
        const norm = tf + K1 * (1 - B + (B * this.lengths[d]) / this.avgLength);
        scores.set(d, (scores.get(d) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    const hits: LexicalHit[] = [];
    for (const [d, score] of scores) {
      const id = this.ids[d];
      if (allow && !allow(id)) continue;
      hits.push({ id, score, similarity: best > 0 ? Math.min(1, score / best) : 0 });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, k);
  }
}
