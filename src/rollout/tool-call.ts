/** A `<tool_call>` found in an action: its JSON text and the action cut after it. */
export interface FoundToolCall {
  json: string;
  /** The action up to and including the first `</tool_call>`; anything the model wrote after it is dropped. */
  parsedAction: string;
}

/** A decoded tool call. */
export interface ToolCallRequest {
  toolName: string;
  toolParams: Record<string, unknown>;
}

const TOOL_CALL = /<tool_call>([\s\S]*?)<\/tool_call>/;

/**
 * Finds the first `<tool_call>...</tool_call>` in an action.
 *
 * @example
 * findToolCall('<tool_call>{"tool_name":"a"}</tool_call> extra') // { json: '{"tool_name":"a"}', parsedAction: '<tool_call>...</tool_call>' }
 */
export function findToolCall(action: string): FoundToolCall | undefined {
  const match = TOOL_CALL.exec(action);
  if (!match) return undefined;
  return { json: match[1].trim(), parsedAction: action.slice(0, match.index + match[0].length) };
}

/**
 * Decodes the JSON inside a tool call; throws a short message saying what was expected.
 *
 * @example
 * decodeToolCall('{"tool_name": "search", "tool_params": {"query": "x"}}') // { toolName: 'search', toolParams: { query: 'x' } }
 */
export function decodeToolCall(json: string): ToolCallRequest {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new Error(`the text inside <tool_call> is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const shape = 'expected {"tool_name": string, "tool_params": object}';
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${shape}, got ${describe(data)}`);
  const { tool_name: toolName, tool_params: toolParams = {} } = data as Record<string, unknown>;
  if (typeof toolName !== 'string' || toolName === '') throw new Error(`${shape}; "tool_name" is ${describe(toolName)}`);
  if (typeof toolParams !== 'object' || toolParams === null || Array.isArray(toolParams)) {
    throw new Error(`${shape}; "tool_params" is ${describe(toolParams)}`);
  }
  return { toolName, toolParams: toolParams as Record<string, unknown> };
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : `a ${typeof value}`;
}
