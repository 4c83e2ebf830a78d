/**
 * Shapes of English clauses that change what a verb in them asks for (general English, no tool
 * names): quoted content, the near future ("about to drop"), a count question ("how many sends do we
 * have left"), "make X the default", a refusal of everything ("don't delete anything yet") and a refusal
 * of coordinated verbs ("don't recreate or delete it").
 */
import { words } from '../../lexicon/index.ts';

/** Quoted spans: double, curly and back quotes, and single quotes that open after a space (not "don't"). */
const QUOTED = /"[^"]*"|“[^”]*”|`[^`]*`|(?<=^|\s)'[^']*'(?=$|[\s.,;:!?])/g;

/**
 * The query with quoted text of three words or more read as the word "text": a message's or a
 * title's content asks nothing ("send Bob a text: \"we removed the item\""), while a short quoted name
 * ("the 'Done' list") still names what is acted on.
 * @example
 *   withoutQuotedText('send user U1 a text: "we removed the sold-out item"'); // 'send user U1 a text:  text '
 */
export function withoutQuotedText(query: string): string {
  return query.replace(QUOTED, (m) => (words(m).length >= 3 ? ' text ' : m));
}

/** Words between a future marker and its verb: "about to just drop". */
const ADVERBS = new Set(['just', 'finally', 'actually', 'soon']);

/**
 * Whether the verb at `i` is in the near future ("the cluster we are about to drop", "we're going to
 * delete it"): it tells what will happen, it does not ask for it now.
 * @example
 *   futureAt(['we', 'are', 'about', 'to', 'drop'], 4); // true
 */
export function futureAt(ws: readonly string[], i: number): boolean {
  let j = i - 1;
  if (ADVERBS.has(ws[j])) j--;
  if (ws[j] === 'gonna') return true;
  return ws[j] === 'to' && (ws[j - 1] === 'about' || ws[j - 1] === 'going');
}

/** Words that end the counted noun phrase of "how many …": the question's auxiliary or verb. */
const COUNT_END = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'have', 'has', 'had', 'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must', 'remain', 'remaining', 'left', 'there', 'i', 'we', 'you', 'they']);

/**
 * The end of the counted noun phrase of a count question ("how many more LINE sends do we have
 * left" → the index of "do"), or 0 when the sentence is no count question. The words of that phrase
 * are nouns ("sends"), and the question asks to read a count.
 * @example
 *   countedPhraseEnd(['how', 'many', 'sends', 'do', 'we', 'have']); // 3
 */
export function countedPhraseEnd(ws: readonly string[]): number {
  if (ws[0] !== 'how' || (ws[1] !== 'many' && ws[1] !== 'much')) return 0;
  let i = 2;
  while (i < ws.length && !COUNT_END.has(ws[i])) i++;
  return i;
}

const WH = new Set(['what', 'which', 'who', 'whose', 'where', 'when', 'how']);
const COPULAS = new Set(['is', 'are', 'was', 'were']);

/**
 * Whether a sentence is a wh-question whose main verb is a form of "be" ("what size and region is
 * db-old", "which plan are we on"): it asks to read what something is.
 * @example
 *   asksWhatIs(words('what size and region is db-old')); // true
 */
export function asksWhatIs(ws: readonly string[], isVerb: (w: string) => boolean): boolean {
  if (!WH.has(ws[0] ?? '')) return false;
  for (let i = 1; i < Math.min(ws.length, 7); i++) {
    if (COPULAS.has(ws[i])) return true;
    if (isVerb(ws[i])) return false;
  }
  return false;
}

/** Adjectives that "make X …" gives its object: a setting, not something new. */
const COMPLEMENTS = new Set(['default', 'public', 'private', 'visible', 'hidden', 'invisible', 'available', 'unavailable', 'active', 'inactive', 'primary', 'secondary', 'main', 'current', 'official', 'editable', 'required', 'optional', 'readonly', 'writable', 'bold', 'italic', 'larger', 'smaller', 'bigger']);
/** Words that end the object of "make": prepositions and clause openers. */
const MAKE_END = new Set(['to', 'from', 'in', 'on', 'of', 'for', 'with', 'into', 'at', 'by', 'as', 'that', 'which', 'who', 'so', 'and', 'or', 'if', 'when', 'instead', 'rather', 'without', 'but', 'because']);

/**
 * Whether "make" at `i` gives its object a complement ("make rich menu rm-2 the default one", "make
 * the repo public", "make Bob an admin"): that sets something, an update. "make a folder" and "make a
 * new board" create.
 * @example
 *   makesComplement(words('make the repo public'), 0); // true
 *   makesComplement(words('make a folder for the photos'), 0); // false
 */
