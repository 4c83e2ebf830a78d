/**
 * Detaching is not deleting: "remove the 'Urgent' label from these emails", "take Bob off the card" or
 * "delete the word 'draft' from the title" edit the thing after "from" (they detach a label, a member,
 * a word), while "delete README.old from the repository" deletes the file. What tells them apart is
 * the kind of thing removed: a label, a tag, a person, a reaction, a word of text exist only on
 * something else; a file, a branch or a record exist on their own.
 */
import { stem, STOPWORDS, words } from '../../lexicon/index.ts';
import { directObject, queryActions, withoutRequestFrame } from './actions.ts';
import { DETERMINERS as ARTICLES, OBJECT_END } from './verbs.ts';

/** Things that exist only attached to something else (general English and software usage), singular. */
export const ATTACHED_THINGS: readonly string[] = [
  'label', 'tag', 'marker', 'flag', 'category', 'star', 'reaction', 'emoji',
  'member', 'user', 'person', 'people', 'teammate', 'assignee', 'reviewer', 'watcher', 'subscriber', 'collaborator', 'owner', 'guest', 'attendee',
  'role', 'permission', 'access',
  'word', 'text', 'phrase', 'sentence', 'line', 'character', 'letter', 'prefix', 'suffix', 'typo',
];
const ATTACHED = new Set(ATTACHED_THINGS.flatMap((w) => [w, `${w}s`]));

const PRONOUNS = new Set(['it', 'them', 'him', 'her', 'these', 'those']);
/** Prepositions that name where something is taken from. */
const SOURCE = new Set(['from', 'off']);
/** Words that end the phrase after "from": clause openers. */
const CLAUSE_END = new Set(['where', 'that', 'which', 'who', 'so', 'and', 'or', 'if', 'when', 'because', 'but', 'while', 'since', 'before', 'after', 'without', 'unless']);
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'its', 'their', 'his', 'her', 'all', 'every', 'each', 'one', 'two', 'three', 'both']);

/** What a detaching query takes something off. */
export interface Detachment {
  /** Stems of the words after "from"/"off" (identifiers and numbers left out). */
  from: string[];
}

/**
 * The place a query detaches something from, when it asks to remove a thing that exists only on
 * something else ("remove the 'Urgent' label from these emails" → emails); undefined otherwise
 * ("delete README.old from the repository" removes a file, which exists on its own).
 * @example
 *   detachment("remove the 'Urgent' label from these emails")?.from; // ['email']
 *   detachment('delete README.old from the repository'); // undefined
 */
export function detachment(query: string): Detachment | undefined {
  // The imperative may follow a clause saying why ("a teammate left, take them off the squad").
  for (const clause of [query, ...query.split(/[,;:]\s+/).slice(1)]) {
    const found = detachedIn(clause);
    if (found) return found;
  }
  return undefined;
}

function detachedIn(query: string): Detachment | undefined {
  if (!queryActions(query, { methods: false }).has('delete')) return undefined;
  const object = directObject(query);
  // "take them off the squad": a pronoun may stand for anything, so what it is taken off decides.
  const pronoun = !object && PRONOUNS.has(words(withoutRequestFrame(query))[1] ?? '');
  if (!object && !pronoun) return undefined;
  const quoted = new Set<string>();
  for (const m of query.matchAll(/"([^"]+)"|'([^']+)'|`([^`]+)`/g)) for (const w of words(m[1] ?? m[2] ?? m[3])) quoted.add(w);
  // A person named ("take Bob off the card") is attached to what they are taken off, like a label.
  const names = new Set((query.match(/(?<=\S\s+)[A-Z][a-z]+\b/g) ?? []).map((w) => w.toLowerCase()));
  if (object && !object.some((w) => (ATTACHED.has(w) || names.has(w)) && !quoted.has(w))) return undefined;
  const from = wordsAfterSource(query);
  return from ? { from } : undefined;
}

/**
 * The stems of the words after "from"/"off", read from the raw text so identifiers ("ENG-21") are
 * known as such and left out; undefined when the query has no such word.
 */
