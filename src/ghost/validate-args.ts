// A small JSON Schema checker for tool arguments. Ajv costs ~10 ms per run to set up (it compiles its
// meta-schema), which dwarfs a whole loop iteration; the model's mistakes are almost always in the
// keywords checked here, and the server still validates everything else.

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fitsType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function check(value: unknown, schema: unknown, path: string, errors: string[]): void {
  if (!isObject(schema)) return;
  const at = path || '(root)';
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length > 0 && !types.some((t) => fitsType(value, t))) {
    errors.push(`${at} must be ${types.join(' or ')}`);
    return;
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) errors.push(`${at} must be equal to constant ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${at} must be equal to one of the allowed values: ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0 && !branches.some((b) => validateArgs(value, b).length === 0)) {
      errors.push(`${at} must match a schema in ${key}`);
    }
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${at} must NOT have fewer than ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errors.push(`${at} must NOT have more than ${schema.maxLength} characters`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${at} must be >= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${at} must be <= ${schema.maximum}`);
  }
  if (Array.isArray(value) && isObject(schema.items)) value.forEach((item, i) => check(item, schema.items, `${path}/${i}`, errors));
  if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (typeof name === 'string' && !(name in value)) errors.push(`${at} must have required property '${name}'`);
    }
    for (const [key, v] of Object.entries(value)) {
      if (key in props) check(v, props[key], `${path}/${key}`, errors);
      else if (schema.additionalProperties === false) errors.push(`${at} must NOT have additional property '${key}'`);
      else if (isObject(schema.additionalProperties)) check(v, schema.additionalProperties, `${path}/${key}`, errors);
    }
  }
}

/**
 * Checks `value` against the common JSON Schema keywords (type, required, properties,
 * additionalProperties, enum, const, items, anyOf/oneOf, length and range bounds); others are ignored.
 * Returns readable violations, empty when it fits.
 * @example
 * validateArgs({}, { type: 'object', required: ['sql'] }); // ["(root) must have required property 'sql'"]
 */
export function validateArgs(value: unknown, schema: unknown): string[] {
  const errors: string[] = [];
  check(value, schema, '', errors);
  return errors;
}