export function makesComplement(ws: readonly string[], i: number): boolean {
  const next = ws[i + 1];
  if (next === undefined || next === 'a' || next === 'an' || next === 'new' || next === 'sure') return false;
  for (let j = i + 2; j < Math.min(ws.length, i + 8); j++) {
    if (MAKE_END.has(ws[j])) return false;
    if (ws[j] === 'the' || ws[j] === 'a' || ws[j] === 'an' || COMPLEMENTS.has(ws[j])) return true;
  }
  return false;
}

/** A sentence stating what the speaker means to do: "I want to …", "we'll …", "I'm going to …". */
const INTENTION = /^\W*(?:(?:so|and|then|but)\s+)?(?:i|we)(?:['’]ll| will| shall|['’]d like to| would like to| want to| plan to| intend to| mean to|['’]m going to| am going to|['’]re going to| are going to)\b/i;
/** Times after now: "afterwards", "later", "next week", "tomorrow". */
const LATER = /\b(?:later|afterwards?|eventually|tomorrow|next (?:week|month|year|time|sprint|quarter)|at some point|some other time|another time)\b/i;

/**
 * Whether a sentence states an intention for later ("I want to clean up the unused ones afterwards",
 * "we'll delete them next week"): it tells what is coming and asks nothing now. "merge the PR and
 * delete the branch afterwards" is a request.
 * @example
 *   intendsLater("I'll delete the stale ones later"); // true
 */
export function intendsLater(sentence: string): boolean {
  return INTENTION.test(sentence) && LATER.test(sentence);
}

/** Objects that stand for everything: refusing to act on them refuses the action. */
const UNIVERSAL = new Set(['anything', 'any', 'nothing', 'none', 'anyone', 'anybody', 'everything', 'yet']);
/** Words that may follow a refused verb without narrowing it: "don't delete any of them yet". */
const UNNARROWING = new Set([...UNIVERSAL, 'of', 'them', 'it', 'these', 'those', 'now', 'for', 'at', 'all', 'today', 'either', 'please', 'up', 'out', 'off', 'away']);

/**
 * Whether the words after a refused verb, up to the end of its clause, leave it refusing everything:
 * nothing ("don't delete"), or a universal object ("anything", "any of them", "yet"), but not a
 * narrowed one ("anything else", "any other files", "them").
 * @example
 *   refusesAll(['anything', 'yet']); // true
 *   refusesAll(['anything', 'else']); // false
 */
export function refusesAll(rest: readonly string[]): boolean {
  return rest.length === 0 || (rest.every((w) => UNNARROWING.has(w)) && rest.some((w) => UNIVERSAL.has(w)));
}

/** Words that speak of all of something. */
const ALL_OF = new Set(['all', 'every', 'each', 'everyone', 'everybody', 'everything', 'whole', 'entire']);

/**
 * Whether a query speaks of all of something ("all our followers", "every branch", "everyone"); "all-or-nothing" does not.
 * @example
 *   speaksOfAll('send all our followers the deals'); // true
 */
export function speaksOfAll(text: string): boolean {
  return words(text.replace(/\ball-or-nothing\b/gi, '')).some((w) => ALL_OF.has(w));
}

/** A tool that acts on everyone at once: "Broadcast a message … to all users who follow you". */
const TO_EVERYONE = /\bto (?:all|every|everyone|everybody)\b/i;

/**
 * Whether a tool's first sentence says it acts on everyone at once ("Broadcast a text message via LINE to
 * all users who have followed your account"): it answers a query naming one recipient worse than one
 * that sends "to a user".
 * @example
 *   toEveryone('Broadcast a simple text message to all users who follow you'); // true
 */
export function toEveryone(firstSentence: string): boolean {
  return TO_EVERYONE.test(firstSentence);
}

/**
 * Whether the verb at `i` is refused with the verb coordinated before it: after "nor", or after "or"
 * following a refused verb ("don't recreate or delete it", "never archive or remove any").
 * @example
 *   coordinatedWithRefused(words("don't recreate or delete it"), 3, () => true, (ws, j) => ws[j - 1] === "don't"); // true
 */
export function coordinatedWithRefused(ws: string[], i: number, isVerb: (w: string) => boolean, refusedAt: (ws: string[], j: number) => boolean): boolean {
  if (ws[i - 1] === 'nor') return true;
  if (ws[i - 1] !== 'or' || i < 2) return false;
  return isVerb(ws[i - 2]) && refusedAt(ws, i - 2);
}
