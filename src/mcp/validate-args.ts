/**
 * Tool-argument validation against a tool's inputSchema with ajv, in the schema's own dialect
 * (draft-07, 2019-09 or 2020-12 by `$schema`; draft-07 when it names none, unless told otherwise).
 * Issues are structured; one default message format renders them, and each part may render them
 * its own way. ajv's own ErrorObjects stay available for renderers that need them (the rollout env
 * words them as Python jsonschema does).
 */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { requireLazily } from '../lazy/index.ts';

// Loaded when the first schema is compiled (src/lazy): most test workers never compile one.
const ajv7 = requireLazily<typeof import('ajv')>('ajv');
const ajv2019 = requireLazily<typeof import('ajv/dist/2019.js')>('ajv/dist/2019.js');
const ajv2020 = requireLazily<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');

/** One problem with the arguments. */
export interface ArgumentIssue {
  /** JSON Pointer into the arguments ('' for the arguments object itself). */
  pointer: string;
  /** The same path as property names, for messages. */
  path: string[];
  /** The JSON Schema keyword that failed (type, required, enum, additionalProperties, …). */
  keyword: string;
  /** ajv's message, e.g. "must be integer". */
  message: string;
  /** The missing property (required), the extra one (additionalProperties), or the allowed values (enum). */
  property?: string;
  allowed?: unknown[];
}

// Bounded in entries and in bytes of schema text: a server that keeps changing schemas must not grow the cache without end.
const MAX_COMPILED = 500;
const MAX_COMPILED_CHARS = 4_000_000;

/** A JSON Schema draft ajv reads. */
export type SchemaDraft = '7' | '2019' | '2020';

/** Options for {@link ArgumentValidator}. */
export interface ArgumentValidatorOptions {
  /**
   * The draft for a schema whose `$schema` names none of draft-06/07, 2019-09 or 2020-12.
   * Default '7' (what MCP servers mostly emit); '2020' matches Python jsonschema's `validate()`.
   */
  defaultDraft?: SchemaDraft;
}

function dialectOf(schema: Record<string, unknown>, fallback: SchemaDraft): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020';
  if (declared.includes('2019-09')) return '2019';
  return declared.includes('draft-07') || declared.includes('draft-06') ? '7' : fallback;
}

function toIssue(error: ErrorObject): ArgumentIssue {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath ? error.instancePath.slice(1).split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~')) : [];
  const issue: ArgumentIssue = { pointer: error.instancePath, path, keyword: error.keyword, message: error.message ?? 'is invalid' };
  if (error.keyword === 'required') issue.property = String(params.missingProperty);
  if (error.keyword === 'additionalProperties') issue.property = String(params.additionalProperty);
  if (error.keyword === 'enum') issue.allowed = params.allowedValues as unknown[];
  return issue;
}

/**
 * The default rendering: `at: message` per issue, `; `-joined, e.g.
 * `"limit" must be integer; (arguments) must have required property 'query'`.
 * @example
 *   formatArgumentIssues(new ArgumentValidator().check(schema, args))
 */
export function formatArgumentIssues(issues: readonly ArgumentIssue[]): string {
  const lines = issues.map((i) => {
    const at = i.path.length ? `"${i.path.join('.')}"` : '(arguments)';
    const extra = i.keyword === 'additionalProperties' ? ` '${i.property}'`
      : i.keyword === 'enum' ? `: ${(i.allowed ?? []).map((v) => JSON.stringify(v)).join(', ')}` : '';
    return `${at} ${i.message}${extra}`;
  });
  return [...new Set(lines)].join('; ');
}

/**
 * Compiles each schema once (per instance) and checks arguments against it, reporting every
 * error (ajv's allErrors), none merged. A schema ajv cannot compile validates nothing: the
 * server still has the last word.
 * @example
 *   const v = new ArgumentValidator();
 *   v.check({ type: 'object', required: ['q'] }, {}); // [{ keyword: 'required', property: 'q', ... }]
 *   new ArgumentValidator({ defaultDraft: '2020' }).errors(schema, args); // ajv ErrorObjects
 */
export class ArgumentValidator {
  private readonly ajv = new Map<SchemaDraft, Ajv>();
  /** Each compiled schema with its text's length (what the byte bound counts). */
  private readonly cache = new Map<string, { validate: ValidateFunction | null; chars: number }>();
  private cachedChars = 0;
  private readonly defaultDraft: SchemaDraft;

  constructor(options: ArgumentValidatorOptions = {}) {
    this.defaultDraft = options.defaultDraft ?? '7';
  }

  /** Issues found; empty when the arguments fit (or the schema cannot be compiled). */
  check(schema: unknown, args: unknown, cacheKey?: string): ArgumentIssue[] {
    return this.errors(schema, args, cacheKey).map(toIssue);
  }

  /** The same problems as ajv's ErrorObjects, in ajv's order; empty when the arguments fit (or the schema cannot be compiled). */
  errors(schema: unknown, args: unknown, cacheKey?: string): ErrorObject[] {
    const validate = this.compile(schema, cacheKey);
    if (!validate || validate(args)) return [];
    // `if` failures only say "must match then"; the branch's own errors follow them.
    return (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  }

  /** Whether the schema compiles (false: check() lets everything through). */
  compiles(schema: unknown): boolean {
    return this.compile(schema) !== null;
  }

  private compile(schema: unknown, cacheKey?: string): ValidateFunction | null {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null;
    const key = cacheKey ?? JSON.stringify(schema);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached.validate;
    const chars = cacheKey === undefined ? key.length : JSON.stringify(schema).length;
    // Outside the try: a validator that fails to load must fail loudly, not validate nothing.
    const ajv = this.ajvFor(dialectOf(schema as Record<string, unknown>, this.defaultDraft));
    let compiled: ValidateFunction | null;
    try {
      compiled = ajv.compile(schema);
    } catch {
      compiled = null;
    }
    while (this.cache.size > 0 && (this.cache.size >= MAX_COMPILED || this.cachedChars + chars > MAX_COMPILED_CHARS)) {
      const [oldest, entry] = this.cache.entries().next().value as [string, { chars: number }];
      this.cache.delete(oldest);
      this.cachedChars -= entry.chars;
    }
    if (chars <= MAX_COMPILED_CHARS) {
      this.cache.set(key, { validate: compiled, chars });
      this.cachedChars += chars;
    }
    return compiled;
  }

  private ajvFor(dialect: SchemaDraft): Ajv {
    let ajv = this.ajv.get(dialect);
    if (!ajv) {
      // Formats are the server's business; unknown keywords (x-…, vendor extensions) are not errors.
      const options: Options = { allErrors: true, strict: false, validateFormats: false, validateSchema: false };
      ajv = dialect === '2020' ? new (ajv2020().Ajv2020)(options) : dialect === '2019' ? new (ajv2019().Ajv2019)(options) : new (ajv7().Ajv)(options);
      this.ajv.set(dialect, ajv);
    }
    return ajv;
  }
}
