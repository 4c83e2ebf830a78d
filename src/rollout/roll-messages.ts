import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { pyFloatRepr, pyRepr } from './python-repr.ts';

/**
 * Every text ROLL's MCPTool and GEM's ToolEnvWrapper show the policy, byte for
 * byte, so a policy trained against ROLL reads the same prompt, errors and
 * limits here. Read from alibaba/ROLL (roll/pipeline/agentic/tools/mcp_tool.py)
 * and axon-rl/gem (gem/tools/tool_env_wrapper.py); see docs/rollout-compat.md.
 */

/** ROLL: the observation when the server answers with no text. */
export const ROLL_EMPTY_SUCCESS = '<information>Tool executed successfully with no text output.</information>';
/** ROLL: the observation when the server flags an error with no text. */
export const ROLL_EMPTY_ERROR = '[Execution Error: Server indicated an error but provided no details.]';
/** ROLL: the instructions when the server has no tools. */
export const ROLL_NO_TOOLS = 'No tools are available from the server.';
/** GEM: appended (after a blank line) to the observation of the call that reaches `max_tool_uses`. */
export const GEM_LIMIT_MESSAGE = 'Reached the maximum number of tool use. Please output final answer directly.';
/** ROLL's ValueError for a tool call without a string tool_name and an object tool_params. */
export const ROLL_BAD_SHAPE = "JSON must contain a 'tool_name' (string) and 'tool_params' (dict).";

/**
 * ROLL's validation observation: `[Validation Error: The tool call format is incorrect. Reason: <reason>]`.
 *
 * @example
 * rollValidationError("Unknown tool_name: 'fly'. Available tools are: ['play']")
 */
export function rollValidationError(reason: string): string {
  return `[Validation Error: The tool call format is incorrect. Reason: ${reason}]`;
}

/**
 * ROLL's reason for a tool name the server does not offer (the list as Python prints it).
 *
 * @example
 * rollUnknownTool('fly', ['play']) // "Unknown tool_name: 'fly'. Available tools are: ['play']"
 */
export function rollUnknownTool(name: string, available: readonly string[]): string {
  return `Unknown tool_name: '${name}'. Available tools are: ${pyRepr(available)}`;
}

/**
 * ROLL's execution error observation: `[Execution Error: <text>]`.
 *
 * @example
 * rollExecutionError('Server refused connection') // '[Execution Error: Server refused connection]'
 */
export function rollExecutionError(text: string): string {
  return `[Execution Error: ${text}]`;
}

/**
 * The text ROLL extracts from a tool result: the non-empty text blocks joined by
 * newlines, then stripped of surrounding whitespace (Python's `str.strip`).
 *
 * @example
 * rollResultText({ content: [{ type: 'text', text: ' 42 \n' }] }) // '42'
 */
export function rollResultText(result: { content?: ReadonlyArray<{ type: string; text?: unknown }> }): string {
  const parts = (result.content ?? []).filter((b) => b.type === 'text' && typeof b.text === 'string' && b.text !== '').map((b) => b.text as string);
  return pyStrip(parts.join('\n'));
}

/** Python's whitespace, as `str.strip()` and the regex `\s` (unicode) see it. */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
const LEADING = new RegExp(`(^|\\n)[${PY_SPACE}]+`, 'g');

/**
 * Python's `str.strip()`.
 *
 * @example
 * pyStrip('\u00a0 hi \n') // 'hi'
 */
export function pyStrip(text: string): string {
  return text.replace(STRIP, '');
}

/**
 * Python's `json.dumps(value, indent=indent, ensure_ascii=False)`: floats spelled
 * as Python spells them (`1e-05`), everything else as JSON.stringify writes it.
 *
 * @example
 * pyJsonDumps({ a: [1, 0.5] }, 2)
 */
