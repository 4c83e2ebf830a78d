/**
 * Words of tool names, descriptions and queries: identifiers split (snake, kebab, camel, dotted and
 * slashed namespaces), lowercased, stopwords dropped, and Porter-stemmed by the `stemmer` package
 * so that "issue", "issues" and "issued" (and "queue", "queued" and "queuing") all meet at one stem.
 */
import { stemmer } from 'stemmer';
import { IRREGULAR_FORMS } from './irregular-verbs.ts';

/** Function words and request fillers that say nothing about which tool is wanted. */
export const STOPWORDS: ReadonlySet<string> = new Set((
  'a an and are as at be been but by can could do does did for from had has have how i if in into is it its just me my ' +
  'of on or our please so some than that the their them then there these they this those to us use used using was we ' +
  'what when where which who will with would you your all any also each every via should may might must let lets want ' +
  'need i\'m it\'s what\'s'
).split(' '));

/**
 * Splits identifiers and prose into lowercase words: "getPullRequest", "list-files", "API-post-page",
 * "fs.read_file" and "HTTPServer" all come apart.
 * @example
 *   words('API-post-page readFile'); // ['api', 'post', 'page', 'read', 'file']
 */
export function words(text: string): string[] {
  // The search runs this on every query and tool text many times over: the replacements run only where they can match.
  const spaced = (/[A-Z]/.test(text) ? text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') : text).toLowerCase();
  const out: string[] = [];
  for (const piece of spaced.split(/[^\p{L}\p{N}']+/u)) {
    const w = piece.includes("'") ? piece.replace(/^'+|'+$/g, '').replace(/'s$/, '') : piece;
    if (w.length > 0) out.push(w);
  }
  return out;
}

/** A vowel in Porter's sense: a, e, i, o, u, and y after a consonant. */
function isVowel(word: string, i: number): boolean {
  const c = word[i];
  return 'aeiou'.includes(c) || (c === 'y' && i > 0 && !isVowel(word, i - 1));
}

/**
 * Whether `word` is what Porter strips -ed or -ing down to (it has a vowel) while its measure is 0
 * (no vowel is followed by a consonant): "queu", "fre", "ti", but not "pr" or "gt".
 */
function vowelledMeasureZero(word: string): boolean {
  let vowel = false;
  for (let i = 0; i < word.length; i++) {
    if (isVowel(word, i)) vowel = true;
    else if (vowel) return false;
  }
  return vowel;
}

/**
 * The stem of a lowercase word: Porter's algorithm, after irregular verb forms are taken to their base,
 * so that a word and its -s, -ed and -ing forms share one stem. Porter keeps a final e when what precedes
 * it has measure 0 ("queue" → queue, "tie" → tie) but strips -ed and -ing down to that same rest without
 * giving the e back ("queued" → queu, "tied" → ti), so such a final e is dropped from every form alike.
 * @example
 *   stem('queue') === stem('queued'); // true: both "queu"
 */
export function stem(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    found = porterStem(word);
    if (word.length <= MAX_MEMO_WORD) {
      if (stems.size >= MAX_STEMS) stems.clear();
      stems.set(word, found);
    }
  }
  return found;
}

/**
 * Stems already worked out: derived data only, the same for every caller, so one memo serves the process
 * (the search and the mock embeddings stem the same few thousand words over and over; Porter's steps are
 * regular expressions). Bounded in entries and word length, so memory stays bounded whatever the texts.
 */
const stems = new Map<string, string>();
const MAX_STEMS = 50_000;
const MAX_MEMO_WORD = 40;

function porterStem(word: string): string {
  const base = IRREGULAR_FORMS.get(word) ?? word;
  if (base.length <= 2) return base;
  const porter = stemmer(base);
  return porter.length > 2 && porter.endsWith('e') && vowelledMeasureZero(porter.slice(0, -1)) ? porter.slice(0, -1) : porter;
}

/**
 * Search terms: words without stopwords or one-letter words, stemmed.
 * @example
 *   tokenize('readFile: Reads the files'); // ['read', 'file', 'read', 'file']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (w.length < 2 || STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}
