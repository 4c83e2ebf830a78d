import { fillTemplateDeep } from '../../scenario/template.ts';
import type { Answer } from './schema.ts';

/**
 * Rendering an answer into a CallToolResult: `{{name}}` placeholders filled from the call
 * (its arguments, the progress token, the client's answers to the server's requests).
 */

/** Flattens a JSON value into dotted names (`arguments.city`, `responses.0.action`), objects also as JSON text. */
function flatten(prefix: string, value: unknown, out: Record<string, string>, depth = 0): void {
  if (value === undefined || depth > 16) return;
  if (prefix) out[prefix] = typeof value === 'string' ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out, depth + 1);
  }
}

/**
 * The values `{{...}}` can name: every argument by its own name and as `arguments.name`, plus extras.
 * @example
 *   templateValues({ city: 'Paris' }) // { city: 'Paris', 'arguments.city': 'Paris', arguments: '{"city":"Paris"}' }
 */
export function templateValues(args: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  flatten('', args, out);
  flatten('arguments', args, out);
  for (const [k, v] of Object.entries(extra)) flatten(k, v, out);
  return out;
}

/** Fills placeholders in every string inside a JSON value. */
export function fill<T>(value: T, values: Record<string, string>): T {
  return fillTemplateDeep(value, values) as T;
}

/**
 * The CallToolResult for an answer. Structured content without content also gets its JSON as
 * a text block, as the spec asks of servers for clients that do not read structuredContent.
 * @example
 *   renderResult({ text: 'Hi {{name}}' }, { name: 'Ada' }) // { content: [{ type: 'text', text: 'Hi Ada' }] }
 */
export function renderResult(answer: Answer, values: Record<string, string>): Record<string, unknown> {
  const content: unknown[] = [];
  if (answer.text !== undefined) content.push({ type: 'text', text: answer.text });
  if (answer.content) content.push(...answer.content);
  const structuredContent = answer.structuredContent ? fill(answer.structuredContent, values) : undefined;
  if (content.length === 0 && structuredContent) content.push({ type: 'text', text: JSON.stringify(structuredContent) });
  const result: Record<string, unknown> = { content: fill(content, values) };
  if (structuredContent) result.structuredContent = structuredContent;
  if (answer.isError) result.isError = true;
  if (answer._meta) result._meta = answer._meta;
  return result;
}
