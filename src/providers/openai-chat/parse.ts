/**
 * OpenAI Chat Completions request → canonical request. Validates the envelope the way the API
 * does (its 400 messages name the parameter path, e.g. `messages[2].tool_call_id`), so a client
 * bug the real API would reject is rejected here too.
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, CanonicalToolCall } from '../../scenario/canonical.ts';
import { invalidType, missing } from '../openai-shared/invalid.ts';
import { headerRecord, isObject, parseArguments, restParams } from '../common/wire-json.ts';
import { chatResponseFormat, forcedToolOf } from '../openai-shared/structured.ts';
import { chatToolPairing } from './rules.ts';
import type { ToolListMemo } from '../common/tool-list-memo.ts';

/** Text of a `content` field: a string, null, or an array of parts (text and refusal parts carry text). */
function contentText(content: unknown, param: string, nullable: boolean): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) {
    if (nullable) return '';
    throw missing(param);
  }
  if (!Array.isArray(content)) throw invalidType(param, 'a string or an array of content parts', content);
  const texts: string[] = [];
  content.forEach((part, i) => {
    const p = `${param}[${i}]`;
    if (!isObject(part)) throw invalidType(p, 'an object', part);
    if (typeof part.type !== 'string') throw missing(`${p}.type`);
    if (part.type === 'text') {
      if (typeof part.text !== 'string') throw invalidType(`${p}.text`, 'a string', part.text);
      texts.push(part.text);
    } else if (part.type === 'refusal') {
      if (typeof part.refusal === 'string') texts.push(part.refusal);
    }
    // image_url, input_audio and file parts carry no text to match on.
  });
  return texts.join('\n');
}

function parseToolCalls(value: unknown, param: string): CanonicalToolCall[] {
  if (!Array.isArray(value)) throw invalidType(param, 'an array', value);
  return value.map((call, i) => {
    const p = `${param}[${i}]`;
    if (!isObject(call)) throw invalidType(p, 'an object', call);
    if (typeof call.id !== 'string') throw missing(`${p}.id`);
    if (call.type === 'custom' && isObject(call.custom)) {
      return { id: call.id, name: String(call.custom.name ?? ''), arguments: call.custom.input ?? '' };
    }
    if (!isObject(call.function)) throw missing(`${p}.function`);
    if (typeof call.function.name !== 'string') throw missing(`${p}.function.name`);
    const args = call.function.arguments;
    if (typeof args !== 'string') throw invalidType(`${p}.function.arguments`, 'a string', args);
    return { id: call.id, name: call.function.name, arguments: parseArguments(args) };
  });
}

function keyCount(record: Record<string, unknown>): number {
  let n = 0;
  for (const _ in record) n += 1;
  return n;
}

