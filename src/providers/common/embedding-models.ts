/**
 * The embedding models ghostwire knows by size: the vector length each answers with by default
 * and the largest `dimensions` / `outputDimensionality` it accepts. Bounding the requested size by
 * the model is what the real APIs do, and it keeps one request from allocating a huge vector.
 */

export interface EmbeddingModel {
  /** The vector length answered when the request names no size. */
  dimensions: number;
  /** The largest size a request may ask for (0: the model takes no size parameter). */
  maxDimensions: number;
}

const KNOWN: Readonly<Record<string, EmbeddingModel>> = {
  'text-embedding-3-small': { dimensions: 1536, maxDimensions: 1536 },
  'text-embedding-3-large': { dimensions: 3072, maxDimensions: 3072 },
  'text-embedding-ada-002': { dimensions: 1536, maxDimensions: 0 },
  'text-embedding-004': { dimensions: 768, maxDimensions: 768 },
  'text-embedding-005': { dimensions: 768, maxDimensions: 768 },
  'text-multilingual-embedding-002': { dimensions: 768, maxDimensions: 768 },
  'embedding-001': { dimensions: 768, maxDimensions: 768 },
  'gemini-embedding-001': { dimensions: 3072, maxDimensions: 3072 },
  'gemini-embedding-exp-03-07': { dimensions: 3072, maxDimensions: 3072 },
  'mistral-embed': { dimensions: 1024, maxDimensions: 0 },
  'nomic-embed-text': { dimensions: 768, maxDimensions: 768 },
  'mxbai-embed-large': { dimensions: 1024, maxDimensions: 1024 },
  'all-minilm': { dimensions: 384, maxDimensions: 384 },
  'embed-english-v3.0': { dimensions: 1024, maxDimensions: 0 },
  'embed-multilingual-v3.0': { dimensions: 1024, maxDimensions: 0 },
  'embed-english-light-v3.0': { dimensions: 384, maxDimensions: 0 },
  'embed-multilingual-light-v3.0': { dimensions: 384, maxDimensions: 0 },
  'embed-v4.0': { dimensions: 1536, maxDimensions: 1536 },
  'amazon.titan-embed-text-v2:0': { dimensions: 1024, maxDimensions: 1024 },
  'amazon.titan-embed-text-v1': { dimensions: 1536, maxDimensions: 0 },
};

/** Models ghostwire does not know: 1,536-long vectors, sizes up to 4,096 accepted. */
export const UNKNOWN_EMBEDDING_MODEL: EmbeddingModel = Object.freeze({ dimensions: 1536, maxDimensions: 4096 });

/**
 * The size facts of an embedding model (`models/` prefix and tuned-model paths ignored).
 * @example
 *   embeddingModel('text-embedding-3-large') // { dimensions: 3072, maxDimensions: 3072 }
 */
export function embeddingModel(model: string): EmbeddingModel {
  return KNOWN[model.replace(/^models\//, '')] ?? UNKNOWN_EMBEDDING_MODEL;
}
