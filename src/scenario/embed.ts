/**
 * Deterministic embeddings that carry meaning, so search code can be tested with vectors that behave
 * like a model's without one: stopwords are dropped; each word's stem, its character trigrams
 * (subword features: "screenshot" and "screenshots" or "config" and "configuration" overlap) and its
 * related words (the software lexicon's and WordNet's synonyms and hypernyms, weighted lower; the
 * lexicon's phrases, "kick off" → trigger, and the kinds of typed values, "17 times 23" → math, too) are feature-hashed into `dimensions` buckets with a
 * hashed sign; the vector is L2-normalised. Texts about the same thing in other words land close.
 */
import { literalTerms, sharedSynonyms, STOPWORDS, stem, words } from '../lexicon/index.ts';

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

/** A feature's bucket among `dimensions` and its hashed sign (the same feature always lands the same way). */
function hashed(feature: string, dimensions: number): { bucket: number; sign: 1 | -1 } {
  return { bucket: fnv1a(feature, 0) % dimensions, sign: fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1 };
}

/** Features of one word: hashed buckets and signed weights. */
interface WordFeatures {
  buckets: Uint32Array;
  values: Float64Array;
}

/** Bound on memoised words: memory stays bounded whatever the texts embedded. */
const MAX_MEMO = 50_000;

/**
 * Each word's features, memoised (its related words come from the process's Synonyms): derived data only,
 * the same for every caller, shared by every embedding in the process (the mock LLM embeds thousands of
 * tool texts at once).
 */
const memo = new Map<string, WordFeatures>();
/** Longer words are worked out each time, so the memo stays bounded in bytes, not only in entries. */
const MAX_MEMO_WORD = 64;

function featuresOf(word: string, dimensions: number): WordFeatures {
  const key = `${dimensions}:${word}`;
  const cached = memo.get(key);
  if (cached) return cached;
  const vector = new Map<number, number>();
  const add = (feature: string, weight: number): void => {
    const { bucket, sign } = hashed(feature, dimensions);
    vector.set(bucket, (vector.get(bucket) ?? 0) + sign * weight);
  };
  const root = stem(word);
  add(`w:${root}`, 1);
  const padded = `<${root}>`;
  const grams = Math.max(1, padded.length - 2);
  for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, SUBWORD_WEIGHT / Math.sqrt(grams));
  for (const r of sharedSynonyms().related(word)) add(`w:${r.term}`, RELATED_WEIGHT * r.weight);
  const features = { buckets: Uint32Array.from(vector.keys()), values: Float64Array.from(vector.values()) };
  if (word.length <= MAX_MEMO_WORD) {
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(key, features);
  }
  return features;
}

/**
 * One deterministic, L2-normalised vector for `text`.
 * @example
 *   const v = embedText('list the tables', 1536); // v.length === 1536, norm 1
 */
export function embedText(text: string, dimensions = 1536): number[] {
  // Summed in a typed array (the same doubles, without an array of boxed-or-tagged elements to grow and walk).
  const vector = new Float64Array(dimensions);
  for (const word of words(text)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    const { buckets, values } = featuresOf(word, dimensions);
    for (let i = 0; i < buckets.length; i++) vector[buckets[i]] += values[i];
  }
  // The software lexicon's phrases ("mouse over", "pull request") add what they mean, like a word's related words.
  // Typed values ("17 times 23", "10.0.0.0/24", "2.10.0") add the words for their kind the same way.
  for (const phrase of [...sharedSynonyms().phrases(text), ...literalTerms(text)]) {
    for (const r of phrase.related) {
      const { bucket, sign } = hashed(`w:${r.term}`, dimensions);
      vector[bucket] += sign * RELATED_WEIGHT * r.weight;
    }
  }
  let sum = 0;
  for (let i = 0; i < dimensions; i++) sum += vector[i] * vector[i];
  const out = new Array<number>(dimensions).fill(0);
  if (sum === 0) {
    // No words at all: a fixed unit vector, so similarity stays defined.
    out[0] = 1;
    return out;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < dimensions; i++) out[i] = vector[i] * inv;
  return out;
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
