/**
 * Embedding vectors: packed float32 BLOBs (seed Decision 5) and a flat, pre-normalized matrix
 * searched by dot product, which is cosine similarity once rows and query are unit length.
 */
import { simdDots, type DotsFunction } from './simd-dot.ts';


/**
 * Packs a vector as little-endian float32 bytes.
 * @example
 *   packVector([1, 2]).byteLength // 8
 */
export function packVector(vector: ArrayLike<number>): Uint8Array {
  const f = Float32Array.from(vector);
  return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
}

/**
 * Unpacks float32 bytes (copying, so the result is aligned).
 * @example
 *   unpackVector(packVector([1, 2])) // Float32Array [1, 2]
 */
export function unpackVector(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer, 0, blob.byteLength / 4);
}

/**
 * Cosine similarity of two vectors of the same length.
 * @example
 *   cosine([1, 0], [1, 1]) // 0.7071...
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function normalizeInto(target: Float32Array, offset: number, v: ArrayLike<number>): void {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < v.length; i++) target[offset + i] = v[i] * inv;
}

export interface VectorHit {
  id: string;
  similarity: number;
}

/**
 * A matrix of unit vectors, one row per tool, kept in WebAssembly memory so the SIMD kernel can
 * scan it (a plain JS loop when SIMD is unavailable or the dimension is not a multiple of 4).
 * @example
 *   const index = new VectorIndex(1536);
 *   index.set('fs/read_file', vector);
 *   index.search(queryVector, 10);
 */
export class VectorIndex {
  readonly dimensions: number;
  private ids: string[] = [];
  private rowOf = new Map<string, number>();
  private capacity: number;
  private readonly memory: WebAssembly.Memory;
  private readonly dots?: DotsFunction;
  private data: Float32Array;

  constructor(dimensions: number, capacity = 64) {
    this.dimensions = dimensions;
    this.capacity = Math.max(1, capacity);
    this.memory = new WebAssembly.Memory({ initial: this.pagesFor(this.capacity) });
    this.dots = dimensions % 4 === 0 ? simdDots(this.memory) : undefined;
    this.data = new Float32Array(this.memory.buffer, 0, this.capacity * dimensions);
  }

  /** Pages for the rows plus the scratch space a search uses (query and one score per row). */
  private pagesFor(capacity: number): number {
    return Math.ceil(((capacity * this.dimensions + this.dimensions + capacity) * 4) / 65_536) + 1;
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  set(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) {
      throw new Error(`embedding for ${id} has ${vector.length} dimensions, expected ${this.dimensions}`);
    }
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if (row + 1 > this.capacity) this.grow(this.capacity * 2);
      this.ids.push(id);
      this.rowOf.set(id, row);
    }
    normalizeInto(this.data, row * this.dimensions, vector);
  }

  private grow(capacity: number): void {
    const pages = this.pagesFor(capacity) - this.memory.buffer.byteLength / 65_536;
    if (pages > 0) this.memory.grow(pages);
    this.capacity = capacity;
    // Rows start at offset 0, so they keep their place; only the view must be renewed.
    this.data = new Float32Array(this.memory.buffer, 0, capacity * this.dimensions);
  }

  delete(id: string): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    // Move the last row into the hole so the matrix stays dense.
    const last = this.ids.length - 1;
    if (row !== last) {
      const d = this.dimensions;
      this.data.copyWithin(row * d, last * d, (last + 1) * d);
      this.ids[row] = this.ids[last];
      this.rowOf.set(this.ids[row], row);
    }
    this.ids.pop();
    this.rowOf.delete(id);
  }

  private scores(query: ArrayLike<number>): Float32Array {
    const d = this.dimensions;
    const n = this.ids.length;
    const qOffset = this.capacity * d * 4;
    const outOffset = qOffset + d * 4;
    const q = new Float32Array(this.memory.buffer, qOffset, d);
    normalizeInto(q, 0, query);
    const sims = new Float32Array(this.memory.buffer, outOffset, n);
    if (this.dots) {
      this.dots(qOffset, 0, n, d, outOffset);
      return sims;
    }
    const data = this.data;
    for (let r = 0; r < n; r++) {
      let base = r * d;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let i = 0;
      for (; i + 3 < d; i += 4, base += 4) {
        s0 += data[base] * q[i];
        s1 += data[base + 1] * q[i + 1];
        s2 += data[base + 2] * q[i + 2];
        s3 += data[base + 3] * q[i + 3];
      }
      for (; i < d; i++, base++) s0 += data[base] * q[i];
      sims[r] = s0 + s1 + s2 + s3;
    }
    return sims;
  }

  /** Rows with similarity ≥ min, best first, at most k; `allow` filters ids. */
  search(query: ArrayLike<number>, k: number, min = -1, allow?: (id: string) => boolean): VectorHit[] {
    if (query.length !== this.dimensions) throw new Error(`query has ${query.length} dimensions, expected ${this.dimensions}`);
    const sims = this.scores(query);
    // Keep the k best in a small sorted list: no sort of all rows.
    const hits: VectorHit[] = [];
    for (let r = 0; r < sims.length; r++) {
      const s = sims[r];
      if (s < min || (hits.length === k && s <= hits[k - 1].similarity)) continue;
      const id = this.ids[r];
      if (allow && !allow(id)) continue;
      let at = hits.length;
      while (at > 0 && hits[at - 1].similarity < s) at--;
      hits.splice(at, 0, { id, similarity: s });
      if (hits.length > k) hits.pop();
    }
    return hits;
  }

  /** A copy of the stored (unit) vector of a row. */
  vector(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.data.slice(row * this.dimensions, (row + 1) * this.dimensions);
  }
}
