/**
 * OpenAI Responses request (`POST /v1/responses`) → canonical request. `instructions` becomes a
 * system message, `function_call` input items the assistant's tool calls, `function_call_output`
 * items tool messages (their tool name looked up from the call they answer).
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ProtocolViolation } from '../../scenario/canonical.ts';
import { forcedToolOf, responsesTextFormat } from '../openai-shared/structured.ts';
import { invalidType, missing } from '../openai-shared/invalid.ts';
import { asText, headerRecord, isObject, parseArguments, parseJsonObject, restParams, type Json } from '../common/wire-json.ts';
import type { ToolListMemo } from '../common/tool-list-memo.ts';

const ROLES: Record<string, CanonicalMessage['role']> = { user: 'user', assistant: 'assistant', system: 'system', developer: 'system' };

/** Text of a message's content: a string or parts (input_text, output_text, refusal carry text). */
function contentText(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalidType(param, 'a string or an array of content parts', content);
  const texts: string[] = [];
  content.forEach((part, i) => {
    const p = `${param}[${i}]`;
    if (!isObject(part)) throw invalidType(p, 'an object', part);
    if (typeof part.type !== 'string') throw missing(`${p}.type`);
    if (part.type === 'input_text' || part.type === 'output_text' || part.type === 'text') {
      if (typeof part.text !== 'string') throw invalidType(`${p}.text`, 'a string', part.text);
      texts.push(part.text);
    } else if (part.type === 'refusal' && typeof part.refusal === 'string') {
      texts.push(part.refusal);
    }
  });
  return texts.join('\n');
}

/** A function_call_output's `output`: a string or content parts. */
function outputText(output: unknown, param: string): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output, param);
  if (output === undefined) throw missing(param);
  return asText(output);
}

function parseInput(input: unknown, history: readonly CanonicalMessage[]): CanonicalMessage[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) throw invalidType('input', 'a string or an array of input items', input);
  const messages: CanonicalMessage[] = [];
  // Results may answer calls of an earlier turn (previous_response_id): their names come from there.
  const callNames = new Map<string, string>();
  for (const m of history) for (const c of m.toolCalls ?? []) callNames.set(c.id, c.name);
  input.forEach((item, i) => {
    const p = `input[${i}]`;
    if (!isObject(item)) throw invalidType(p, 'an object', item);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = typeof item.role === 'string' ? ROLES[item.role] : undefined;
      if (!role) {
        if (item.role === undefined) throw missing(`${p}.role`);
        throw new BadRequestError(
          `Invalid value: '${String(item.role)}'. Supported values are: 'user', 'assistant', 'system', and 'developer'.`,
          `${p}.role`,
        );
      }
      if (item.content === undefined) throw missing(`${p}.content`);
      messages.push({ role, content: contentText(item.content, `${p}.content`) });
    } else if (type === 'function_call') {
      if (typeof item.call_id !== 'string') throw missing(`${p}.call_id`);
      if (typeof item.name !== 'string') throw missing(`${p}.name`);
      if (typeof item.arguments !== 'string') throw invalidType(`${p}.arguments`, 'a string', item.arguments);
      callNames.set(item.call_id, item.name);
      const call = { id: item.call_id, name: item.name, arguments: parseArguments(item.arguments) };
      // Consecutive calls (and a preceding assistant message) form one assistant turn.
      const last = messages.at(-1);
      if (last?.role === 'assistant') (last.toolCalls ??= []).push(call);
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (type === 'function_call_output') {
      if (typeof item.call_id !== 'string') throw missing(`${p}.call_id`);
      const result: CanonicalMessage = { role: 'tool', content: outputText(item.output, `${p}.output`), toolCallId: item.call_id };
      const name = callNames.get(item.call_id);
      if (name !== undefined) result.toolName = name;
      messages.push(result);
    }
    // reasoning, item_reference, built-in tool calls: nothing to match on.
  });
  return messages;
}

