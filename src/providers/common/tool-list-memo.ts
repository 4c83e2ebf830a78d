/**
 * Request bodies parsed with their tool list taken from a memo. An agent loop sends the same tools
 * with every turn, and its client writes them as the same text each time: parsing that text again is
 * most of the work of parsing a tool-carrying request (and each parse is a new tree of objects a
 * journal entry keeps alive). So the text of a body's top-level `tools` is remembered with its parsed
 * value, deep-frozen (shared by every request that carries it, nothing may change it); a body that
 * holds the same text where its `tools` is parses without it, and gets the remembered value.
 *
 * Where the text sits is proved, not guessed: the remembered text is swapped for a string no body
 * holds (one with a `\u0001`, checked absent from the body), and the memo is used only when the body
 * so parsed has exactly that string as its top-level `tools`. Anything else — another key order,
 * whitespace, the text nested deeper, duplicate keys — parses whole as before. Keyed on the tools'
 * text only, never on the request: every request of a load test differs and still hits, as every
 * turn of a real agent loop does. See docs/decisions/tool-list-memo.md.
 */

const FIELD = '"tools":';
/** The stand-in's JSON text and value. Raw control characters are not JSON, so only the escape can spell it. */
const MARK_TEXT = '"\\u0001ghostwire:tools"';
const MARK = '\u0001ghostwire:tools';
const ESCAPE = '\\u0001';
/** A body longer than this many times the longest remembered list is parsed whole (see `parse`). */
const BODY_PER_TOOLS = 8;
/** Shorter tool lists are cheap to parse: not worth a lookup. */
const MIN_LENGTH = 64;
/**
 * After this many tool lists in a row were not worth learning (written with spaces, or gone before a
 * second request carried them), a list is learnt only once every `RETRY_EVERY` bodies that carry one.
 */
const MAX_FAILED_LEARNS = 16;
const RETRY_EVERY = 64;

interface Remembered {
  text: string;
  /** `"tools":` and the text: what is searched for. */
  needle: string;
  value: unknown;
  hits: number;
}

export interface ToolListMemoOptions {
  /** Most tool lists remembered (a suite's agents each send their own). */
  maxEntries?: number;
  /** Most characters of tool-list text remembered, over all entries (their parsed values cost about 2–3 times as much). */
  maxChars?: number;
}

/**
 * A memo of parsed tool lists by their text, for one adapter's request parser.
 * @example
 *   const memo = new ToolListMemo();
 *   const body = memo.parse(req.bodyText); // as JSON.parse, `tools` shared and frozen when remembered
 */
export class ToolListMemo {
  /** Most recently used last. */
  readonly #entries: Remembered[] = [];
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #chars = 0;
  /** Per remembered list, what the parser made of it (weakly: a list forgotten takes it along). */
  readonly #derived = new WeakMap<object, unknown>();
  /** The longest remembered text's length. */
  #longest = 0;
  #failedLearns = 0;
  #sinceLearn = 0;
  #hits = 0;

  constructor(options: ToolListMemoOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 8;
    this.#maxChars = options.maxChars ?? 256 * 1024;
  }

