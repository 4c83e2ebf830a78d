import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { jsonschemaErrorText } from './jsonschema-message.ts';

// The cache is bounded by the schemas' text size, not only their number.
const MAX_CACHED_SCHEMAS = 256;
const MAX_CACHED_SCHEMA_CHARS = 4_000_000;

/**
 * The reason ROLL gives for params that fail a tool's schema: `str()` of the
 * jsonschema ValidationError (see jsonschema-message.ts). It needs ajv's full
 * error list (allErrors) to pick the error jsonschema's best_match picks.
 * Until the shared validator in src/mcp/ hands out its ErrorObjects, this keeps
 * its own ajv per dialect (no `$schema`: 2020-12, jsonschema's default too);
 * compiled validators are cached per schema text (at most 256 schemas and 4 MB of schema text).
 *
 * @example
 * const reasons = new RollValidation();
 * reasons.reason({ type: 'object', required: ['action'] }, {}) // "'action' is a required property\n\nFailed validating ..."
 */
export class RollValidation {
  readonly #ajv = new Map<string, Ajv>();
  readonly #cache = new Map<string, ValidateFunction | null>();
  #cachedChars = 0;

  /** ajv's errors for these params, [] when valid, undefined when the schema does not compile. */
  errors(schema: unknown, params: unknown): ErrorObject[] | undefined {
    const validate = this.#compile(schema);
    if (!validate) return undefined;
    return validate(params) ? [] : [...(validate.errors ?? [])];
  }

  /** ROLL's reason text, or undefined when the params are valid (or the schema cannot be compiled). */
  reason(schema: unknown, params: unknown): string | undefined {
    const errors = this.errors(schema, params);
    return errors && errors.length > 0 ? jsonschemaErrorText(errors, schema, params) : undefined;
  }

  #compile(schema: unknown): ValidateFunction | null {
    if (typeof schema !== 'object' || schema === null) return null;
    const key = JSON.stringify(schema);
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
    const kind = dialect.includes('draft-07') || dialect.includes('draft-06') ? '7' : dialect.includes('2019-09') ? '2019' : '2020';
    let compiled: ValidateFunction | null;
    try {
      compiled = this.#ajvFor(kind).compile(schema);
    } catch {
      compiled = null; // a broken schema does not block the tool (ROLL would crash here)
    }
    while (this.#cache.size > 0 && (this.#cache.size >= MAX_CACHED_SCHEMAS || this.#cachedChars + key.length > MAX_CACHED_SCHEMA_CHARS)) {
      const oldest = this.#cache.keys().next().value!;
      this.#cache.delete(oldest);
      this.#cachedChars -= oldest.length;
    }
    if (key.length <= MAX_CACHED_SCHEMA_CHARS) {
      this.#cache.set(key, compiled);
      this.#cachedChars += key.length;
    }
    return compiled;
  }

  #ajvFor(kind: '7' | '2019' | '2020'): Ajv {
    let ajv = this.#ajv.get(kind);
    if (!ajv) {
      const options = { allErrors: true, strict: false, validateFormats: false };
      ajv = kind === '2020' ? new Ajv2020(options) : kind === '2019' ? new Ajv2019(options) : new Ajv(options);
      this.#ajv.set(kind, ajv);
    }
    return ajv;
  }
}
