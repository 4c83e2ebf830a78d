import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { exampleFromSchema } from './schema-example.ts';

/**
 * The instructions an agent needs to call MCP tools through `<tool_call>`: every
 * tool's name, description and input schema, and an example call built from the
 * first tool's schema (so the example is a call the validator accepts).
 *
 * @example
 * toolInstructions([{ name: 'search', description: 'Search', inputSchema: { type: 'object' } }])
 */
export function toolInstructions(tools: McpToolInfo[]): string {
  if (tools.length === 0) return 'No tools are available from the MCP server; answer directly.';
  const sections = tools.map((tool) =>
    [
      `### ${tool.name}`,
      tool.description ? `Description: ${tool.description.trim()}` : undefined,
      `Parameters (JSON Schema): ${JSON.stringify(tool.inputSchema)}`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
  const first = tools[0];
  const example = JSON.stringify({ tool_name: first.name, tool_params: exampleFromSchema(first.inputSchema) });
  return [
    'You can call the following tools. Call at most one tool per turn.',
    '',
    sections.join('\n\n'),
    '',
    'To call a tool, write one JSON object with "tool_name" and "tool_params" inside tool_call tags, for example:',
    `<tool_call>${example}</tool_call>`,
    'The result comes back inside information tags. When you can answer without a tool, answer directly.',
  ].join('\n');
}
