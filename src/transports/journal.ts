/**
 * The journal of one MockLLM: every request in arrival order, bounded by entries and by bytes.
 * A long-running server must not grow without bound, and a count alone does not bound memory
 * (1 MB requests filled a heap long before a 10,000-entry limit). An entry's size is estimated
 * from its body's length (cheap to know, no walk over the parsed request): see `entryBytes`.
 */
import type { JournalEntry } from '../scenario/selection.ts';
import { RepeatableRequest, StringMemo, type StoredEntry } from './kept-request.ts';
import { EntryLog, type Locator } from './entry-log.ts';

/** What an entry costs beyond its body: the entry, ids, timings, headers, canonical form (measured: 0.7 KiB on a small request). */
export const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * The heap an entry of a `bodyLength`-character request keeps alive, as a journal counts it: two
 * and a half times the body plus the overhead. The parsed body and the canonical request cost more
 * than the text they came from (measured on a server's heap: 0.94x the body for long prose, 1.7x a
 * ten-turn chat with tools, 2.2x a tool loop; a two-byte (non-Latin-1) text is 2x alone).
 * Counting the body once, as before, let tool-heavy traffic hold twice its byte limit. An estimate
 * from the length, not a walk over the parsed request: a body of thousands of tiny values
 * (`[{},{},…]`) still costs more than it counts (bench/journal-memory.bench.ts checks the shapes
 * above; docs/decisions/journal-memory.md).
 * @example
 *   entryBytes(80) // 1224
 */
export function entryBytes(bodyLength: number): number {
  return Math.ceil(2.5 * bodyLength) + ENTRY_OVERHEAD_BYTES;
}

/**
 * A byte budget several journals draw from (one per server, shared by its sessions): when the
 * total passes the limit, the oldest entries across all of them go first (an idle session's
 * history before the one in use). Entries are remembered in the order they were journaled, so
 * finding the oldest is O(1) however many sessions hold entries (a scan over every journal per
 * request made each session cost every request something). Entries a journal dropped on its own
 * (its entry limit, a reset) are skipped when they come up, and swept out once they outnumber the
 * live ones, so the order's memory stays proportional to what is kept.
 * @example
 *   const budget = new JournalBudget(64 * 2 ** 20);
 *   createMockLLM({ journalBudget: budget });
 */
export class JournalBudget {
  readonly limitBytes: number;
  usedBytes = 0;
  /** Strings the entries of all these journals share (header values, paths): kept once per server. */
  readonly strings = new StringMemo();
  /** Journals holding entries (an emptied journal leaves, so deleted sessions are not kept alive). */
  readonly holders = new Set<Journal>();
  /** Every entry journaled and not yet evicted through here, oldest first: its journal and its ordinal there. */
  #journals: Journal[] = [];
  #ordinals: number[] = [];
  #head = 0;
  /** Live entries across all journals (the order's other items were dropped by their journals). */
  #live = 0;

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  /** A journal took an entry (its `ordinal`-th ever). */
  added(journal: Journal, ordinal: number): void {
    this.#journals.push(journal);
    this.#ordinals.push(ordinal);
    this.#live += 1;
  }