function wordsAfterSource(query: string, stopAtPunctuation = false): string[] | undefined {
  const tokens = query.split(/\s+/);
  const at = tokens.findIndex((t, i) => i > 0 && SOURCE.has(t.toLowerCase()));
  if (at < 0) return undefined;
  const from: string[] = [];
  for (const token of tokens.slice(at + 1)) {
    const plain = token.toLowerCase().replace(/[^a-z']/g, '');
    if (CLAUSE_END.has(plain) || (stopAtPunctuation && plain === '')) break;
    if (!/\d/.test(token) && !/^['"`]/.test(token)) {
      for (const w of words(token)) if (w.length > 1 && !STOPWORDS.has(w) && !DETERMINERS.has(w)) from.push(stem(w));
    }
    if (stopAtPunctuation && /[,;:.!?]$/.test(token)) break;
  }
  return from;
}

/**
 * Where a removal query takes its object from, as stems ("remove the sales tile from dashboard 2" →
 * dashboard), for any thing removed, attached or not: a destructive tool that takes things from
 * somewhere else ("Delete an item from your vault") is not what was asked. Undefined when the query
 * asks no removal or names no place.
 * @example
 *   removalSource('remove the sales tile from dashboard 2 — just the tile'); // ['dashboard']
 */
export function removalSource(query: string): string[] | undefined {
  if (!queryActions(query, { methods: false }).has('delete')) return undefined;
  const main = withoutRequestFrame(query).split(/[;—–]|\s-\s/)[0];
  const from = wordsAfterSource(main, true);
  return from && from.length > 0 ? from : undefined;
}

/**
 * What a tool takes things from, as stems: the words after "from" in its description's first sentence
 * ("Remove a label from an issue in Linear" → issue) and the place in its name (`removeIssueFromCycle`
 * → cycle), less the server's name. Empty for a tool that deletes things outright ("Deletes a Gmail label").
 * @example
 *   toolSource('removeIssueLabel', 'Remove a label from an issue in Linear', 'linear'); // Set { 'issu' }
 */
export function toolSource(name: string, description: string, server = ''): Set<string> {
  const own = new Set(words(server).map(stem));
  const out = new Set<string>();
  const take = (ws: string[]): void => {
    for (const w of ws) {
      if (CLAUSE_END.has(w) || w === 'in' || w === 'on' || w === 'by' || w === 'with' || w === 'for' || w === 'to') break;
      if (w.length > 1 && !STOPWORDS.has(w) && !DETERMINERS.has(w) && !own.has(stem(w))) out.add(stem(w));
    }
  };
  const nameWords = words(name);
  const inName = nameWords.indexOf('from');
  if (inName >= 0) take(nameWords.slice(inName + 1));
  const first = words(description.split(/(?<=[.!?])\s|\n/)[0] ?? '');
  const inText = first.indexOf('from');
  if (inText >= 0) take(first.slice(inText + 1));
  return out;
}

/**
 * Where the imperative's object is (the words after the preposition that ends it, in its clause), or
 * undefined when it names no place.
 * @example
 *   objectPlace('list the containers in the Cosmos DB database'); // ['cosmos', 'db', 'database']
 */
export function objectPlace(query: string): string[] | undefined {
  const object = directObject(query);
  if (!object) return undefined;
  const ws = words(withoutRequestFrame(query).split(/[,;](?:\s|$)/)[0]);
  const end = ws.findIndex((w, i) => i > 0 && OBJECT_END.has(w));
  // "the count of users in list 12", "the details of the initiative": a part or measure of something asks
  // about that thing and where it is alike.
  if (end < 0 || !PLACE.has(ws[end]) || ws.slice(1, end).every((w) => ARTICLES.has(w) || STOPWORDS.has(w))) return undefined;
  const at = end;
  const out = ws.slice(at + 1).filter((w) => !STOPWORDS.has(w) && !ARTICLES.has(w));
  return out.length ? out : undefined;
}
/** Prepositions of place: "in project x", "from the database", "on the board" (not "of": "the details of the initiative" reads the initiative). */
const PLACE = new Set(['in', 'from', 'on', 'within', 'inside', 'at']);
