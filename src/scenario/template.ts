/**
 * `{{name}}` templating of produced text. Unknown names stay as written, so a typo shows up
 * in the output instead of silently vanishing.
 */
const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/**
 * Replaces `{{name}}` with `values[name]`.
 * @example
 *   fillTemplate('Weather in {{city}}', { city: 'Paris' }) // 'Weather in Paris'
 */
export function fillTemplate(text: string, values: Record<string, string>): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}

/** Applies fillTemplate to every string inside a JSON value (tool-call arguments). */
export function fillTemplateDeep(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return fillTemplate(value, values);
  if (Array.isArray(value)) return value.map((v) => fillTemplateDeep(v, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTemplateDeep(v, values)]));
  }
  return value;
}
