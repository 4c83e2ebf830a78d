/**
 * What a query says besides its words: the values in it (file names, quoted strings, numbers), the
 * names written with a capital, and what it acts on, which a destructive tool must act on to lead.
 */
import { STOPWORDS, tokenize, words, type Synonyms } from '../../lexicon/index.ts';
import { directObject, refusedActions, withoutRequestFrame } from './actions.ts';
import type { QueryTarget } from './held-back.ts';
import { speaksOfAll } from './clauses.ts';
import { detachment, removalSource } from './detach.ts';

/** A word with a file extension ("README.old", "config.yaml") names a file. */
export const FILE_NAME = /\b[\w-]+\.(?!com\b|org\b|io\b|net\b)[a-z][a-z0-9]{0,4}\b/i;

const FILE_NAMES = new RegExp(FILE_NAME.source, 'gi');

/**
 * Words of the values in a query: file names ("config.yaml"), quoted strings and numbers.
 * @example
 *   valueWords('show what is inside config.yaml'); // Set { 'config', 'yaml' }
 */
export function valueWords(query: string): Set<string> {
  const out = new Set<string>();
  const parts = [...query.matchAll(FILE_NAMES)].map((m) => m[0]);
  for (const m of query.matchAll(/"([^"]+)"|'([^']+)'|`([^`]+)`/g)) parts.push(m[1] ?? m[2] ?? m[3]);
  // A hashtag names a tag or a channel: its word is a value ("#draft" is no draft email).
  for (const m of query.matchAll(/(?:^|\s)#([a-z][\w-]*)/gi)) parts.push(m[1]);
  for (const p of parts) for (const w of words(p)) out.add(w);
  for (const w of words(query)) if (/^\d+$/.test(w)) out.add(w);
  return out;
}

/**
 * Lowercased words written with a capital inside the query: names of people, places, products.
 * @example
 *   properNames('what do you remember about Bob'); // Set { 'bob' }
 */
export function properNames(query: string): Set<string> {
  const out = new Set<string>();
  const found = query.match(/(?<=\S\s+)[A-Z][a-z]+\b/g) ?? [];
  for (const w of found) out.add(w.toLowerCase());
  return out;
}

/** Verbs that put their object into a place that holds it: "write text to a file" writes the file. */
const WRITING = new Set(['write', 'save', 'store', 'dump', 'export', 'persist']);
/** Prepositions of the place written into. */
const INTO = new Set(['to', 'into', 'in', 'as']);
/** Words that end that place. */
const PLACE_END = new Set(['with', 'for', 'from', 'on', 'at', 'by', 'and', 'or', 'so', 'that', 'which', 'then', 'but', 'because']);

/**
 * Where a writing imperative puts its object ("write text to a file" → file; "save the draft into notes.txt"
 * → notes, txt): what a write tool acts on, as much as the object is. Verbs that add to something ("add a
 * paragraph to the page") are not writing verbs: the page is edited, not written.
 * @example
 *   writtenInto('write text to a file'); // ['file']
 */
export function writtenInto(query: string): string[] | undefined {
  const ws = words(withoutRequestFrame(query).split(/[,;](?:\s|$)/)[0]);
  const verb = ws[0]?.replace(/(?:s|d|ed)$/, '');
  if (!ws[0] || !(WRITING.has(ws[0]) || WRITING.has(verb ?? '') || WRITING.has(`${verb}e`))) return undefined;
  const at = ws.findIndex((w, i) => i > 0 && INTO.has(w));
  if (at < 0) return undefined;
  const out: string[] = [];
  for (const w of ws.slice(at + 1)) {
    if (PLACE_END.has(w) || INTO.has(w)) break;
    if (!STOPWORDS.has(w)) out.push(w);
  }
  return out.length ? out : undefined;
}

/**
 * What a query names, as stems: what it acts on (the object of its leading verb if it has one, "add
 * a paragraph to the page" → paragraph, else all its words) and all its words; each with the words
 * related to them, and "file" for a file name. A destructive tool leads only if it acts on these.
 * @example
 *   namedTerms('delete README.old', new Synonyms()).what.has('file'); // true
 */
export function namedTerms(query: string, synonyms: Synonyms): QueryTarget {
  const names = properNames(query);
  const terms = (ws: string[]): Set<string> => {
    const out = new Set<string>();
    for (const w of ws) {
      // Function words name nothing ("do" is no "perform", "I" no iodine).
      if (w.length < 2 || STOPWORDS.has(w)) continue;
      for (const t of tokenize(w)) out.add(t);
      if (!names.has(w)) for (const r of synonyms.related(w)) out.add(r.term);
    }
    return out;
  };
  const object = directObject(query);
  const all = terms(words(query));
  const into = writtenInto(query);
  // What the imperative acts on, in its own words and the single words the software lexicon also calls them:
  // WordNet's senses and the lexicon's phrases are too loose to let a destructive tool lead ("delete records"
  // is no deleting of review notes, though "note down" and "record" are one group).
  const exact = (ws: string[]): Set<string> => {
    const out = new Set<string>();
    for (const w of ws) {
      if (w.length < 2 || STOPWORDS.has(w)) continue;
      for (const t of tokenize(w)) out.add(t);
      if (!names.has(w)) for (const t of synonyms.lexiconNames(w)) out.add(t);
    }
    return out;
  };
  const what = object ? exact(into ? [...object, ...into] : object) : all;
  const file = FILE_NAME.exec(query);
  if (file) all.add('file');
  if (file && [...object ?? [], ...into ?? []].includes(words(file[0])[0])) what.add('file');
  // "remove the label from these emails": what the label is taken off, with its related words.
  const detached = detachment(query);
  const from = detached && detached.from.length > 0 ? new Set(detached.from.flatMap((t) => [t, ...synonyms.related(t).map((r) => r.term)])) : undefined;
  // "remove the sales tile from dashboard 2": where anything removed is taken from, with its related words.
  const removed = removalSource(query);
  const source = removed ? new Set(removed.flatMap((t) => [t, ...synonyms.related(t).map((r) => r.term)])) : undefined;
  const refused = refusedActions(query);
  return { what, all, detached: detached !== undefined, universal: speaksOfAll(query), ...(from ? { from } : {}), ...(source ? { source } : {}), ...(refused.size > 0 ? { refused } : {}) };
}

/** Servers' names as patterns over query text (their words joined by nothing, a space, "_" or "-"), by first word. */
export type ServerPatterns = ReadonlyMap<string, ReadonlyArray<{ server: string; pattern: RegExp }>>;

/**
 * Patterns for the servers' names, made once per catalog.
 * @example
 *   serverPatterns(['google-calendar']).get('google'); // [{ server: 'google-calendar', pattern: /\bgoogle[\s_-]?calendar\b/gi }]
 */
export function serverPatterns(servers: Iterable<string>): ServerPatterns {
  const out = new Map<string, Array<{ server: string; pattern: RegExp }>>();
  for (const server of servers) {
    const parts = words(server).filter((w) => /^[a-z]+$/.test(w));
    if (parts.length === 0) continue;
    const list = out.get(parts[0]) ?? [];
    list.push({ server, pattern: new RegExp(`\\b${parts.join('[\\s_-]?')}\\b`, 'gi') });
    out.set(parts[0], list);
  }
  return out;
}

/**
 * The servers a query names, written as a name is ("in Linear", "on GitHub", "Google Calendar"):
 * a destructive tool of another server does not lead. Lowercase words ("my calendar") name nothing.
 * Only servers whose first word the query capitalises are tried, so this stays cheap with many servers.
 * @example
 *   namedServers('update the customer in Linear', serverPatterns(['linear', 'airtable'])); // Set { 'linear' }
 */
export function namedServers(query: string, patterns: ServerPatterns): Set<string> {
  const out = new Set<string>();
  // "GitHub" may name a server "github" or "git-hub": both first words are tried.
  const capitalised = new Set((query.match(/\b[A-Z][\w-]*/g) ?? []).flatMap((t) => [words(t)[0], words(t.toLowerCase())[0]]));
  for (const first of capitalised) {
    for (const { server, pattern } of patterns.get(first) ?? []) {
      for (const found of query.matchAll(pattern)) {
        if (/^[A-Z]/.test(found[0])) { out.add(server); break; }
      }
    }
  }
  return out;
}
