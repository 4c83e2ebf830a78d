/**
 * Validates call_tool arguments against the downstream tool's input schema (ajv) before anything
 * goes downstream, so a bad call costs no round trip and gets a precise error.
 */
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * Compiles and caches one validator per schema hash.
 * @example
 *   const v = new ArgsValidator();
 *   v.check(hash, schema, { path: 1 }); // ['/path: must be string']
 */
export class ArgsValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction | Error>();

  /** Returns the problems found (empty when the arguments are valid). */
  check(hash: string, schema: Record<string, unknown>, args: unknown): string[] {
    let validate = this.cache.get(hash);
    if (!validate) {
      try {
        // Draft markers ($schema) of any version: validate by the keywords, not the meta-schema.
        const { $schema: _ignored, ...rest } = schema;
        validate = this.ajv.compile(rest);
      } catch (err) {
        validate = err as Error;
      }
      this.cache.set(hash, validate);
    }
    // A schema ajv cannot compile must not block the call: the downstream has the last word.
    if (validate instanceof Error) return [];
    if (validate(args)) return [];
    return (validate.errors ?? []).map((e) => {
      const where = e.instancePath || '(arguments)';
      const extra = e.keyword === 'additionalProperties' ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`
        : e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues?: unknown[] }).allowedValues)}` : '';
      return `${where}: ${e.message ?? 'is invalid'}${extra}`;
    });
  }
}
