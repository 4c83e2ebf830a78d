/**
 * Deterministic embeddings that carry meaning: each word is feature-hashed into one of `dimensions`
 * buckets with a hashed sign, and the vector is L2-normalised. Texts that share words get a higher
 * cosine similarity than texts that share none, so search code can be tested without a model.
 */

const WORD = /[\p{L}\p{N}]+/gu;

function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Lower-cased words with a trailing plural "s" folded, so "tables" and "table" meet. */
function words(text: string): string[] {
  const found = text.toLowerCase().match(WORD) ?? [];
  return found.map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/**
 * One deterministic, L2-normalised vector for `text`.
 * @example
 *   const v = embedText('list the tables', 1536); // v.length === 1536, norm 1
 */
export function embedText(text: string, dimensions = 1536): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const tokens = words(text);
  for (const token of tokens) {
    const bucket = fnv1a(token, 0) % dimensions;
    const sign = fnv1a(token, 0x9e3779b9) & 1 ? 1 : -1;
    vector[bucket] += sign;
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
