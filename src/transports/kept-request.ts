/**
 * The request as a journal keeps it: secrets redacted, and as few separate objects as the same
 * content allows. A server keeps tens of thousands of entries alive, and the garbage collector's
 * marking visits every object of every entry, so an object saved per entry is work saved on every
 * collection (docs/decisions/journal-memory.md has the figures). Nothing a reader sees changes:
 * the same keys in the same order, equal values.
 */
import type { Redactor } from '../goldens/redact.ts';
import type { IncomingRequest, ProviderAdapter } from '../providers/adapter.ts';
import type { CanonicalRequest, CanonicalTool } from '../scenario/canonical.ts';
import type { JournalEntry, NearMiss } from '../scenario/selection.ts';
import { NodeHeaders } from './node-headers.ts';

/** What a `repeatableParse` adapter parsed a request from: the parts its parse reads besides the headers. */
export type ParsedFrom = Pick<IncomingRequest, 'method' | 'path' | 'bodyText'>;

/** A request a journal keeps as it came (body text, redacted headers), parsed again when read. */
export class RepeatableRequest {
  readonly #keeper: RequestKeeper;
  readonly #adapter: ProviderAdapter;
  readonly #method: string;
  readonly #path: string;
  /** Redacted, lower-case names; may be shared with requests alike in all but `content-length` (see `contentLength`). */
  readonly #headers: Record<string, string>;
  readonly #contentLength: string | undefined;
  readonly #bodyText: string;
  /** A bodyless request's header names in order (what `#alike` compares with). */
  #names: string[] = [];

  /**
   * `from` is copied, not kept: a transport's request holds its connection. `contentLength`, when given,
   * is this request's own, and `headers` may be another request's (alike but for it).
   */
  constructor(keeper: RequestKeeper, adapter: ProviderAdapter, from: ParsedFrom, headers: Record<string, string>, contentLength = headers['content-length']) {
    this.#keeper = keeper;
    this.#adapter = adapter;
    this.#method = from.method;
    this.#path = from.path;
    this.#headers = headers;
    this.#contentLength = contentLength;
    this.#bodyText = from.bodyText;
  }

  /** Whether this request came with `adapter`, `method` and `path` (the keeper's test before sharing headers). */
  cameAs(keeper: RequestKeeper, adapter: ProviderAdapter, from: ParsedFrom): boolean {
    return this.#keeper === keeper && this.#adapter === adapter && this.#method === from.method && this.#path === from.path;
  }