  /**
   * What `derive` makes of a tool list, made once per remembered list and shared (frozen) by every
   * request that carries it; made afresh for a list the memo does not hold.
   * @example
   *   const canonical = memo.derived(body.tools, () => parseTools(body.tools));
   */
  derived<T>(tools: unknown, derive: () => T): T {
    if (typeof tools !== 'object' || tools === null || !Object.isFrozen(tools)) return derive();
    const known = this.#derived.get(tools);
    if (known !== undefined) return known as T;
    // Only for a list the memo gave out: a frozen list from elsewhere is derived as any other.
    if (!this.#entries.some((e) => e.value === tools)) return derive();
    const made = deepFreeze(derive());
    this.#derived.set(tools, made);
    return made;
  }

  /** Bodies whose tools came from the memo so far. */
  get hits(): number {
    return this.#hits;
  }

  /** Characters of tool-list text remembered now. */
  get chars(): number {
    return this.#chars;
  }

  /** `JSON.parse(text)`, throwing as it throws; a top-level `tools` seen before is the remembered, frozen value. */
  parse(text: string): unknown {
    // Finding the tools costs a scan of the text, cheap next to parsing it but not free: worth it only
    // where a remembered list can be a good part of the body (long prose with a short tool list is parsed whole).
    if (this.#entries.length > 0 && text.length <= this.#longest * BODY_PER_TOOLS) {
      const hit = this.#fromMemo(text);
      if (hit !== undefined) return hit;
    }
    const body = JSON.parse(text) as unknown;
    // Learnt from the parsed body: a body without tools costs no scan of its text.
    if (hasTools(body) && (this.#failedLearns < MAX_FAILED_LEARNS || ++this.#sinceLearn % RETRY_EVERY === 0)) this.#learn(text, body);
    return body;
  }

  /** The body with a remembered list where its top-level `tools` is, most recently used list first. */
  #fromMemo(text: string): object | undefined {
    const entries = this.#entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      // The whole `"tools":[…]` text searched for from the end, where SDKs put the tools: a long needle
      // is found or ruled out faster than the field name alone would be.
      const at = text.lastIndexOf(entry.needle);
      if (at < 0) continue;
      const body = this.#swapped(text, at, entry) ?? this.#swapped(text, text.indexOf(entry.needle), entry, at);
      if (body === undefined) return undefined;
      body.tools = entry.value;
      this.#hits += 1;
      entry.hits += 1;
      this.#failedLearns = 0;
      if (i !== entries.length - 1) entries.push(...entries.splice(i, 1));
      return body;
    }
    return undefined;
  }

  /** The body parsed with the stand-in for the list at `at`, if that is its top-level `tools` (else undefined). */
  #swapped(text: string, at: number, entry: Remembered, tried = -1): Record<string, unknown> | undefined {
    if (at < 0 || at === tried || text.includes(ESCAPE)) return undefined;
    const start = at + FIELD.length;
    let body: unknown;
    try {
      body = JSON.parse(text.slice(0, start) + MARK_TEXT + text.slice(start + entry.text.length));
    } catch {
      // Not JSON: parsed whole, so the error names the body's own positions.
      return undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as Record<string, unknown>).tools !== MARK) return undefined;
    return body as Record<string, unknown>;
  }

  /** Remembers the body's tools when their text sits in the body as JSON.stringify writes it. */
  #learn(text: string, body: { tools: unknown[] }): void {
    const tools = body.tools;
    const toolsText = JSON.stringify(tools);
    if (toolsText.length < MIN_LENGTH || toolsText.length > this.#maxChars / 4 || !text.includes(FIELD + toolsText)) {
      this.#failedLearns += 1;
      return;
    }
    if (this.#entries.some((e) => e.text === toolsText)) {
      // Remembered already, and still parsed whole: a body too long for the memo to look in.
      this.#failedLearns += 1;
      return;
    }
    // This body's own tools, frozen: from now on every body that carries their text shares them.
    this.#entries.push({ text: toolsText, needle: FIELD + toolsText, value: deepFreeze(tools), hits: 0 });
    this.#chars += toolsText.length;
    while (this.#entries.length > this.#maxEntries || this.#chars > this.#maxChars) {
      const gone = this.#entries.shift()!;
      this.#chars -= gone.text.length;
      if (gone.hits === 0) this.#failedLearns += 1;
    }
    this.#longest = 0;
    for (const e of this.#entries) this.#longest = Math.max(this.#longest, e.text.length);
  }
}

function hasTools(body: unknown): body is { tools: unknown[] } {
  if (typeof body !== 'object' || body === null) return false;
  const tools = (body as Record<string, unknown>).tools;
  return Array.isArray(tools) && tools.length > 0;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
