/**
 * The request as a journal keeps it: secrets redacted, and as few separate objects as the same
 * content allows. A server keeps tens of thousands of entries alive, and the garbage collector's
 * marking visits every object of every entry, so an object saved per entry is work saved on every
 * collection (docs/decisions/journal-memory.md has the figures). Nothing a reader sees changes:
 * the same keys in the same order, equal values.
 */
import type { Redactor } from '../goldens/redact.ts';
import type { CanonicalRequest, CanonicalTool } from '../scenario/canonical.ts';
import type { JournalEntry, NearMiss } from '../scenario/selection.ts';

/** Shared by every kept request without tools or extra parameters (frozen: one object for all). */
const NO_TOOLS = Object.freeze([]) as readonly CanonicalTool[] as CanonicalTool[];
const NO_PARAMS = Object.freeze({}) as Record<string, unknown>;
/** Shared by every entry a step answered (most of them): no near misses. */
const NO_NEAR_MISSES = Object.freeze([]) as readonly NearMiss[] as NearMiss[];

/**
 * The memo's bounds: distinct values remembered (past it the memo starts over), and the longest
 * value remembered. At most 256 values of 128 characters: 64 KiB however strange the traffic.
 */
const MAX_VALUES = 256;
const MAX_LENGTH = 128;

/**
 * Strings kept once and shared by every journal entry that carries them. One per server, shared by
 * its sessions (it hangs on their `JournalBudget`): a memo per session would be 100 cold maps with
 * traffic in 100 sessions, and 100 copies of the same values.
 * @example
 *   const memo = new StringMemo();
 *   memo.shared(a) === memo.shared(b); // when a and b are equal strings
 */
export class StringMemo {
  readonly #values = new Map<string, string>();

  /** The copy of `value` remembered (an equal value seen before), else `value`, remembered. */
  shared(value: string): string {
    if (value.length > MAX_LENGTH) return value;
    const values = this.#values;
    const known = values.get(value);
    if (known !== undefined) return known;
    if (values.size >= MAX_VALUES) values.clear();
    values.set(value, value);
    return value;
  }
}

/**
 * Keeps requests for a journal. Header values repeat from request to request (host, user agent,
 * content type, SDK version headers): each distinct value is kept once and shared by every entry
 * that carries it, not once per entry.
 * @example
 *   const keeper = new RequestKeeper(new Redactor());
 *   entry.request = keeper.keep(canonical); // auth headers '[REDACTED]', values shared across entries
 */
export class RequestKeeper {
  readonly #redactor: Redactor;
  readonly #memo: StringMemo;

  constructor(redactor: Redactor, memo: StringMemo = new StringMemo()) {
    this.#redactor = redactor;
    this.#memo = memo;
  }

  /** Readies an entry for the journal: its path and request kept as `keep` does, no near misses shared. */
  entry(entry: JournalEntry): JournalEntry {
    // A session's path is a slice of the URL it came on: kept as is, it would hold the whole URL alive.
    entry.path = this.#memo.shared(entry.path);
    if (entry.request) entry.request = this.keep(entry.request);
    if (entry.nearMisses.length === 0) entry.nearMisses = NO_NEAR_MISSES;
    if (entry.frame && this.#redactor.values.length > 0) entry.frame = { ...entry.frame, data: this.#redactor.deep(entry.frame.data) };
    return entry;
  }

  /** A copy of `request` to journal: redacted, empty lists and records shared, header values shared. */
  keep(request: CanonicalRequest): CanonicalRequest {
    const redactor = this.#redactor;
    const kept: CanonicalRequest = { ...request, path: this.#memo.shared(request.path), headers: this.#headers(request.headers) };
    if (request.tools.length === 0) kept.tools = NO_TOOLS;
    if (isEmpty(request.params)) kept.params = NO_PARAMS;
    if (redactor.values.length > 0) {
      kept.raw = redactor.deep(request.raw);
      kept.messages = redactor.deep(request.messages);
      if (kept.params !== NO_PARAMS) kept.params = redactor.deep(request.params);
    }
    return kept;
  }

  #headers(input: Record<string, string>): Record<string, string> {
    const redactor = this.#redactor;
    const memo = this.#memo;
    const out: Record<string, string> = {};
    for (const name in input) {
      // Canonical headers carry lower-cased names (adapters read them from Fetch or node headers).
      const value = redactor.lowerCaseHeader(name, input[name]);
      // A body's length differs from request to request: not worth remembering.
      if (name === 'content-length') {
        out[name] = value;
        continue;
      }
      out[name] = memo.shared(value);
    }
    return out;
  }
}

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}
