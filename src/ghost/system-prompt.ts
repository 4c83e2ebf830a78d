// The system prompt: the caller's own prompt first, then tool guidance phrased for the provider.
import type { ProviderName } from './tool-names.ts';

export interface PromptTool {
  /** Provider-facing name. */
  name: string;
  /** The MCP `server.tool` it stands for. */
  original: string;
  description: string;
}

const PROVIDER_NOTES: Record<ProviderName, string> = {
  openai: 'Call tools through function calling; arguments must be a JSON object that fits the function\'s parameters.',
  anthropic: 'Call tools with tool_use blocks. Before a tool call, say in one short sentence why you are calling it.',
  gemini: 'Call tools with function calls; put the arguments in args exactly as the function declaration describes.',
  'azure-openai': 'Call tools through function calling; arguments must be a JSON object that fits the function\'s parameters.',
  bedrock: 'Call tools with toolUse blocks; the input must be a JSON object that fits the tool\'s input schema.',
};

/**
 * Builds the system prompt for a run.
 * @example
 * buildSystemPrompt('openai', 'You analyse databases.', [{ name: 'db_query', original: 'db.query', description: 'Run SQL' }]);
 */
export function buildSystemPrompt(provider: ProviderName, userPrompt: string, tools: readonly PromptTool[], namespace?: string): string {
  const sections = [userPrompt.trim()];
  if (tools.length > 0) {
    const list = tools.map((t) => `- ${t.name} (${t.original})${t.description ? `: ${oneLine(t.description)}` : ''}`).join('\n');
    sections.push(
      [
        `You have ${tools.length} tools from MCP servers${namespace ? ` in namespace "${namespace}"` : ''}. Each is named server_tool:`,
        list,
        '',
        'How to work:',
        '- Use tools to get facts instead of guessing; chain calls, using one result to choose the next call.',
        '- Calls that do not depend on each other can be made together in one turn.',
        '- If a call fails, read the error, then fix the arguments or choose another tool. Never repeat an identical failing call.',
        '- When you have what you need, reply without calling tools. That reply is the final answer returned to the user.',
        PROVIDER_NOTES[provider],
      ].join('\n'),
    );
  } else {
    sections.push('No tools are available in this run; answer from what you know and say what you could not check.');
  }
  return sections.filter(Boolean).join('\n\n');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