function parseTools(value: unknown): CanonicalTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidType('tools', 'an array', value);
  return value.map((t: unknown, i) => {
    const p = `tools[${i}]`;
    if (!isObject(t)) throw invalidType(p, 'an object', t);
    if (typeof t.type !== 'string') throw missing(`${p}.type`);
    if (t.type !== 'function' && t.type !== 'custom') return { name: typeof t.name === 'string' ? t.name : t.type };
    if (typeof t.name !== 'string') throw missing(`${p}.name`);
    const tool: CanonicalTool = { name: t.name };
    if (typeof t.description === 'string') tool.description = t.description;
    if (t.parameters !== undefined && t.parameters !== null) tool.parameters = t.parameters;
    if (t.strict === true) tool.strict = true;
    return tool;
  });
}

/** The conversation a `previous_response_id` names, or undefined when it is unknown. */
export type ResponseHistory = (id: string) => readonly CanonicalMessage[] | undefined;

function previousTurns(body: Json, history: ResponseHistory | undefined): readonly CanonicalMessage[] {
  const id = body.previous_response_id;
  if (id === undefined || id === null) return [];
  if (typeof id !== 'string') throw invalidType('previous_response_id', 'a string', id);
  const turns = history?.(id);
  if (turns) return turns;
  throw new BadRequestError(`Previous response with id '${id}' not found.`, 'previous_response_id', { code: 'previous_response_not_found' });
}

/**
 * The model of a request that names none but a stored prompt (`{ prompt: { id: 'pmpt_…' } }`, which
 * the spec allows: the prompt carries its model). A mock cannot know that model, so the prompt id
 * stands in for it: scenarios match it with `match.model: { contains: 'pmpt_' }` or the exact id.
 */
function modelOf(body: Json): string {
  if (body.model !== undefined && body.model !== null) {
    if (typeof body.model !== 'string') throw invalidType('model', 'a string', body.model);
    return body.model;
  }
  const prompt = body.prompt;
  if (prompt === undefined || prompt === null) throw missing('model');
  if (!isObject(prompt)) throw invalidType('prompt', 'an object', prompt);
  if (prompt.id === undefined) throw missing('prompt.id');
  if (typeof prompt.id !== 'string') throw invalidType('prompt.id', 'a string', prompt.id);
  return prompt.id;
}

/**
 * Parses a `POST /v1/responses` request. With `previous_response_id`, the named response's
 * conversation (looked up through `history`) comes before this request's input; `rules` finds the
 * protocol rules the body breaks (the mock's reasoning rules, which need its state).
 * @example
 *   parseResponsesRequest(req).messages // [{ role: 'system', content: instructions }, { role: 'user', ... }]
 */
export function parseResponsesRequest(req: IncomingRequest, history?: ResponseHistory, rules?: (body: Json) => ProtocolViolation[], tools?: ToolListMemo): CanonicalRequest {
  const body: Json = parseJsonObject(req.bodyText, tools);
  const model = modelOf(body);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw invalidType('stream', 'a boolean', body.stream);
  }
  const earlier = previousTurns(body, history);
  const messages = [...earlier, ...parseInput(body.input, earlier)];
  if (body.instructions !== undefined && body.instructions !== null) {
    if (typeof body.instructions !== 'string') throw invalidType('instructions', 'a string', body.instructions);
    messages.unshift({ role: 'system', content: body.instructions });
  }
  const canonical: CanonicalRequest = {
    provider: 'openai-responses',
    path: req.path,
    model,
    stream: body.stream === true,
    messages,
    tools: parseTools(body.tools),
    headers: headerRecord(req.headers),
    params: restParams(body, ['model', 'stream', 'input', 'instructions', 'tools']),
    raw: body,
  };
  const responseFormat = responsesTextFormat(body.text);
  if (responseFormat) canonical.responseFormat = responseFormat;
  const forcedTool = forcedToolOf(body.tool_choice);
  if (forcedTool !== undefined) canonical.forcedTool = forcedTool;
  const violations = rules?.(body) ?? [];
  if (violations.length > 0) canonical.violations = violations;
  return canonical;
}
