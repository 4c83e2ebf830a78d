/**
 * Deterministic embeddings that carry meaning, so search code can be tested with vectors that behave
 * like a model's without one: stopwords are dropped; each word's stem, its character trigrams
 * (subword features: "screenshot" and "screenshots" or "config" and "configuration" overlap) and its
 * WordNet synonyms and hypernyms (weighted lower) are feature-hashed into `dimensions` buckets with a
 * hashed sign; the vector is L2-normalised. Texts about the same thing in other words land close.
 */
import { STOPWORDS, stem, Synonyms, words } from '../lexicon/index.ts';

/** Weight of a word's trigrams, all together, against its stem's 1. */
const SUBWORD_WEIGHT = 0.35;
/** Weight of related words against the word itself (times WordNet's own weight). */
const RELATED_WEIGHT = 0.6;

function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function addFeature(vector: number[], feature: string, weight: number): void {
  const bucket = fnv1a(feature, 0) % vector.length;
  vector[bucket] += fnv1a(feature, 0x9e3779b9) & 1 ? weight : -weight;
}

/** WordNet lookups are memoised here: read-only data, shared by every embedding in the process. */
let sharedSynonyms: Synonyms | undefined;

/**
 * One deterministic, L2-normalised vector for `text`.
 * @example
 *   const v = embedText('list the tables', 1536); // v.length === 1536, norm 1
 */
export function embedText(text: string, dimensions = 1536): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const synonyms = (sharedSynonyms ??= new Synonyms());
  for (const word of words(text)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    const root = stem(word);
    addFeature(vector, `w:${root}`, 1);
    const padded = `<${root}>`;
    const grams = Math.max(1, padded.length - 2);
    for (let i = 0; i + 3 <= padded.length; i++) addFeature(vector, `g:${padded.slice(i, i + 3)}`, SUBWORD_WEIGHT / Math.sqrt(grams));
    for (const r of synonyms.related(word)) addFeature(vector, `w:${r.term}`, RELATED_WEIGHT * r.weight);
  }
  let norm = Math.hypot(...vector.filter((x) => x !== 0));
  if (norm === 0) {
    // No words at all: a fixed unit vector, so similarity stays defined.
    vector[0] = 1;
    norm = 1;
  }
  return vector.map((x) => x / norm);
}

/**
 * Cosine similarity of two vectors of equal length.
 * @example
 *   cosineSimilarity([1, 0], [0, 1]) // 0
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
