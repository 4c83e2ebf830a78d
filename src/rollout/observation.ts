import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

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

/**
 * Renders a tool result's content as text: text blocks as they are, other blocks
 * as short placeholders; with no content at all, the structured content as JSON.
 *
 * @example
 * resultText({ content: [{ type: 'text', text: 'hi' }] }) // 'hi'
 */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type}: ${block.mimeType}, ${block.data.length} base64 chars]`);
        break;
      case 'resource': {
        const resource = block.resource as { uri: string; text?: string; mimeType?: string };
        parts.push(typeof resource.text === 'string' ? resource.text : `[resource: ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}]`);
        break;
      }
      case 'resource_link':
        parts.push(`[resource link: ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
        break;
      default:
        parts.push(`[${(block as { type: string }).type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}
