/**
 * Related words for query expansion: WordNet synonyms (the first senses of the word as a verb and a
 * noun), hypernyms (the more general word: "delete" → "remove") and derived forms ("remember" →
 * "memory"), plus a lexicon of software vocabulary WordNet does not know in that sense
 * (software-terms.ts: "repo", "folder" as a directory, "ticket" as an issue, "mouse over" as hover).
 */
import { IRREGULAR_FORMS } from './irregular-verbs.ts';
import { SOFTWARE_TERMS } from './software-terms.ts';
import { stem, STOPWORDS, words } from './words.ts';
import { sharedWordNet, type PartOfSpeech, type WordNet } from './wordnet.ts';

export interface Related {
  /** Stem of the related word. */
  term: string;
  /** How close: 0.8 for the software lexicon, lower for WordNet synonyms, lower still for hypernyms. */
  weight: number;
}

/** What a question word asks about: "who" is a person, "how many" a count (these words are otherwise stopwords). */
const QUESTIONS: Record<string, string[]> = {
  who: ['user', 'member', 'people', 'author', 'collaborator', 'owner'], where: ['location', 'place', 'address'], when: ['date', 'time'],
  why: ['cause', 'reason', 'explain'], 'how many': ['count', 'number'], 'how much': ['count', 'amount'],
  'how big': ['size'], 'how large': ['size'], 'how long': ['time', 'duration', 'distance'], 'how far': ['distance'],
  // "what's in this folder", "what is inside config.yaml": its contents.
  'how high': ['height', 'elevation', 'altitude'], 'how tall': ['height'], 'what happened': ['activity', 'history', 'event'],
  "what's in": ['content', 'list'], 'what is in': ['content', 'list'], "what's inside": ['content', 'read'], 'what is inside': ['content', 'read'],
};

/** Each question phrase with its pattern, compiled once (every search asks each of them). */
const QUESTION_PATTERNS = Object.entries(QUESTIONS).map(([phrase, meant]) => ({ phrase, meant, pattern: new RegExp(`(^|[^a-z])${phrase}([^a-z]|$)`) }));

/**
 * The question phrases of a query with what they ask about, as related terms.
 * @example
 *   questionTerms('who is in our Slack workspace'); // [{ phrase: 'who', related: [{ term: 'user', weight: 0.5 }, ...] }]
 */
export function questionTerms(query: string): Array<{ phrase: string; related: Related[] }> {
  const text = query.toLowerCase();
  const out: Array<{ phrase: string; related: Related[] }> = [];
  for (const { phrase, meant, pattern } of QUESTION_PATTERNS) {
    if (!pattern.test(text)) continue;
    if (phrase === 'how' || out.some((o) => o.phrase.startsWith(phrase))) continue;
    out.push({ phrase, related: meant.map((w) => ({ term: stem(w), weight: QUESTION_WEIGHT })) });
  }
  return out;
}

const SYNONYM_WEIGHT = 0.5;
/** Software lexicon relations: above WordNet's (they are meant in this sense), below the word itself. */
const LEXICON_WEIGHT = 0.8;
/** WordNet relations of a word the lexicon knows count this much: the lexicon knows the software sense ("folder" is a directory, not a booklet). */
const LEXICON_SHADOWS_WORDNET = 0.5;
const QUESTION_WEIGHT = 0.5;
const HYPERNYM_WEIGHT = 0.3;
const SENSES = 3;
/** Words remembered per instance before the memo starts over. */
const MAX_MEMO = 20_000;
/** Longer words are worked out each time: no real word is this long, and a memo of them would be bounded by count alone. */
const MAX_MEMO_WORD = 64;
const DERIVED_WEIGHT = 0.5;

/** The software lexicon, indexed: groups as word lists per member, single-word members by stem, phrases. */
class SoftwareLexicon {
  private readonly groups: string[][][] = [];
  private readonly byStem = new Map<string, number[]>();
  private readonly phrases: Array<{ words: string[]; stems: string[]; group: number }> = [];
  /** Phrase indexes by their first word's stem: a text is matched against the phrases that can start at each word, not all of them. */
  private readonly phrasesByFirst = new Map<string, number[]>();

  constructor(lines: readonly string[]) {
    lines.forEach((line, g) => {
      const members = line.split('|').map((m) => words(m.trim()));
      this.groups.push(members);
      for (const m of members) {
        if (m.length === 1) this.byStem.set(stem(m[0]), [...(this.byStem.get(stem(m[0])) ?? []), g]);
        else if (m.length > 1) this.phrases.push({ words: m, stems: m.map(stem), group: g });
      }
    });
    this.phrases.forEach((p, i) => this.phrasesByFirst.set(p.stems[0], [...(this.phrasesByFirst.get(p.stems[0]) ?? []), i]));
  }

