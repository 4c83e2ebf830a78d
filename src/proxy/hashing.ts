/**
 * Schema hashes (seed Phase 5): SHA-256 over name + description + input schema, with the schema
 * serialized with sorted keys so the same tool always hashes the same.
 */
import { createHash } from 'node:crypto';

export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/**
 * JSON with object keys sorted at every level.
 * @example
 *   stableStringify({ b: 1, a: [2, { d: 3, c: 4 }] }) // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * The tool's schema hash, hex SHA-256.
 * @example
 *   computeSchemaHash({ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } });
 */
export function computeSchemaHash(tool: ToolDefinition): string {
  return createHash('sha256')
    .update(tool.name).update('\u0000')
    .update(tool.description ?? '').update('\u0000')
    .update(stableStringify(tool.inputSchema ?? {}))
    .digest('hex');
}

/** Parameter names of a JSON Schema object (top level and one level of nesting). */
export function parameterNames(schema: Record<string, unknown> | undefined): string[] {
  const names: string[] = [];
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, sub] of Object.entries(props)) {
    names.push(name);
    const nested = (sub?.properties ?? {}) as Record<string, unknown>;
    names.push(...Object.keys(nested));
  }
  return names;
}

/** The text a tool is embedded and searched by: name, description, parameter names. */
export function searchText(tool: ToolDefinition): string {
  const params = parameterNames(tool.inputSchema);
  return `${tool.name}: ${tool.description ?? ''}${params.length ? `\nParameters: ${params.join(', ')}` : ''}`;
}

/**
 * Hash of the embedded text: an embedding is reused while this stays the same.
 * @example
 *   descriptionHash({ name: 'read_file', description: 'Reads a file' }) // 64 hex characters
 */
export function descriptionHash(tool: ToolDefinition): string {
  return createHash('sha256').update(searchText(tool)).digest('hex');
}
