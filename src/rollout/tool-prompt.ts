import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { rollToolPrompt } from './roll-messages.ts';

/**
 * The instructions an agent needs to call MCP tools through `<tool_call>`: ROLL's
 * generated prompt (the tools as JSON, the usage rules and an example call built
 * from the first tool's schema), byte for byte.
 *
 * @example
 * toolInstructions([{ name: 'search', description: 'Search', inputSchema: { type: 'object' } }])
 */
export function toolInstructions(tools: McpToolInfo[]): string {
  return rollToolPrompt(tools);
}
