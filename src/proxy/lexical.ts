/**
 * Local lexical search, the proxy's default ranker when no embeddings API is configured: BM25 over
 * weighted fields (tool name and what the software lexicon also calls its words, server, description,
 * parameter names and descriptions), queries expanded with the lexicon and WordNet below exact words,
 * names the query explains scored up, the action a query asks for matched against the tool's, and
 * destructive tools kept off the top unless their action is asked on their object.
 */
import { literalTerms, questionTerms, sharedSynonyms, stem, type Synonyms, tokenize, words } from '../lexicon/index.ts';
import { actionFit, directObject, isDestructive, queryActions, toolActions, withoutRequestFrame, type Action, type ToolHints } from './search/actions.ts';
import { heldBackFor, nameObjects, type ToolTarget } from './search/held-back.ts';
import { KEEPS_COPY } from './search/verbs.ts';
import { actionLeads, better, objectLeads, changesSomething, keep, meets, onlyLooks, type Hit } from './search/action-lead.ts';
import { detachment, objectPlace, toolSource } from './search/detach.ts';
import { NameCoverage, type NameTerm } from './search/name-coverage.ts';
import { FILE_NAME, namedServers, namedTerms, properNames, serverPatterns, valueWords, writtenInto, type ServerPatterns } from './search/query-terms.ts';

export { namedTerms, stem, tokenize };

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
const W = { name: 3, nameAlso: 0.3, server: 1.5, description: 1, firstSentence: 0.5, param: 0.7, paramDescription: 0.3, serverDescription: 0.3 };
/** Descriptions past this many terms add little but length. */
const DESCRIPTION_TERMS = 80;
/** Score factors for the action a query asks for against the tool's. */
const ACTION_MATCH = 1.3;
const ACTION_CLASH = 0.75;
const UNASKED_DESTRUCTIVE = 0.5;
/** Related words of a query word the catalog itself uses count this much of their weight. */
const OWN_WORD_EXPANSION = 0.5;
/** Score factor for a name explained in full by the query's words and related words (less in part). */
const NAME_COVERAGE = 0.5;
/** A query word the lexicon relates to a name word explains it as well as the word itself. */
const ALSO_COVERS = 1;
/** Score factor for a tool of a server the query names ("in Linear", "on Discord"). */
const NAMED_SERVER = 1.5;
/** The most the factors above can raise a raw score. */
const MAX_FACTOR = (1 + NAME_COVERAGE) * ACTION_MATCH * NAMED_SERVER;

/** Score weight of a value's words (a file name, a quoted string, a number): what to act on, not which tool. */
const VALUE_WEIGHT = 0.3;
/** Weight of a phrasal verb's verb on its own ("kick" of "kick off"), and the particles that make one. */
const PHRASAL_VERB_WEIGHT = 0.5;
const PARTICLES = new Set(['to', 'off', 'up', 'in', 'out', 'back', 'away', 'down', 'over', 'on']);
/** A name's words less verbs (the action is matched on its own) and the server's name, stemmed, each with what the lexicon also calls it. */
function nameContent(name: string, serverTerms: ReadonlySet<string>, synonyms: Synonyms): NameTerm[] {
  const out = new Map<string, string[]>();
  for (const w of words(name)) {
    if (toolActions(w, '').size > 0) continue;
    for (const t of tokenize(w)) if (!serverTerms.has(t) && !out.has(t)) out.set(t, synonyms.lexiconTerms(w));
  }
  return [...out].map(([term, also]) => ({ term, also }));
}

interface DocMeta {
  actions: Set<Action>;
  /** Annotated readOnlyHint: it changes nothing, whatever its words. */
  readOnly: boolean;
  destructive: boolean;
  nameWords: Set<string>;
  /** What the tool acts on, from its name. */
  target: ToolTarget;
  /** Stems of its name's words, less its verb and the server's name. */
  nameTerms: NameTerm[];
}

/**
 * A weighted-field BM25 index with synonym expansion and action-aware ranking.
 * @example
 *   const index = new LexicalIndex([{ id: 'fs/read_file', name: 'read_file', description: 'Read a file', params: ['path'] }]);
 *   index.search('open a file', 5);
 */
