/**
 * A Fetch `Headers` over node's parsed request headers, without copying them. Building real
 * Headers validates and stores every header again (measurable at thousands of requests a
 * second); node's parser has already validated them, lower-cased the names and joined repeats.
 * Reads look straight into node's object; the first write copies it, so the request is never changed.
 */
import type { IncomingHttpHeaders } from 'node:http';

type Values = Record<string, string | string[] | undefined>;

/** Sorts a dozen names in place: an insertion sort with `<` (code-unit order, as Array#sort) is several times cheaper here. */
function sortNames(names: string[]): string[] {
  for (let i = 1; i < names.length; i++) {
    const name = names[i];
    let j = i - 1;
    for (; j >= 0 && names[j] > name; j--) names[j + 1] = names[j];
    names[j + 1] = name;
  }
  return names;
}

/**
 * `Headers` backed by `req.headers`. Iteration is in sorted name order with `set-cookie` values
 * one by one, as Fetch Headers iterate.
 * @example
 *   const headers = new NodeHeaders(req.headers);
 *   headers.get('Authorization'); // 'Bearer sk-...'
 */
export class NodeHeaders implements Headers {
  #values: Values;
  #copied = false;
  #sorted: string[] | null = null;

  constructor(values: IncomingHttpHeaders) {
    this.#values = values;
  }

  #value(name: string): string | string[] | undefined {
    const values = this.#values;
    // Every stored name is lower-case (node's, and ours on write): a name found as given needs no
    // lower-casing, and callers mostly ask in lower case.
    if (Object.hasOwn(values, name)) return values[name];
    const key = name.toLowerCase();
    return key !== name && Object.hasOwn(values, key) ? values[key] : undefined;
  }

  #writable(): Values {
    if (!this.#copied) {
      this.#values = Object.assign(Object.create(null) as Values, this.#values);
      this.#copied = true;
    }
    this.#sorted = null;
    return this.#values;
  }

  get(name: string): string | null {
    const value = this.#value(name);
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    return this.#value(name) !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.#value('set-cookie');
    return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const values = this.#writable();
    const old = values[key];
    if (old === undefined) values[key] = String(value).trim();
    else if (key === 'set-cookie') values[key] = [...(typeof old === 'string' ? [old] : old), String(value).trim()];
    else values[key] = `${typeof old === 'string' ? old : old.join(', ')}, ${String(value).trim()}`;
  }

  set(name: string, value: string): void {
    this.#writable()[name.toLowerCase()] = String(value).trim();
  }

  delete(name: string): void {
    delete this.#writable()[name.toLowerCase()];
  }

  /**
   * The headers as a plain record of lower-case names, a copy of node's object (names lower-case, repeats
   * joined): what `headerRecord` would build by iterating, without sorting the names and storing each one.
   * Undefined while a name has several values (`set-cookie`), which iteration gives one by one.
   */
  toRecord(): Record<string, string> | undefined {
    const values = this.#values;
    if (Object.hasOwn(values, 'set-cookie')) return undefined;
    return { ...values } as Record<string, string>;
  }

  #names(): string[] {
    // No value is undefined: node sets only what arrived, and `delete` removes the name.
    return (this.#sorted ??= sortNames(Object.keys(this.#values)));
  }

  *entries(): HeadersIterator<[string, string]> {
    for (const name of this.#names()) {
      const value = this.#values[name]!;
      if (name === 'set-cookie' && typeof value !== 'string') for (const v of value) yield [name, v];
      else yield [name, typeof value === 'string' ? value : value.join(', ')];
    }
  }

  *keys(): HeadersIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): HeadersIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    // A plain loop, not the generator: adapters call this once per request.
    const each = thisArg === undefined ? callback : callback.bind(thisArg);
    for (const name of this.#names()) {
      const value = this.#values[name]!;
      if (typeof value === 'string') each(value, name, this);
      else if (name === 'set-cookie') for (const v of value) each(v, name, this);
      else each(value.join(', '), name, this);
    }
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}