export function pyJsonDumps(value: unknown, indent?: number): string {
  const render = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return 'NaN';
      if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
    }
    if (typeof v !== 'object') return JSON.stringify(v);
    const entries = Array.isArray(v) ? v.map((x) => render(x, depth + 1)) : Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${render(x, depth + 1)}`);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) return `${open}${close}`;
    if (indent === undefined) return `${open}${entries.join(', ')}${close}`;
    const pad = ' '.repeat(indent * (depth + 1));
    return `${open}\n${pad}${entries.join(`,\n${pad}`)}\n${' '.repeat(indent * depth)}${close}`;
  };
  return render(value, 0);
}

/**
 * ROLL's example value for a JSON Schema: every property (nested objects too),
 * one item per array, the first non-null anyOf branch, and fixed samples per type.
 *
 * @example
 * rollExampleFromSchema({ type: 'object', properties: { n: { type: 'integer' } } }) // { n: 1 }
 */
export function rollExampleFromSchema(schema: unknown): unknown {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  if ('anyOf' in s) {
    for (const option of (Array.isArray(s.anyOf) ? s.anyOf : []) as Array<Record<string, unknown>>) {
      if (option?.type !== 'null') return rollExampleFromSchema(option);
    }
    return null;
  }
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) out[name] = rollExampleFromSchema(sub);
      return out;
    }
    case 'array': {
      const items = s.items;
      const empty = items === undefined || items === null || (typeof items === 'object' && Object.keys(items).length === 0) || items === false;
      return empty ? [] : [rollExampleFromSchema(items)];
    }
    case 'integer':
      return 1;
    case 'string':
      return 'example_value';
    case 'boolean':
      return true;
    case 'number':
      return 1.23;
    default:
      return 'value';
  }
}

/** The tool list ROLL shows: name, description (null when absent), inputSchema. */
function rollToolMetadata(tool: McpToolInfo): Record<string, unknown> {
  return { name: tool.name, description: tool.description ?? null, inputSchema: tool.inputSchema ?? {} };
}

/**
 * ROLL's generated tool prompt ("## AVAILABLE TOOLS", the tools as JSON, "## CRITICAL
 * USAGE INSTRUCTIONS", an example call for the first tool), with ROLL's cleanup
 * applied: the leading whitespace of every line removed (JSON indentation included)
 * and blank lines dropped, exactly as `re.sub(r'^\s+', '', …, flags=re.MULTILINE)` does.
 *
 * @example
 * rollToolPrompt([{ name: 'play', description: 'Plays', inputSchema: { type: 'object' } }])
 */
export function rollToolPrompt(tools: readonly McpToolInfo[]): string {
  if (tools.length === 0) return ROLL_NO_TOOLS;
  const metadata = tools.map(rollToolMetadata);
  const first = metadata[0];
  const example = pyJsonDumps({ tool_name: first.name, tool_params: rollExampleFromSchema(first.inputSchema) }, 2);
  const template = `
            You are a precise, computer-like agent. You can use a list of tools to solve the problem.  
            ## AVAILABLE TOOLS
            Here is a list of available tools in JSON format. You **MUST** use them to interact with the server.
            \`\`\`json
            ${pyJsonDumps(metadata, 2)}
            \`\`\`
            ## CRITICAL USAGE INSTRUCTIONS
            **Your response MUST follow these rules EXACTLY, or it will be REJECTED:**
            1.  You **MUST** respond with a single, valid JSON object.
            2.  This JSON object **MUST** be enclosed within \`<tool_call>\` and \`</tool_call>\` tags.
            3.  **ABSOLUTELY NO OTHER TEXT, EXPLANATIONS, OR PUNCTUATION** outside the \`<tool_call>\` tags.
            4.  The JSON object **MUST** have two keys: \`"tool_name"\` and \`"tool_params"\`.
            5.  \`"tool_name"\` **MUST** be a string matching one of the tool names from the list above.
            6.  \`"tool_params"\` **MUST** be a dictionary containing parameters with the correct data types as defined in the \`inputSchema\`.
            ## CORRECT RESPONSE EXAMPLE
            To call the '${String(first.name)}' tool, your response must look **EXACTLY** like this (the values are examples, you should use real values):
            <tool_call>
            ${example}
            </tool_call>
        `;
  return pyStrip(template.replace(LEADING, '$1'));
}

/**
 * GEM's reset observation: the tools' instructions joined by newlines, under
 * "Available tools:" when there are several, appended to the observation after one newline.
 *
 * @example
 * gemResetObservation('Question: 2+2?', ['Use <search>q</search>.']) // 'Question: 2+2?\nUse <search>q</search>.'
 */
export function gemResetObservation(observation: string, instructions: readonly string[]): string {
  const joined = instructions.join('\n');
  return `${observation}\n${instructions.length > 1 ? `Available tools:\n${joined}` : joined}`;
}

/**
 * The observation of the call that reaches the limit: GEM's message after a blank line.
 *
 * @example
 * gemLimitObservation('<information>42</information>')
 */
export function gemLimitObservation(observation: string): string {
  return `${observation}\n\n${GEM_LIMIT_MESSAGE}`;
}