function parseMessage(m: unknown, i: number): CanonicalMessage {
  const p = `messages[${i}]`;
  if (!isObject(m)) throw invalidType(p, 'an object', m);
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: contentText(m.content, `${p}.content`, false) };
    case 'user':
      // Already its canonical form (the usual user turn): the message itself, so a journal keeps one
      // object where the parsed body and the canonical messages would each hold their own.
      if (typeof m.content === 'string' && keyCount(m) === 2) return m as unknown as CanonicalMessage;
      return { role: 'user', content: contentText(m.content, `${p}.content`, false) };
    case 'assistant': {
      const msg: CanonicalMessage = { role: 'assistant', content: contentText(m.content, `${p}.content`, true) };
      if (m.tool_calls !== undefined && m.tool_calls !== null) msg.toolCalls = parseToolCalls(m.tool_calls, `${p}.tool_calls`);
      if (isObject(m.function_call) && typeof m.function_call.name === 'string') {
        const args = typeof m.function_call.arguments === 'string' ? parseArguments(m.function_call.arguments) : {};
        msg.toolCalls = [...(msg.toolCalls ?? []), { id: m.function_call.name, name: m.function_call.name, arguments: args }];
      }
      return msg;
    }
    case 'tool':
      if (typeof m.tool_call_id !== 'string') throw missing(`${p}.tool_call_id`);
      return { role: 'tool', content: contentText(m.content, `${p}.content`, false), toolCallId: m.tool_call_id };
    case 'function':
      // Deprecated function-calling: the result names the function, and the function name doubles as call id.
      if (typeof m.name !== 'string') throw missing(`${p}.name`);
      return { role: 'tool', content: contentText(m.content, `${p}.content`, true), toolCallId: m.name, toolName: m.name };
    case undefined:
      throw missing(`${p}.role`);
    default:
      throw new BadRequestError(
        `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `${p}.role`,
      );
  }
}

function parseTools(value: unknown, functions: unknown): CanonicalTool[] {
  const tools: CanonicalTool[] = [];
  if (value !== undefined && value !== null) {
    if (!Array.isArray(value)) throw invalidType('tools', 'an array', value);
    value.forEach((t, i) => {
      const p = `tools[${i}]`;
      if (!isObject(t)) throw invalidType(p, 'an object', t);
      if (t.type === 'function') {
        if (!isObject(t.function)) throw missing(`${p}.function`);
        if (typeof t.function.name !== 'string') throw missing(`${p}.function.name`);
        const tool: CanonicalTool = { name: t.function.name, description: t.function.description as string | undefined, parameters: t.function.parameters };
        if (t.function.strict === true) tool.strict = true;
        tools.push(tool);
      } else if (t.type === 'custom') {
        if (!isObject(t.custom) || typeof t.custom.name !== 'string') throw missing(`${p}.custom.name`);
        tools.push({ name: t.custom.name, description: t.custom.description as string | undefined, parameters: t.custom.format });
      } else {
        throw new BadRequestError(`Invalid value: '${String(t.type)}'. Supported values are: 'function' and 'custom'.`, `${p}.type`);
      }
    });
  }
  if (Array.isArray(functions)) {
    for (const f of functions) if (isObject(f) && typeof f.name === 'string') tools.push({ name: f.name, description: f.description as string | undefined, parameters: f.parameters });
  }
  return tools;
}

const CANONICAL_FIELDS = ['model', 'messages', 'tools', 'functions', 'stream'] as const;

/**
 * Parses a Chat Completions request body; throws BadRequestError naming the parameter on a bad shape.
 * With a memo, a tool list seen before is its shared, frozen value (common/tool-list-memo.ts).
 * @example
 *   const canonical = parseChatRequest(incoming); // canonical.messages, canonical.tools, ...
 */
export function parseChatRequest(req: IncomingRequest, memo?: ToolListMemo): CanonicalRequest {
  let body: unknown;
  try {
    body = memo ? memo.parse(req.bodyText) : JSON.parse(req.bodyText);
  } catch {
    throw new BadRequestError(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    );
  }
  if (!isObject(body)) throw invalidType('body', 'an object', body);
  const { model, messages, tools, functions, stream } = body;
  const params = restParams(body, CANONICAL_FIELDS);
  if (model === undefined) throw new BadRequestError('you must provide a model parameter', null);
  if (typeof model !== 'string') throw invalidType('model', 'a string', model);
  if (messages === undefined) throw missing('messages');
  if (!Array.isArray(messages)) throw invalidType('messages', 'an array', messages);
  if (messages.length === 0) throw new BadRequestError("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages');
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw invalidType('stream', 'a boolean', stream);
  if (params.stream_options !== undefined && params.stream_options !== null && stream !== true) {
    throw new BadRequestError("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  }
  if (params.n !== undefined && params.n !== null && (!Number.isInteger(params.n) || (params.n as number) < 1 || (params.n as number) > 128)) {
    throw new BadRequestError(`Invalid 'n': expected an integer between 1 and 128, but got ${JSON.stringify(params.n)} instead.`, 'n');
  }
  const parsed = messages.map(parseMessage);
  // Every message its own canonical form: the body's list is the canonical one too (one list kept, not two).
  const canonicalMessages = parsed.every((m, i) => m === messages[i]) ? (messages as CanonicalMessage[]) : parsed;
  const headers = headerRecord(req.headers);
  const canonical: CanonicalRequest = {
    provider: 'openai',
    path: req.path,
    model,
    stream: stream === true,
    messages: canonicalMessages,
    // A remembered tool list (no legacy `functions` beside it) is made canonical once, and shared.
    tools: memo && functions === undefined ? memo.derived(tools, () => parseTools(tools, functions)) : parseTools(tools, functions),
    headers,
    params,
    raw: body,
  };
  const responseFormat = chatResponseFormat(params.response_format);
  if (responseFormat) canonical.responseFormat = responseFormat;
  const forcedTool = forcedToolOf(params.tool_choice) ?? forcedToolOf(params.function_call);
  if (forcedTool !== undefined) canonical.forcedTool = forcedTool;
  const violations = chatToolPairing(canonicalMessages);
  if (violations.length > 0) canonical.violations = violations;
  return canonical;
}
