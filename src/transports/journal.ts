/**
 * The journal of one MockLLM: every request in arrival order, bounded by entries and by bytes.
 * A long-running server must not grow without bound, and a count alone does not bound memory
 * (1 MB requests filled a heap long before a 10,000-entry limit). Sizes are the request body's
 * length plus a fixed overhead: cheap to know, and what dominates an entry's memory.
 */
import type { JournalEntry } from '../scenario/selection.ts';

/** What an entry costs beyond its body: ids, canonical form, timings (a generous flat estimate). */
export const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * A byte budget several journals draw from (one per server, shared by its sessions): when the
 * total passes the limit, the oldest entries across all of them go first (an idle session's
 * history before the one in use).
 * @example
 *   const budget = new JournalBudget(64 * 2 ** 20);
 *   createMockLLM({ journalBudget: budget });
 */
export class JournalBudget {
  readonly limitBytes: number;
  usedBytes = 0;
  /** Journals holding entries (an emptied journal leaves, so deleted sessions are not kept alive). */
  readonly holders = new Set<Journal>();

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  /** Evicts the oldest entries until the budget holds; `keep`'s newest entry (the one just pushed) stays. */
  settle(keep: Journal): void {
    while (this.usedBytes > this.limitBytes) {
      let oldest: Journal | undefined;
      let oldestAt = Infinity;
      for (const j of this.holders) {
        if (j === keep && j.length <= 1) continue;
        const at = j.oldestStartedAt;
        if (at < oldestAt) {
          oldest = j;
          oldestAt = at;
        }
      }
      if (!oldest) return;
      oldest.dropOldest();
    }
  }
}

export interface JournalLimits {
  /** Entries kept (the latest N); unlimited by default. */
  entries?: number;
  /** Bytes kept by this journal alone; unlimited by default. */
  bytes?: number;
  /** A budget shared with other journals. */
  budget?: JournalBudget;
}

/**
 * Entries with their sizes; old entries leave in batches (a dead prefix compacted once it is long),
 * so a full journal costs amortised O(1) per request.
 * @example
 *   const journal = new Journal({ entries: 10_000, bytes: 64 * 2 ** 20 });
 *   journal.push(entry); journal.entries; // latest first-in order
 */
export class Journal {
  readonly #entries: JournalEntry[] = [];
  readonly #sizes: number[] = [];
  #start = 0;
  #bytes = 0;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #budget: JournalBudget | undefined;

  constructor(limits: JournalLimits = {}) {
    this.#maxEntries = limits.entries ?? Infinity;
    this.#maxBytes = limits.bytes ?? Infinity;
    this.#budget = limits.budget;
  }

  get length(): number {
    return this.#entries.length - this.#start;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** When the oldest live entry arrived (Infinity when empty). */
  get oldestStartedAt(): number {
    return this.length === 0 ? Infinity : this.#entries[this.#start].startedAt;
  }

  /** The live entries, oldest first. */
  get entries(): readonly JournalEntry[] {
    return this.#start === 0 ? this.#entries : this.#entries.slice(this.#start);
  }

  push(entry: JournalEntry): void {
    const size = entry.bodyLength + ENTRY_OVERHEAD_BYTES;
    this.#entries.push(entry);
    this.#sizes.push(size);
    this.#bytes += size;
    const budget = this.#budget;
    if (budget) {
      budget.usedBytes += size;
      budget.holders.add(this);
    }
    while (this.length > 1 && (this.length > this.#maxEntries || this.#bytes > this.#maxBytes)) this.dropOldest();
    if (budget && budget.usedBytes > budget.limitBytes) budget.settle(this);
  }

  /** Forgets the oldest live entry. */
  dropOldest(): void {
    if (this.length === 0) return;
    const size = this.#sizes[this.#start];
    this.#start += 1;
    this.#release(size);
    if (this.length === 0) {
      this.clear();
      return;
    }
    // Compact once the dead prefix is long: amortised O(1) per entry.
    if (this.#start >= 64 && this.#start >= this.length) {
      this.#entries.splice(0, this.#start);
      this.#sizes.splice(0, this.#start);
      this.#start = 0;
    }
  }

  clear(): void {
    this.#release(this.#bytes);
    this.#entries.length = 0;
    this.#sizes.length = 0;
    this.#start = 0;
    this.#budget?.holders.delete(this);
  }

  #release(size: number): void {
    this.#bytes -= size;
    if (this.#budget) this.#budget.usedBytes -= size;
  }
}