  /** The words of a group's members other than `except` (a stem or a phrase's words), stopwords out. */
  private others(group: number, except: string[]): string[] {
    const out: string[] = [];
    for (const m of this.groups[group]) {
      if (m.length === except.length && m.every((w, i) => stem(w) === stem(except[i]))) continue;
      for (const w of m) if (!STOPWORDS.has(w)) out.push(w);
    }
    return out;
  }

  /** Words related to one word through the groups it is a member of. */
  related(word: string): string[] {
    return (this.byStem.get(stem(word)) ?? []).flatMap((g) => this.others(g, [word]));
  }

  /** Words of the members of the groups a word is a member of, other than the word itself, phrasal verbs ("note down") left out. */
  relatedNames(word: string): string[] {
    const self = stem(word);
    return (this.byStem.get(self) ?? []).flatMap((g) => this.groups[g]
      .filter((m) => !(m.length === 1 && stem(m[0]) === self) && !(m.length > 1 && PARTICLES.has(m[m.length - 1])))
      .flat());
  }

  /** The single words among the members of the groups a word is a member of, other than the word itself. */
  singleNames(word: string): string[] {
    const self = stem(word);
    return (this.byStem.get(self) ?? []).flatMap((g) => this.groups[g].filter((m) => m.length === 1 && stem(m[0]) !== self).map((m) => m[0]));
  }

  /** Phrases of the lexicon in a text ("mouse over", "how far"), each with its related words. */
  phrasesIn(text: string): Array<{ phrase: string; related: string[] }> {
    const raw = words(text);
    // "going to" + a verb is the future ("is it going to rain"), not going somewhere: that "go to" is no phrase.
    const ws = raw.map((w, i) => (w === 'going' && raw[i + 1] === 'to' ? w : stem(w)));
    const found = new Set<number>();
    ws.forEach((first, i) => {
      for (const index of this.phrasesByFirst.get(first) ?? []) {
        const { stems } = this.phrases[index];
        if (i + stems.length <= ws.length && stems.every((st, j) => ws[i + j] === st)) found.add(index);
      }
    });
    // In the lexicon's order, each phrase once.
    return [...found].sort((a, b) => a - b).map((index) => {
      const p = this.phrases[index];
      return { phrase: p.words.join(' '), related: this.others(p.group, p.words) };
    });
  }
}

/** Particles that end a phrasal verb. */
const PARTICLES = new Set(['up', 'down', 'off', 'out', 'in', 'on', 'over', 'away', 'back', 'through']);

/** WordNet's detachment rules (Morphy): candidate base forms of an inflected word. */
function baseForms(word: string, pos: PartOfSpeech): string[] {
  const rules: Array<[string, string]> = pos === 'verb'
    ? [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['nning', 'n'], ['tting', 't'], ['pping', 'p'], ['gging', 'g'], ['mming', 'm']]
    : [['s', ''], ['ses', 's'], ['xes', 'x'], ['ches', 'ch'], ['shes', 'sh'], ['ies', 'y']];
  const out = [word];
  const irregular = pos === 'verb' ? IRREGULAR_FORMS.get(word) : undefined;
  if (irregular) out.push(irregular);
  for (const [suffix, repl] of rules) if (word.endsWith(suffix) && word.length > suffix.length + 2) out.push(word.slice(0, -suffix.length) + repl);
  return out;
}

/**
 * Related words of one word, memoised per instance.
 * @example
 *   const synonyms = new Synonyms();
 *   synonyms.related('erase'); // [{ term: 'delet', weight: 0.5 }, { term: 'remov', weight: 0.3 }, ...]
 */
export class Synonyms {
  private readonly wordnet: WordNet;
  private readonly memo = new Map<string, Related[]>();
  private readonly lexiconMemo = new Map<string, string[]>();
  private readonly lexicon: SoftwareLexicon;

  constructor(wordnet: WordNet = sharedWordNet(), lexicon: readonly string[] = SOFTWARE_TERMS) {
    this.wordnet = wordnet;
    this.lexicon = new SoftwareLexicon(lexicon);
  }

  /**
   * Stems the software lexicon relates to a word, only these (no WordNet): what a tool's own name
   * words are also called ("directory" → folder, dir).
   * @example
   *   new Synonyms().lexiconTerms('directory'); // ['folder', 'dir']
   */
  lexiconTerms(word: string): string[] {
    const key = word.toLowerCase();
    let found = this.lexiconMemo.get(key);
    if (found) return found;
    const self = stem(key);
    found = [...new Set(this.lexicon.related(key).filter((w) => w.length > 1 && !STOPWORDS.has(w)).map(stem))].filter((t) => t !== self);
    if (key.length <= MAX_MEMO_WORD) {
      if (this.lexiconMemo.size >= MAX_MEMO) this.lexiconMemo.clear();
      this.lexiconMemo.set(key, found);
    }
    return found;
  }

