import { pyJsonLoads, pyTypeName } from './py-json.ts';
import { pyStrip, ROLL_BAD_SHAPE } from './roll-messages.ts';

/** A `<tool_call>` found in an action: its inner text and the action cut after it. */
export interface FoundToolCall {
  json: string;
  /** The action up to and including the first `</tool_call>`; anything the model wrote after it is dropped. */
  parsedAction: string;
  /** GEM's form `<tool_name>n</tool_name><arguments>{...}</arguments>` inside the tags. */
  gem?: { toolName: string; arguments: string };
}

/** A decoded tool call. */
export interface ToolCallRequest {
  toolName: string;
  toolParams: Record<string, unknown>;
}

const TOOL_CALL = /<tool_call>([\s\S]*?)<\/tool_call>/;
// GEM's MCPTool syntax, inside the tags: whitespace allowed around the two elements, as GEM's regex allows.
const GEM_CALL = /^\s*<tool_name>([^<]+)<\/tool_name>\s*<arguments>([\s\S]*?)<\/arguments>\s*$/;

/**
 * Finds the first `<tool_call>...</tool_call>` in an action (ROLL's rule: the first
 * match, its content stripped). The content may be ROLL's JSON
 * (`{"tool_name": ..., "tool_params": {...}}`) or GEM's
 * `<tool_name>...</tool_name><arguments>{...}</arguments>`.
 *
 * @example
 * findToolCall('<tool_call>{"tool_name":"a"}</tool_call> extra') // { json: '{"tool_name":"a"}', parsedAction: '<tool_call>...</tool_call>' }
 */
export function findToolCall(action: string): FoundToolCall | undefined {
  const match = TOOL_CALL.exec(action);
  if (!match) return undefined;
  const found: FoundToolCall = { json: pyStrip(match[1]), parsedAction: action.slice(0, match.index + match[0].length) };
  const gem = GEM_CALL.exec(match[1]);
  if (gem) found.gem = { toolName: pyStrip(gem[1]), arguments: pyStrip(gem[2]) };
  return found;
}

/**
 * Decodes a found tool call; throws ROLL's reason (Python's JSON error text, "Parsed
 * JSON is not a dictionary, but <class 'list'>", or the tool_name/tool_params rule).
 *
 * @example
 * decodeToolCall(findToolCall('<tool_call>{"tool_name": "search", "tool_params": {"query": "x"}}</tool_call>')!)
 * // { toolName: 'search', toolParams: { query: 'x' } }
 */
export function decodeToolCall(found: FoundToolCall | string): ToolCallRequest {
  const call = typeof found === 'string' ? { json: found, parsedAction: found } : found;
  if (call.gem) {
    const params = call.gem.arguments === '' ? {} : pyJsonLoads(call.gem.arguments);
    if (!isDict(params)) throw new Error(ROLL_BAD_SHAPE);
    return { toolName: call.gem.toolName, toolParams: params };
  }
  const data = pyJsonLoads(call.json);
  if (!isDict(data)) throw new Error(`Parsed JSON is not a dictionary, but ${pyTypeName(data)}`);
  const toolName = data.tool_name;
  const toolParams = Object.hasOwn(data, 'tool_params') ? data.tool_params : {};
  if (typeof toolName !== 'string' || !isDict(toolParams)) throw new Error(ROLL_BAD_SHAPE);
  return { toolName, toolParams };
}

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

