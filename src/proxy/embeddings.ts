/**
 * Embeddings through an OpenAI-compatible API (the official `openai` SDK), and their storage as
 * packed float32 BLOBs keyed by the description hash so unchanged tools are never re-embedded.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { default as OpenAIClient } from 'openai';
import { optionalPeer } from '../lazy/index.ts';
import { packVector, unpackVector, VectorIndex } from './vectors.ts';
import { transaction } from './store.ts';

// An optional peer, as for the ghost's providers: loaded when an embedder is first made, so a proxy without
// an embeddings API neither needs the package nor pays for loading it.
const OpenAI = optionalPeer<typeof OpenAIClient>('openai', 'default');

/** Turns texts into vectors. */
export interface Embedder {
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
}

export interface OpenAIEmbedderOptions {
  model: string;
  dimensions: number;
  apiKey?: string;
  baseURL?: string;
  /** Inputs per request. */
  batchSize?: number;
  timeoutMs?: number;
  /** A fetch to use instead of the global one (e.g. a mock LLM's handle). */
  fetch?: typeof fetch;
}

/**
 * An Embedder over any OpenAI-compatible `/embeddings` endpoint.
 * @example
 *   const embedder = createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 1536, baseURL: mock.url + '/v1', apiKey: 'test' });
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const client = new OpenAI({
    apiKey: options.apiKey ?? 'none',
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 30_000,
    maxRetries: 1,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const batchSize = options.batchSize ?? 256;
  return {
    model: options.model,
    dimensions: options.dimensions,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const input = texts.slice(i, i + batchSize);
        const res = await client.embeddings.create({ model: options.model, input });
        const sorted = [...res.data].sort((a, b) => a.index - b.index);
        if (sorted.length !== input.length) throw new Error(`embeddings API returned ${sorted.length} vectors for ${input.length} inputs`);
        for (const item of sorted) {
          if (item.embedding.length !== options.dimensions) {
            throw new Error(`embeddings API returned ${item.embedding.length} dimensions, expected ${options.dimensions} for ${options.model}`);
          }
          out.push(item.embedding);
        }
      }
      return out;
    },
  };
}

export interface StoredEmbedding {
  id: string;
  descriptionHash: string;
}

/**
 * Embeddings of one model, persisted and mirrored in a VectorIndex.
 * @example
 *   const store = new EmbeddingStore(db, 'text-embedding-3-small', 1536);
 *   store.put([{ id: 'fs/read_file', descriptionHash: h, vector }]);
 */
export class EmbeddingStore {
  readonly index: VectorIndex;
  private readonly db: DatabaseSync;
  private readonly model: string;
  private readonly hashes = new Map<string, string>();
  private readonly now: () => number;

  constructor(db: DatabaseSync, model: string, dimensions: number, now: () => number = Date.now) {
    this.db = db;
    this.model = model;
    this.now = now;
    this.index = new VectorIndex(dimensions);
    const rows = db.prepare('SELECT server_name, tool_name, description_hash, dimensions, embedding FROM tool_embeddings WHERE model = ?')
      .all(model) as Array<{ server_name: string; tool_name: string; description_hash: string; dimensions: number; embedding: Uint8Array }>;
    for (const row of rows) {
      if (row.dimensions !== dimensions) continue; // a different dimension setting: re-embed
      const id = toolId(row.server_name, row.tool_name);
      this.index.set(id, unpackVector(row.embedding));
      this.hashes.set(id, row.description_hash);
    }
  }

  ids(): string[] {
    return [...this.hashes.keys()];
  }

  hashOf(id: string): string | undefined {
    return this.hashes.get(id);
  }

  put(items: Array<{ id: string; descriptionHash: string; vector: ArrayLike<number> }>): void {
    const stmt = this.db.prepare(`INSERT INTO tool_embeddings(server_name, tool_name, model, description_hash, dimensions, embedding, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(server_name, tool_name, model) DO UPDATE SET description_hash = excluded.description_hash,
      dimensions = excluded.dimensions, embedding = excluded.embedding, created_at = excluded.created_at`);
    const now = this.now();
    transaction(this.db, () => {
      for (const item of items) {
        const [server, tool] = splitToolId(item.id);
        stmt.run(server, tool, this.model, item.descriptionHash, this.index.dimensions, packVector(item.vector), now);
        this.index.set(item.id, item.vector);
        this.hashes.set(item.id, item.descriptionHash);
      }
    });
  }

  delete(ids: string[]): void {
    const stmt = this.db.prepare('DELETE FROM tool_embeddings WHERE server_name = ? AND tool_name = ? AND model = ?');
    transaction(this.db, () => {
      for (const id of ids) {
        const [server, tool] = splitToolId(id);
        stmt.run(server, tool, this.model);
        this.index.delete(id);
        this.hashes.delete(id);
      }
    });
  }
}

/** "server/tool": the id used by the search indexes. Server names cannot contain "/". */
export function toolId(server: string, tool: string): string {
  return `${server}/${tool}`;
}

export function splitToolId(id: string): [string, string] {
  const i = id.indexOf('/');
  return [id.slice(0, i), id.slice(i + 1)];
}
