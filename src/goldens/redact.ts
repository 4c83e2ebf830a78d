/**
 * Redaction: secrets are removed from a recording, or a server's journal entry, before it is ever
 * kept. Headers by name, URL query parameters by name, and any listed value wherever it occurs.
 */
import { providerCredentials } from '../providers/registry.ts';

export const REDACTED = '[REDACTED]';

const credentials = providerCredentials();

/** Header names whose values never reach a golden: common credential headers and every provider's own. */
export const DEFAULT_REDACTED_HEADERS: readonly string[] = [
  ...new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie', 'set-cookie', ...credentials.headers]),
];

/** URL query parameters whose values never reach a golden (common names and every provider's own). */
export const DEFAULT_REDACTED_QUERY: readonly string[] = [...new Set(['key', 'api_key', 'apikey', ...credentials.query])];

export interface RedactionOptions {
  /** Extra header names to redact (case-insensitive). */
  headers?: readonly string[];
  /** Extra query parameter names to redact. */
  query?: readonly string[];
  /** Literal values to replace wherever they occur (tokens, account ids, ...). */
  values?: readonly string[];
}

/**
 * A redactor built once per run from the options.
 * @example
 *   new Redactor({ values: [process.env.OPENAI_API_KEY ?? ''] }).headers({ authorization: 'Bearer sk-1' }) // { authorization: '[REDACTED]' }
 */
export class Redactor {
  readonly headerNames: ReadonlySet<string>;
  readonly queryNames: ReadonlySet<string>;
  readonly values: readonly string[];

  constructor(options: RedactionOptions = {}) {
    this.headerNames = new Set([...DEFAULT_REDACTED_HEADERS, ...(options.headers ?? [])].map((h) => h.toLowerCase()));
    this.queryNames = new Set([...DEFAULT_REDACTED_QUERY, ...(options.query ?? [])]);
    // Longest first so a value containing another is replaced whole.
    this.values = [...(options.values ?? [])].filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
  }

  /**
   * One header as it may be kept: the single decision goldens and server journals share.
   * @example new Redactor().header('Authorization', 'Bearer sk-1') // '[REDACTED]'
   */
  header(name: string, value: string): string {
    return this.lowerCaseHeader(name.toLowerCase(), value);
  }

  /**
   * The same for a name already lower-cased (Fetch and node headers iterate so): a journal keeps
   * every request's headers, and lower-casing each name again was measurable there.
   * @example new Redactor().lowerCaseHeader('authorization', 'Bearer sk-1') // '[REDACTED]'
   */
  lowerCaseHeader(name: string, value: string): string {
    return this.headerNames.has(name) ? REDACTED : this.text(value);
  }

  /**
   * Lower-cases names and replaces secret header values, names sorted (stable golden text).
   * @example new Redactor().headers({ Authorization: 'Bearer sk-1' }) // { authorization: '[REDACTED]' }
   */
  headers(input: Headers | Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const entries = input instanceof Headers ? [...input.entries()] : Object.entries(input);
    for (const [name, value] of entries.sort(([a], [b]) => a.localeCompare(b))) out[name.toLowerCase()] = this.header(name, value);
    return out;
  }

  /**
   * The same for already lower-cased names, in their own order (per request in a journal: no sort).
   * @example new Redactor().headerRecord({ 'x-api-key': 'k', accept: '*' }) // { 'x-api-key': '[REDACTED]', accept: '*' }
   */
  headerRecord(input: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name in input) out[name] = this.lowerCaseHeader(name, input[name]);
    return out;
  }

  /**
   * Replaces secret query parameter values in a URL.
   * @example new Redactor().url('https://x/v1/m?key=abc') // 'https://x/v1/m?key=%5BREDACTED%5D'
   */
  url(raw: string): string {
    const url = new URL(raw);
    for (const name of [...url.searchParams.keys()]) {
      if (this.queryNames.has(name)) url.searchParams.set(name, REDACTED);
    }
    return this.text(url.toString());
  }

  /** Replaces every listed value inside a string. */
  text(value: string): string {
    let out = value;
    for (const secret of this.values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** Deeply replaces every listed value inside strings (and object keys) of a JSON value. */
  deep<T>(value: T): T {
    if (this.values.length === 0) return value;
    return walk(value, (s) => this.text(s)) as T;
  }
}

function walk(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, f));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[f(k)] = walk(v, f);
    return out;
  }
  return value;
}