  /** A request alike this one but for its body and `content-length`: it shares this one's headers. */
  alikeWith(from: ParsedFrom, contentLength: string | undefined): RepeatableRequest {
    return new RepeatableRequest(this.#keeper, this.#adapter, from, this.#headers, contentLength);
  }

  /** The body's text as it came. */
  get bodyText(): string {
    return this.#bodyText;
  }

  /** The `content-length` header as it came, if it came. */
  get contentLength(): string | undefined {
    return this.#contentLength;
  }

  /**
   * The same request without its body and its `content-length` (a journal keeps those elsewhere:
   * entry-log.ts); `previous` itself when it is such a request alike in all else (requests of a load
   * differ in body alone), so entries share one.
   */
  bodyless(previous: RepeatableRequest | null): RepeatableRequest {
    if (previous !== null && this.#alike(previous)) return previous;
    const headers: Record<string, string> = {};
    for (const name in this.#headers) headers[name] = name === 'content-length' ? '' : this.#headers[name];
    const bodyless = new RepeatableRequest(this.#keeper, this.#adapter, { method: this.#method, path: this.#path, bodyText: '' }, headers);
    bodyless.#names = Object.keys(headers);
    return bodyless;
  }

  /** This bodyless request with its body and `content-length` back. */
  withBody(bodyText: string, contentLength: string | undefined): RepeatableRequest {
    const headers: Record<string, string> = {};
    for (const name in this.#headers) headers[name] = name === 'content-length' && contentLength !== undefined ? contentLength : this.#headers[name];
    return new RepeatableRequest(this.#keeper, this.#adapter, { method: this.#method, path: this.#path, bodyText }, headers);
  }

  /** Same keeper, adapter, method, path, and header names in the same order with the same values, `content-length` aside. */
  #alike(other: RepeatableRequest): boolean {
    if (other.#keeper !== this.#keeper || other.#adapter !== this.#adapter || other.#method !== this.#method || other.#path !== this.#path) return false;
    return sameHeaders(this.#headers, other.#headers, other.#names, NO_NAMES);
  }

  /** The headers with this request's own `content-length` (shared ones hold another request's). */
  #ownHeaders(): Record<string, string> {
    const headers = this.#headers;
    // Shared only among requests with the same header names: a shared object has `content-length` when this one does.
    return headers['content-length'] === this.#contentLength ? headers : { ...headers, 'content-length': this.#contentLength! };
  }

  /** The request as the journal kept it when it came: the adapter's parse, kept as `RequestKeeper.keep` keeps it. */
  parse(): CanonicalRequest {
    const path = this.#path;
    const incoming: IncomingRequest = {
      method: this.#method,
      path,
      // The headers as kept (secrets redacted; lower-case names), read in place: a Fetch Headers would
      // validate names again and refuse what node accepted (HTTP/2's pseudo-headers among them).
      headers: new NodeHeaders(this.#ownHeaders()),
      bodyText: this.#bodyText,
      // Such an adapter reads no URL; one that did would see this request's path on a neutral origin.
      get url() {
        return new URL(`http://journal.invalid${path}`);
      },
    };
    return this.#keeper.keep(this.#adapter.parse(incoming, undefined));
  }
}

/** A journal entry as a journal holds it: its request may be kept as it came. */
export type StoredEntry = Omit<JournalEntry, 'request'> & { request: CanonicalRequest | RepeatableRequest | null };

/** Shared by every kept request without tools or extra parameters (frozen: one object for all). */
const NO_TOOLS = Object.freeze([]) as readonly CanonicalTool[] as CanonicalTool[];
const NO_PARAMS = Object.freeze({}) as Record<string, unknown>;
/** Shared by every entry a step answered (most of them): no near misses. */
export const NO_NEAR_MISSES = Object.freeze([]) as readonly NearMiss[] as NearMiss[];

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

  /**
   * Readies an entry for the journal: its path and request kept as `keep` does, no near misses shared.
   * With `adapter` and `from` (a request a `repeatableParse` adapter parsed), the request is kept as it
   * came and parsed again when read, unless secrets besides the headers are redacted (its body would hold them).
   */
  entry(entry: JournalEntry, adapter?: ProviderAdapter, from?: ParsedFrom): StoredEntry {
    // A session's path is a slice of the URL it came on: kept as is, it would hold the whole URL alive.
    entry.path = this.#memo.shared(entry.path);
    const stored = entry as StoredEntry;
    if (entry.request) {
      stored.request = adapter && from && this.#redactor.values.length === 0 ? this.#repeatable(adapter, from, entry.request.headers) : this.keep(entry.request);
    }
    if (entry.nearMisses.length === 0) entry.nearMisses = NO_NEAR_MISSES;
    if (entry.frame && this.#redactor.values.length > 0) entry.frame = { ...entry.frame, data: this.#redactor.deep(entry.frame.data) };
    return stored;
  }

  /** The last request kept as it came (bodyless), and the headers it was kept from, secret values left out (see `#repeatable`). */
  #last: RepeatableRequest | null = null;
  #lastHeaders: Record<string, string> | null = null;
  #lastNames: string[] = [];

  /**
   * A request kept as it came. One alike the last (same adapter, method, path, and header names in the
   * same order with the same values, `content-length` aside: a load's requests differ in their bodies)
   * shares the last one's kept headers, so no copy is redacted, shared and compared per request.
   */
  #repeatable(adapter: ProviderAdapter, from: ParsedFrom, headers: Record<string, string>): RepeatableRequest {
    const last = this.#last;
    const secret = this.#redactor.headerNames;
    if (last !== null && last.cameAs(this, adapter, from) && sameHeaders(headers, this.#lastHeaders!, this.#lastNames, secret)) {
      return last.alikeWith(from, headers['content-length']);
    }
    const request = new RepeatableRequest(this, adapter, from, this.#headers(headers));
    // Kept without its body: the keeper outlives the journal's entries, and a body may be megabytes.
    this.#last = request.bodyless(null);
    // What it is compared with, without the values of secret headers: they are kept as [REDACTED] whatever
    // they are, so they need no comparing, and the keeper (which outlives entries) holds no credential.
    const compared: Record<string, string> = {};
    for (const name in headers) compared[name] = secret.has(name) ? '' : headers[name];
    this.#lastHeaders = compared;
    this.#lastNames = Object.keys(headers);
    return request;
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

/** No header names (kept headers are compared whole: their secrets are redacted already). */
const NO_NAMES: ReadonlySet<string> = new Set();

/** The same names in the same order (`names`, those of `before`) with the same values, `content-length` and `secret` headers aside. */
function sameHeaders(headers: Record<string, string>, before: Record<string, string>, names: string[], secret: ReadonlySet<string>): boolean {
  let i = 0;
  for (const name in headers) {
    if (names[i++] !== name) return false;
    if (name !== 'content-length' && headers[name] !== before[name] && !secret.has(name)) return false;
  }
  return i === names.length;
}

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}