export class LexicalIndex {
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  /** Per document: K1 × its BM25 length normalisation, worked out once. */
  private norms = new Float64Array(0);
  private readonly meta: DocMeta[] = [];
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  /** Scratch score arrays, reused across searches (one search runs at a time: it is synchronous). */
  private totals = new Float64Array(0);
  private group = new Float64Array(0);
  private readonly synonyms: Synonyms;
  private readonly servers: ServerPatterns;
  private readonly coverage: NameCoverage;
  private avgLength = 0;

  constructor(docs: LexicalDoc[], options: { synonyms?: Synonyms } = {}) {
    this.synonyms = options.synonyms ?? sharedSynonyms();
    let total = 0;
    docs.forEach((doc, i) => {
      this.ids.push(doc.id);
      const counts = new Map<string, number>();
      let length = 0;
      const add = (terms: string[], weight: number): void => {
        for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + weight);
        length += terms.length * weight;
      };
      const server = doc.id.slice(0, Math.max(0, doc.id.indexOf('/')));
      const serverTerms = new Set(tokenize(server));
      // A description in a script the tokenizer cannot split (Japanese, Chinese, Korean) says nothing to English
      // queries: the name's words stand in for it, as an English description would repeat them.
      const unreadable = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(doc.description) && words(doc.description).filter((w) => /^[a-z]/.test(w)).length < 3;
      const description = unreadable ? tokenize(doc.name) : tokenize(doc.description);
      add(tokenize(doc.name), W.name);
      // What the name's words are also called in software ("directory" → folder): found by users' words.
      add(words(doc.name).flatMap((w) => this.synonyms.lexiconTerms(w)), W.nameAlso);
      add(tokenize(server), W.server);
      add(description.slice(0, DESCRIPTION_TERMS), W.description);
      // The first sentence says what the tool does; later ones add caveats, examples and error codes.
      add(unreadable ? description : tokenize(doc.description.split(/(?<=[.!?])\s|\n/)[0] ?? ''), W.firstSentence);
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
      const target = { ...nameObjects(doc.name, server, doc.description), source: toolSource(doc.name, doc.description, server), server };
      this.meta.push({ actions, readOnly: doc.annotations?.readOnlyHint === true, destructive: isDestructive(actions, doc.annotations), nameWords: new Set(words(doc.name)), target, nameTerms: nameContent(doc.name, serverTerms, this.synonyms) });
      this.lengths.push(length);
      total += length;
    });
    this.coverage = new NameCoverage(this.meta.map((m) => m.nameTerms));
    this.servers = serverPatterns(new Set(this.ids.map((id) => id.slice(0, Math.max(0, id.indexOf('/'))))));
    this.avgLength = docs.length ? total / docs.length : 0;
    this.norms = Float64Array.from(this.lengths, (len) => K1 * (1 - B + (B * len) / (this.avgLength || 1)));
    this.totals = new Float64Array(docs.length);
    this.group = new Float64Array(docs.length);
  }

  get size(): number {
    return this.ids.length;
  }

  private idf(term: string): number {
    const df = this.postings.get(term)?.docs.length ?? 0;
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  /** BM25 of one term into the group scratch, scaled by `weight`, keeping each doc's best value; touched docs are listed. */
  private scoreTerm(term: string, weight: number, touched: number[]): void {
    const p = this.postings.get(term);
    if (!p) return;
    const idf = this.idf(term) * weight * (K1 + 1);
    const group = this.group;
    const norms = this.norms;
    for (let j = 0; j < p.docs.length; j++) {
      const d = p.docs[j];
      const tf = p.tfs[j];
      const s = (idf * tf) / (tf + norms[d]);
      const was = group[d];
      if (was === 0) touched.push(d);
      if (s > was) group[d] = s;
    }
  }

  /** Adds one word group's best scores to the totals and clears the group scratch. */
  private addGroup(touched: number[], scored: number[]): void {
    for (const d of touched) {
      if (this.totals[d] === 0) scored.push(d);
      this.totals[d] += this.group[d];
      this.group[d] = 0;
    }
  }

  /** Top k documents for the query, best first; docs sharing no term (nor a related one) are left out. */
  search(query: string, k: number, allow?: (id: string) => boolean): LexicalHit[] {
    if (this.ids.length === 0) return [];
    const seen = new Set<string>();
    const groups: Array<{ word: string; term: string; name: boolean; weight: number }> = [];
    const names = properNames(query);
    const values = valueWords(query);
    for (const w of words(query)) {
      const terms = tokenize(w);
      if (terms.length !== 1 || seen.has(terms[0])) continue;
      seen.add(terms[0]);
      const value = values.has(w);
      groups.push({ word: w, term: terms[0], name: names.has(w) || value, weight: value ? VALUE_WEIGHT : 1 });
    }
    if (FILE_NAME.test(query) && !seen.has('file')) groups.push({ word: 'file', term: 'file', name: false, weight: 1 });
    // Question words ("who", "how many") and the lexicon's phrases ("mouse over") add what they mean.
    const phrases = this.synonyms.phrases(query);
    // A phrasal verb means what its phrase means: "go to" is navigating, not a `go_back`.
    for (const p of phrases) {
      const [verb, particle] = p.phrase.split(' ');
      if (!PARTICLES.has(particle)) continue;
      for (const g of groups) if (g.word === verb) g.weight *= PHRASAL_VERB_WEIGHT;
    }
    // Typed values ("17 times 23", "10.0.0.0/24", "2.10.0") add the words for their kind.
    const questions = [...questionTerms(query), ...phrases, ...literalTerms(query)];
    if (groups.length === 0 && questions.length === 0) return [];
    const totals = this.totals;
    const scored: number[] = [];
    let best = 0;
    // Every term the query reaches, with its weight: how much of a tool's name the query explains.
    const reach = new Map<string, number>();
    const reached = (term: string, weight: number): void => {
      if ((reach.get(term) ?? 0) < weight) reach.set(term, weight);
    };
    for (const g of groups) {
      const touched: number[] = [];
      reached(g.term, g.weight);
      this.scoreTerm(g.term, g.weight, touched);
      // A proper name ("Acme", "Denver") means itself: its dictionary senses ("peak") would mislead.
      // A word the tools use themselves needs its related words less than one they never use.
      const own = this.postings.has(g.term) ? OWN_WORD_EXPANSION : 1;
      for (const r of g.name ? [] : this.synonyms.related(g.word)) {
        if (!seen.has(r.term)) { this.scoreTerm(r.term, r.weight * own * g.weight, touched); reached(r.term, r.weight * own * g.weight); }
      }
      best += this.idf(g.term) * (K1 + 1) * g.weight;
      this.addGroup(touched, scored);
    }
    // Question words ("who", "how many") add what they ask about, like synonyms, without raising the best score.
    for (const q of questions) {
      const touched: number[] = [];
      for (const r of q.related) if (!seen.has(r.term)) { this.scoreTerm(r.term, r.weight, touched); reached(r.term, r.weight); }
      this.addGroup(touched, scored);
    }
    const asked = queryActions(query);
    // What the imperative itself asks (an HTTP method named in the query is a value, not a request to destroy).
    let askedHold = /\b(GET|POST|PUT|PATCH|DELETE)\b/.test(query) ? queryActions(query, { methods: false }) : asked;
    // Detaching a label or a person from something updates that thing.
    if (detachment(query)) { asked.add('update'); askedHold = new Set([...askedHold, 'update']); }
    const lead = words(withoutRequestFrame(query))[0];
    // What the query acts on, in its own words and what the software lexicon calls them (WordNet's senses are
    // too loose to move a tool up: a disk is also a phonograph record).
    const acted = new Set<string>();
    for (const w of [...directObject(query) ?? [], ...writtenInto(query) ?? []]) {
      for (const t of tokenize(w)) acted.add(t);
      for (const t of this.synonyms.lexiconTerms(w)) acted.add(t);
    }
    if (FILE_NAME.test(query)) acted.add('file');
    // Where the object is ("in project web-app"): a tool acting on that place is not the one asked for.
    // A detachment ("remove the label from these emails") updates the place itself.
    const place = new Set(detachment(query) ? [] : (objectPlace(query) ?? []).flatMap((w) => tokenize(w)));
    // A query asking to change something (write, create, delete, send…) is not answered by a tool that only
    // looks. Running is left out: a query run may only read.
    const changes = changesSomething(asked);
    // What the query acts on: a destructive tool must act on one of these to lead.
    const named = { ...namedTerms(query, this.synonyms), servers: namedServers(query, this.servers) };
    // The top k kept in order as scores arrive (k is small; sorting every scored doc is not needed),
    // and the best hit not held back, which leads when the top one is held back.
    this.coverage.clear();
    for (const [term, weight] of reach) this.coverage.reach(term, weight, ALSO_COVERS);
    const top: Hit[] = [];
    const promotable: Hit[] = [];
    let free: Hit | undefined;
    for (const d of scored) {
      const raw = totals[d];
      totals[d] = 0;
      if (allow && !allow(this.ids[d])) continue;
      // A doc that could not enter the top k nor lead even at the highest factors is not weighed further.
      // (Not for a query asking to change something or naming where its object is: a tool of its action, or
      // on its object, may move up from below the top k.)
      const bound = raw * MAX_FACTOR;
      if (!changes && place.size === 0 && free && top.length >= k && bound < top[top.length - 1].score && bound < free.score) continue;
      const { actions, readOnly, destructive, nameWords, target, nameTerms } = this.meta[d];
      // A name the query explains word for word is the tool asked for ("make a folder" → create_directory).
      const coverage = nameTerms.length ? 1 + NAME_COVERAGE * (this.coverage.covered(d) / nameTerms.length) : 1;
      const fit = actionFit(asked, actions);
      const fitHold = askedHold === asked ? fit : actionFit(askedHold, actions);
      // A destructive tool whose action the query does not ask for is held back and scores lower;
      // one whose action is asked but on another object ("add a paragraph" → create_page) only never leads.
      const held = heldBackFor(lead, askedHold, nameWords, actions, destructive, target, named);
      const fitted = raw * (fit === 'match' ? ACTION_MATCH : fit === 'clash' ? ACTION_CLASH : 1) * (held && fitHold !== 'match' ? UNASKED_DESTRUCTIVE : 1);
      // Similarity leaves name coverage out: it orders hits, while min_similarity and the fallback
      // threshold measure how much of the query a tool's text answers.
      const own = named.servers.size > 0 && target.server !== undefined && named.servers.has(target.server) ? NAMED_SERVER : 1;
      const hit: Hit = { d, score: fitted * coverage * own, held, sim: fitted, fit, looks: changes && (onlyLooks(actions) || (actions.size === 0 && readOnly)) && ![...nameWords].some((w) => KEEPS_COPY.has(w)), onObject: fit === 'match' && meets(target.what, acted) };
      // A name that also says the object ("get_dashboard_cards" for "the cards on dashboard 6") acts on it.
      hit.onPlace = !hit.onObject && place.size > 0 && meets(target.what, place) && !nameTerms.some((t) => acted.has(t.term));
      if (!held && (!free || better(hit, free))) free = hit;
      keep(top, hit, k);
      // The best k tools that may move up past a tool that only looks (actionLeads), wherever they rank.
      if (hit.fit === 'match' && hit.onObject && !hit.held) keep(promotable, hit, k);
    }
    for (const h of promotable) if (!top.includes(h)) keep(top, h, top.length + 1);
    // Never first: the best tool that is not held back leads when there is one.
    if (top.length > 0 && top[0].held && free) {
      const at = top.indexOf(free);
      if (at >= 0) top.splice(at, 1);
      top.unshift(free);
    }
    actionLeads(top);
    objectLeads(top);
    const hits = top.slice(0, k).map((h) => ({ id: this.ids[h.d], score: h.score, similarity: best > 0 ? Math.min(1, h.sim / best) : 0 }));
    return hits;
  }
}
