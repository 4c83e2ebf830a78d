/**
 * Caps a text at `max` characters, ending it with a marker that says how much
 * was cut, so the agent knows the observation is partial.
 *
 * @example
 * capText('x'.repeat(50), 20) // 'xxxxxxxxxxxxxxxxxxxx…[truncated 30 chars]'
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…[truncated ${text.length - max} chars]`;
}
