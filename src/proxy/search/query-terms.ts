/**
 * What a query says besides its words: the values in it (file names, quoted strings, numbers), the
 * names written with a capital, and what it acts on, which a destructive tool must act on to lead.
 */
import { tokenize, words, type Synonyms } from '../../lexicon/index.ts';
import { directObject, type QueryTarget } from './actions.ts';

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
      for (const t of tokenize(w)) out.add(t);
      if (!names.has(w)) for (const r of synonyms.related(w)) out.add(r.term);
    }
    return out;
  };
  const object = directObject(query);
  const all = terms(words(query));
  const what = object ? terms(object) : all;
  const file = FILE_NAME.exec(query);
  if (file) all.add('file');
  if (file && object?.includes(words(file[0])[0])) what.add('file');
  return { what, all };
}
