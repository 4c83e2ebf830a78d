/**
 * Test-only: validates what the mock renders against OpenAI's own OpenAPI description
 * (`../shared/specs/openai-openapi.json`, beside the repository), so "wire-exact" is checked
 * by a real JSON Schema validator rather than by eye.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

const SPEC_ID = 'https://ghostwire.local/openai-openapi.json';

/** Where the spec lives: `../shared/specs/` next to the repository root. */
export const OPENAI_SPEC_PATH = resolve(import.meta.dirname, '../../../../shared/specs/openai-openapi.json');

/**
 * Rewrites OpenAPI 3.0's `nullable: true` (still used in places of this 3.1 document) into 3.1
 * terms, so null is accepted where the API sends it (e.g. `usage: null` in stream chunks).
 */
function nullableTo31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableTo31);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'properties' || k === '$defs' ? mapValues(v) : nullableTo31(v);
  if (out.nullable === undefined) return out;
  const nullable = out.nullable === true;
  delete out.nullable;
  if (!nullable) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  const { description, ...rest } = out;
  return { description, anyOf: [rest, { type: 'null' }] };
}

function mapValues(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, nullableTo31(x)]));
}

/** A validator over the spec's `components.schemas`, compiled lazily per schema name. */
export class OpenAPIValidator {
  readonly #ajv: Ajv2020;
  readonly #schemas: Record<string, unknown>;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(specPath: string = OPENAI_SPEC_PATH) {
    const spec = JSON.parse(readFileSync(specPath, 'utf8')) as { components: { schemas: Record<string, unknown> } };
    this.#schemas = spec.components.schemas;
    const components = nullableTo31(spec.components);
    // The spec mixes OpenAPI 3.0 habits (`nullable`, `discriminator`, `x-*`) with 3.1;
    // strict mode would reject those keywords, and custom formats (`unixtime`) are not checked.
    this.#ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    this.#ajv.addSchema({ $id: SPEC_ID, components }, SPEC_ID);
  }

  /**
   * Validates `value` against `components.schemas[schemaName]`; returns readable errors (empty when valid).
   * @example
   *   expect(validator.validate('CreateChatCompletionResponse', body)).toEqual([]);
   */
  validate(schemaName: string, value: unknown): string[] {
    let fn = this.#compiled.get(schemaName);
    if (!fn) {
      if (!(schemaName in this.#schemas)) throw new Error(`openai-openapi.json has no components.schemas.${schemaName}`);
      fn = this.#ajv.compile({ $ref: `${SPEC_ID}#/components/schemas/${schemaName}` });
      this.#compiled.set(schemaName, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e: ErrorObject) => `${schemaName}${e.instancePath || ''}: ${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }
}

let shared: OpenAPIValidator | undefined;

/**
 * Validates a value against an OpenAI schema by name; returns the errors (empty array when valid).
 * One validator per test worker, built on first use (the spec is 3 MB).
 * @example
 *   expect(validateOpenAI('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
 */
export function validateOpenAI(schemaName: string, value: unknown): string[] {
  // Test-only cache: parsing and compiling the spec once per worker keeps tests fast.
  shared ??= new OpenAPIValidator();
  return shared.validate(schemaName, value);
}