  /**
   * Stems of what the software lexicon gives as another name for a word: what a noun is also called
   * ("records" → row, document, entry; "PR" → pull, request), without its phrasal verbs ("note down" says nothing of notes).
   * @example
   *   new Synonyms().lexiconNames('folder'); // ['directori', 'dir']
   */
  lexiconNames(word: string): string[] {
    return [...new Set(this.lexicon.relatedNames(word.toLowerCase()).filter((w) => w.length > 1 && !STOPWORDS.has(w)).map(stem))];
  }

  /**
   * Stems of the single words the software lexicon gives as another name for a word, no phrase's words
   * ("tag" → label, hashtag; not "release" of "release tag").
   * @example
   *   new Synonyms().lexiconWords('tag'); // ['label', 'hashtag']
   */
  lexiconWords(word: string): string[] {
    return [...new Set(this.lexicon.singleNames(word.toLowerCase()).filter((w) => w.length > 1 && !STOPWORDS.has(w)).map(stem))];
  }

  /**
   * The software lexicon's phrases found in a query, each with its related terms ("mouse over" → hover).
   * @example
   *   new Synonyms().phrases('mouse over the menu'); // [{ phrase: 'mouse over', related: [{ term: 'hover', weight: 0.8 }, ...] }]
   */
  phrases(query: string): Array<{ phrase: string; related: Related[] }> {
    return this.lexicon.phrasesIn(query).map(({ phrase, related }) => {
      const best = new Map<string, number>();
      for (const w of related) if (w.length > 1) best.set(stem(w), LEXICON_WEIGHT);
      return { phrase, related: [...best].map(([term, weight]) => ({ term, weight })) };
    });
  }

  related(word: string): Related[] {
    const key = word.toLowerCase();
    let found = this.memo.get(key);
    if (found) return found;
    const self = stem(key);
    const best = new Map<string, number>();
    const add = (w: string, weight: number): void => {
      if (w.includes(' ') || w.length < 2 || STOPWORDS.has(w)) return;
      const s = stem(w);
      if (s === self) return;
      if ((best.get(s) ?? 0) < weight) best.set(s, weight);
    };
    const known = this.lexicon.related(key);
    for (const w of known) add(w, LEXICON_WEIGHT);
    const wnScale = known.length > 0 ? LEXICON_SHADOWS_WORDNET : 1;
    const uses = (['verb', 'noun'] as const).map((pos) => {
      const lemma = baseForms(key, pos).find((f) => this.wordnet.offsets(f, pos).length > 0);
      return { pos, lemma, tagged: lemma ? this.wordnet.tagged(lemma, pos) : 0 };
    }).filter((u) => u.lemma !== undefined);
    // Only the word's common uses: "pods" is a noun, so its rare verb senses ("shell", "get") stay out.
    const top = Math.max(0, ...uses.map((u) => u.tagged));
    for (const { pos, lemma, tagged } of uses) {
      if (tagged * 4 < top) continue;
      this.wordnet.senses(lemma as string, pos, SENSES).forEach((synset, sense) => {
        for (const w of synset.words) add(w, SYNONYM_WEIGHT * wnScale);
        if (sense === 0) for (const h of synset.hypernyms) for (const w of this.wordnet.synset(h, pos).words) add(w, HYPERNYM_WEIGHT * wnScale);
        if (sense === 0) for (const d of synset.derived) for (const w of this.wordnet.synset(d.offset, d.pos).words) add(w, DERIVED_WEIGHT * wnScale);
      });
    }
    found = [...best].map(([term, weight]) => ({ term, weight }));
    // Bounded in entries and in bytes (no long words): a long-running proxy sees endless distinct query words,
    // and one Synonyms serves the whole process (sharedSynonyms).
    if (key.length <= MAX_MEMO_WORD) {
      if (this.memo.size >= MAX_MEMO) this.memo.clear();
      this.memo.set(key, found);
    }
    return found;
  }
}

/** Related words of the default lexicon and WordNet are derived data only: one memo serves every index and embedding in the process. */
let shared: Synonyms | undefined;

/**
 * The process-wide Synonyms over the shared WordNet reader and the software lexicon (memoised, bounded).
 * @example
 *   sharedSynonyms().related('erase');
 */
export function sharedSynonyms(): Synonyms {
  shared ??= new Synonyms();
  return shared;
}