  /** A journal let `count` entries go (its own limits, a reset): their places in the order go stale. */
  dropped(count: number): void {
    this.#live -= count;
    const pending = this.#journals.length - this.#head;
    if (pending - this.#live > Math.max(1024, this.#live)) this.#sweep();
  }

  /** Evicts the oldest entries until the budget holds; `keep`'s newest entry (the one just pushed) stays. */
  settle(keep: Journal): void {
    while (this.usedBytes > this.limitBytes && this.#head < this.#journals.length) {
      const journal = this.#journals[this.#head];
      const ordinal = this.#ordinals[this.#head];
      if (!journal.holds(ordinal)) {
        this.#head += 1;
        continue;
      }
      if (journal === keep && journal.length <= 1) return;
      this.#head += 1;
      this.#live -= 1;
      journal.dropOldest(true);
    }
    if (this.#head >= 1024 && this.#head * 2 >= this.#journals.length) this.#sweep();
  }

  /** Drops the order's stale and evicted items (amortised O(1) per entry). */
  #sweep(): void {
    const journals: Journal[] = [];
    const ordinals: number[] = [];
    for (let i = this.#head; i < this.#journals.length; i++) {
      if (!this.#journals[i].holds(this.#ordinals[i])) continue;
      journals.push(this.#journals[i]);
      ordinals.push(this.#ordinals[i]);
    }
    this.#journals = journals;
    this.#ordinals = ordinals;
    this.#head = 0;
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
  /** Entries as stored: requests kept as they came are logged (entry-log.ts) until read, a locator here. */
  readonly #entries: (StoredEntry | Locator)[] = [];
  readonly #log = new EntryLog();
  /** Live entries whose request is kept as it came (parsed on their first read). */
  #unread = 0;
  readonly #sizes: number[] = [];
  #start = 0;
  #bytes = 0;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #budget: JournalBudget | undefined;
  /** Entries ever pushed, and ever dropped: entry number n (from 0) is live when dropped <= n < pushed. */
  #pushed = 0;
  #dropped = 0;

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

  /** Is the `ordinal`-th entry ever pushed still here? */
  holds(ordinal: number): boolean {
    return ordinal >= this.#dropped && ordinal < this.#pushed;
  }

  /**
   * The live entries, oldest first. A request kept as it came is parsed on its first read and its entry
   * replaced by the parsed one, so every later read gives the same object and the journal holds what it
   * held before (its byte count covers a parsed entry, not both forms at once).
   */
  get entries(): readonly JournalEntry[] {
    const entries = this.#entries;
    for (let i = this.#start; this.#unread > 0 && i < entries.length; i++) {
      const entry = entries[i];
      if (typeof entry === 'number') entries[i] = this.#log.read(entry);
      else if (entry.request instanceof RepeatableRequest) entries[i] = { ...entry, request: entry.request.parse() };
      else continue;
      this.#unread -= 1;
    }
    return (this.#start === 0 ? entries : entries.slice(this.#start)) as JournalEntry[];
  }

  push(entry: StoredEntry): void {
    if (entry.request instanceof RepeatableRequest) this.#unread += 1;
    const size = entryBytes(entry.bodyLength);
    this.#entries.push(this.#log.logged(entry, this.#pushed) ?? entry);
    this.#sizes.push(size);
    this.#bytes += size;
    const budget = this.#budget;
    if (budget) {
      budget.usedBytes += size;
      if (this.#pushed === this.#dropped) budget.holders.add(this);
      budget.added(this, this.#pushed);
    }
    this.#pushed += 1;
    while (this.length > 1 && (this.length > this.#maxEntries || this.#bytes > this.#maxBytes)) this.dropOldest();
    if (budget && budget.usedBytes > budget.limitBytes) budget.settle(this);
  }

  /** Forgets the oldest live entry; `byBudget` when the shared budget evicts it (it knows then). */
  dropOldest(byBudget = false): void {
    if (this.length === 0) return;
    const size = this.#sizes[this.#start];
    if (unread(this.#entries[this.#start])) this.#unread -= 1;
    // Let the entry go now, not at the next compaction: a full journal's dead prefix would otherwise
    // keep up to as many entries again alive for the collector to mark.
    this.#entries[this.#start] = undefined as unknown as StoredEntry;
    this.#start += 1;
    this.#dropped += 1;
    this.#log.released(this.#dropped);
    this.#release(size);
    if (!byBudget) this.#budget?.dropped(1);
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
    const left = this.length;
    this.#release(this.#bytes);
    this.#entries.length = 0;
    this.#sizes.length = 0;
    this.#start = 0;
    this.#unread = 0;
    this.#log.clear();
    this.#dropped = this.#pushed;
    if (this.#budget) {
      this.#budget.holders.delete(this);
      if (left > 0) this.#budget.dropped(left);
    }
  }

  #release(size: number): void {
    this.#bytes -= size;
    if (this.#budget) this.#budget.usedBytes -= size;
  }
}

/** Not read yet: its request is parsed on the first read. */
function unread(entry: StoredEntry | Locator | undefined): boolean {
  return typeof entry === 'number' || (entry !== undefined && entry.request instanceof RepeatableRequest);
}
