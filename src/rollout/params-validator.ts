import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

const MAX_MESSAGES = 3;

/**
 * Validates tool params against the tool's JSON Schema (draft-07, 2019-09 or
 * 2020-12, picked from `$schema`) and reports problems in a short line a model
 * can act on. Compiled validators are cached per schema.
 *
 * @example
 * const v = new ParamsValidator();
 * v.check({ type: 'object', required: ['q'] }, {}) // "missing required param 'q'"
 */
export class ParamsValidator {
  // One ajv per dialect, made on first need: most servers only ever use one.
  readonly #ajv = new Map<string, Ajv>();
  readonly #cache = new Map<string, ValidateFunction | null>();

  /** Returns undefined when the params are valid (or the schema cannot be compiled), else a readable message. */
  check(schema: unknown, params: Record<string, unknown>): string | undefined {
    const validate = this.#compile(schema);
    if (!validate || validate(params)) return undefined;
    return formatErrors(validate.errors ?? []);
  }

  #compile(schema: unknown): ValidateFunction | null {
    if (typeof schema !== 'object' || schema === null) return null;
    const key = JSON.stringify(schema);
    if (this.#cache.has(key)) return this.#cache.get(key) ?? null;
    const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
    const ajv = this.#ajvFor(dialect.includes('2020-12') ? '2020' : dialect.includes('2019-09') ? '2019' : '7');
    let compiled: ValidateFunction | null;
    try {
      compiled = ajv.compile(schema);
    } catch {
      // A server's broken schema should not block its tool: the server still validates the call itself.
      compiled = null;
    }
    this.#cache.set(key, compiled);
    return compiled;
  }

  #ajvFor(dialect: '7' | '2019' | '2020'): Ajv {
    let ajv = this.#ajv.get(dialect);
    if (!ajv) {
      const options = { allErrors: true, strict: false, validateFormats: false };
      ajv = dialect === '2020' ? new Ajv2020(options) : dialect === '2019' ? new Ajv2019(options) : new Ajv(options);
      this.#ajv.set(dialect, ajv);
    }
    return ajv;
  }
}

/**
 * Turns ajv errors into one short line, e.g. `"limit" must be integer; missing required param 'query'`.
 *
 * @example
 * formatErrors([{ instancePath: '/limit', keyword: 'type', message: 'must be integer', params: {}, schemaPath: '' }])
 */
function formatErrors(errors: ErrorObject[]): string {
  // anyOf/oneOf report every branch; the summary line is enough for a model.
  const useful = errors.filter((e) => e.keyword !== 'if');
  const lines = [...new Set(useful.map(formatOne))];
  const shown = lines.slice(0, MAX_MESSAGES).join('; ');
  return lines.length > MAX_MESSAGES ? `${shown} (and ${lines.length - MAX_MESSAGES} more)` : shown;
}

function formatOne(error: ErrorObject): string {
  const where = error.instancePath
    ? `"${error.instancePath.slice(1).split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~')).join('.')}"`
    : 'params';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return error.instancePath
        ? `${where} is missing required property '${String(params.missingProperty)}'`
        : `missing required param '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return `${where} has unknown property '${String(params.additionalProperty)}'`;
    case 'enum':
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}
