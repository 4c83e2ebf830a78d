import type { Answer } from './schema.ts';

/**
 * Rendering an answer into a CallToolResult: `{{name}}` placeholders filled from the call (its
 * arguments, the progress token, the client's answers to the server's requests). Names are
 * looked up when a placeholder asks for them, so an answer without placeholders costs nothing.
 */

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** Resolves a placeholder name to its text, or undefined when there is no such value. */
export type Values = (name: string) => string | undefined;

function lookup(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const asText = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The values `{{...}}` can name: every argument by its own name and as `arguments.name` (dotted
 * paths go deeper; objects render as JSON), plus the extras by their names.
 * @example
 *   templateValues({ city: 'Paris' })('arguments.city') // 'Paris'
 */
export function templateValues(args: Record<string, unknown>, extra: Record<string, unknown> = {}): Values {
  return (name) => {
    const path = name.split('.');
    if (path[0] === 'arguments') return asText(lookup(args, path.slice(1)));
    if (Object.hasOwn(extra, path[0])) return asText(lookup(extra, path));
    return asText(lookup(args, path));
  };
}

function fillText(text: string, values: Values): string {
  if (!text.includes('{{')) return text;
  // Unknown names stay as written, so a typo shows in the output instead of vanishing.
  return text.replace(PLACEHOLDER, (whole, name: string) => values(name) ?? whole);
}

/**
 * Fills placeholders in every string inside a JSON value.
 * @example
 *   fill({ text: 'Hi {{name}}' }, templateValues({ name: 'Ada' })) // { text: 'Hi Ada' }
 */
export function fill<T>(value: T, values: Values): T {
  if (typeof value === 'string') return fillText(value, values) as T;
  if (Array.isArray(value)) return value.map((v) => fill(v, values)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fill(v, values);
    return out as T;
  }
  return value;
}

/**
 * The CallToolResult for an answer. Structured content without content also gets its JSON as
 * a text block, as the spec asks of servers for clients that do not read structuredContent.
 * @example
 *   renderResult({ text: 'Hi {{name}}' }, templateValues({ name: 'Ada' })) // { content: [{ type: 'text', text: 'Hi Ada' }] }
 */
export function renderResult(answer: Answer, values: Values): Record<string, unknown> {
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
