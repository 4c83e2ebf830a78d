/**
 * Local lexical search, the proxy's default ranker when no embeddings API is configured: BM25 over
 * weighted fields (tool name, server, description, parameter names and descriptions), queries
 * expanded with WordNet synonyms and hypernyms weighted below exact words, the action a query asks
 * for matched against the tool's, and destructive tools kept off the top unless their action is asked.
 */
import { stem, Synonyms, tokenize, words } from '../lexicon/index.ts';
import { actionFit, heldBack, isDestructive, leadWithAsked, queryActions, toolActions, type Action, type ToolHints } from './search/actions.ts';

export { stem, tokenize };

export interface LexicalDoc {
  id: string;
  name: string;
  description: string;
  /** Parameter names. */
  params: string[];
  /** Parameter descriptions. */
  paramDescriptions?: string[];
  /** What the server says about itself (its MCP instructions or a configured description). */
  serverDescription?: string;
  /** MCP tool annotations. */
  annotations?: ToolHints;
}

export interface LexicalHit {
  id: string;
  /** Raw score. */
  score: number;
  /** Score over the best score the query could reach: 0..1, comparable with min_similarity. */
  similarity: number;
}

const K1 = 1.2;
const B = 0.75;
/** Field weights: a word in the tool's name says more than one deep in its description. */
const W = { name: 3, server: 1.5, lead: 1, description: 1, param: 0.7, paramDescription: 0.3, serverDescription: 0.3 };
/** Descriptions past this many terms add little but length. */
const DESCRIPTION_TERMS = 80;
/** Score factors for the action a query asks for against the tool's. */
const ACTION_MATCH = 1.3;
const ACTION_CLASH = 0.75;
const UNASKED_DESTRUCTIVE = 0.5;
/** A word with a file extension ("README.old", "config.yaml") names a file. */
const FILE_NAME = /\b[\w-]+\.(?!com\b|org\b|io\b|net\b)[a-z][a-z0-9]{0,4}\b/i;

/** Lowercased words written with a capital inside the query: names of people, places, products. */
function properNames(query: string): Set<string> {
  const out = new Set<string>();
  const found = query.match(/(?<=\S\s+)[A-Z][a-z]+\b/g) ?? [];
  for (const w of found) out.add(w.toLowerCase());
  return out;
}

interface DocMeta {
  actions: Set<Action>;
  destructive: boolean;
}

/**
 * A weighted-field BM25 index with synonym expansion and action-aware ranking.
 * @example
 *   const index = new LexicalIndex([{ id: 'fs/read_file', name: 'read_file', description: 'Read a file', params: ['path'] }]);
 *   index.search('open a file', 5);
 */
export class LexicalIndex {
  private readonly ids: string[] = [];
  private readonly names: string[] = [];
  private readonly lengths: number[] = [];
  private readonly meta: DocMeta[] = [];
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly synonyms: Synonyms;
  private avgLength = 0;

  constructor(docs: LexicalDoc[], options: { synonyms?: Synonyms } = {}) {
    this.synonyms = options.synonyms ?? new Synonyms();
    let total = 0;
    docs.forEach((doc, i) => {
      this.ids.push(doc.id);
      this.names.push(doc.name);
      const counts = new Map<string, number>();
      let length = 0;
      const add = (terms: string[], weight: number): void => {
        for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + weight);
        length += terms.length * weight;
      };
      const server = doc.id.slice(0, Math.max(0, doc.id.indexOf('/')));
      const description = tokenize(doc.description);
      add(tokenize(doc.name), W.name);
      add(tokenize(server), W.server);
      add(description.slice(0, DESCRIPTION_TERMS), W.description);
      add(doc.params.flatMap(tokenize), W.param);
      add((doc.paramDescriptions ?? []).flatMap(tokenize).slice(0, DESCRIPTION_TERMS), W.paramDescription);
      add(tokenize(doc.serverDescription ?? '').slice(0, DESCRIPTION_TERMS), W.serverDescription);
      for (const [term, tf] of counts) {
        let p = this.postings.get(term);
        if (!p) { p = { docs: [], tfs: [] }; this.postings.set(term, p); }
        p.docs.push(i);
        p.tfs.push(tf);
      }
      const actions = toolActions(doc.name, doc.description);
      this.meta.push({ actions, destructive: isDestructive(actions, doc.annotations) });
      this.lengths.push(length);
      total += length;
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

  /** BM25 of one term into `into`, scaled by `weight`, keeping each doc's best value. */
  private scoreTerm(term: string, weight: number, into: Map<number, number>): void {
    const p = this.postings.get(term);
    if (!p) return;
    const idf = this.idf(term) * weight;
    for (let j = 0; j < p.docs.length; j++) {
      const d = p.docs[j];
      const tf = p.tfs[j];
      const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[d]) / this.avgLength));
      if (s > (into.get(d) ?? 0)) into.set(d, s);
    }
  }

  /** Top k documents for the query, best first; docs sharing no term (nor a related one) are left out. */
  search(query: string, k: number, allow?: (id: string) => boolean): LexicalHit[] {
    if (this.ids.length === 0) return [];
    const seen = new Set<string>();
    const groups: Array<{ word: string; term: string; name: boolean }> = [];
    const names = properNames(query);
    for (const w of words(query)) {
      const terms = tokenize(w);
      if (terms.length !== 1 || seen.has(terms[0])) continue;
      seen.add(terms[0]);
      groups.push({ word: w, term: terms[0], name: names.has(w) });
    }
    if (FILE_NAME.test(query) && !seen.has('file')) groups.push({ word: 'file', term: 'file', name: false });
    if (groups.length === 0) return [];
    const scores = new Map<number, number>();
    let best = 0;
    for (const g of groups) {
      const group = new Map<number, number>();
      this.scoreTerm(g.term, 1, group);
      // A proper name ("Acme", "Denver") means itself: its dictionary senses ("peak") would mislead.
      for (const r of g.name ? [] : this.synonyms.related(g.word)) {
        if (!seen.has(r.term)) this.scoreTerm(r.term, r.weight, group);
      }
      best += this.idf(g.term) * (K1 + 1);
      for (const [d, s] of group) scores.set(d, (scores.get(d) ?? 0) + s);
    }
    const asked = queryActions(query);
    const hits: Array<LexicalHit & { held: boolean }> = [];
    for (const [d, raw] of scores) {
      const id = this.ids[d];
      if (allow && !allow(id)) continue;
      const { actions, destructive } = this.meta[d];
      const fit = actionFit(asked, actions);
      // A destructive tool whose action the query does not ask for is held back.
      const held = heldBack(query, asked, this.names[d], actions, destructive);
      const score = raw * (fit === 'match' ? ACTION_MATCH : fit === 'clash' ? ACTION_CLASH : 1) * (held ? UNASKED_DESTRUCTIVE : 1);
      hits.push({ id, score, similarity: best > 0 ? Math.min(1, score / best) : 0, held });
    }
    hits.sort((a, b) => b.score - a.score);
    // Never first: the best tool that is not held back leads when there is one.
    leadWithAsked(hits, (h) => h.held);
    return hits.slice(0, k).map(({ id, score, similarity }) => ({ id, score, similarity }));
  }
}
