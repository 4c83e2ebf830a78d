/**
 * Anthropic Messages request → canonical request. Checks the envelope as the API does
 * (`max_tokens`, `messages`, `model` required; block types), naming the field path in each 400.
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, CanonicalToolCall } from '../../scenario/canonical.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { structuredOf } from './structured.ts';
import { anthropicViolations, checkThinkingConfig, thinkingMode } from './thinking.ts';
import { asText, headerRecord, isObject, parseJsonObject, restParams, typeName, type Json } from '../common/wire-json.ts';
import type { ToolListMemo } from '../common/tool-list-memo.ts';

function invalid(path: string, expected: string, got: unknown): BadRequestError {
  return new BadRequestError(`${path}: Input should be ${expected}, got ${typeName(got)}`, path);
}

function required(path: string): BadRequestError {
  return new BadRequestError(`${path}: Field required`, path);
}

/** Text of `system`: a string or an array of text blocks. */
function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) throw invalid('system', 'a valid string or a list of text blocks', system);
  return system
    .map((block, i) => {
      if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') {
        throw invalid(`system.${i}`, 'a text block ({ type: "text", text })', block);
      }
      return block.text;
    })
    .join('\n');
}

/** Text of a tool_result's `content`: a string or blocks (text blocks carry text). */
function toolResultText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(path, 'a valid string or a list of content blocks', content);
  return content
    .filter((b): b is Json => isObject(b) && b.type === 'text')
    .map((b) => asText(b.text))
    .join('\n');
}

interface ParsedContent {
  texts: string[];
  toolCalls: CanonicalToolCall[];
  results: CanonicalMessage[];
}

function parseBlocks(content: unknown, path: string, role: string, callNames: Map<string, string>): ParsedContent {
  const out: ParsedContent = { texts: [], toolCalls: [], results: [] };
  if (typeof content === 'string') {
    out.texts.push(content);
    return out;
  }
  if (!Array.isArray(content)) throw invalid(path, 'a valid string or a list of content blocks', content);
  content.forEach((block, j) => {
    const p = `${path}.${j}`;
    if (!isObject(block)) throw invalid(p, 'a content block object', block);
    if (typeof block.type !== 'string') throw required(`${p}.type`);
    switch (block.type) {
      case 'text':
        if (typeof block.text !== 'string') throw invalid(`${p}.text`, 'a valid string', block.text);
        out.texts.push(block.text);
        break;
      case 'tool_use':
      case 'server_tool_use': {
        if (role !== 'assistant') throw new BadRequestError(`${p}: tool_use blocks are only allowed in assistant messages`, p);
        if (typeof block.id !== 'string') throw required(`${p}.id`);
        if (typeof block.name !== 'string') throw required(`${p}.name`);
        callNames.set(block.id, block.name);
        out.toolCalls.push({ id: block.id, name: block.name, arguments: block.input ?? {} });
        break;
      }
      case 'tool_result': {
        if (role !== 'user') throw new BadRequestError(`${p}: tool_result blocks are only allowed in user messages`, p);
        if (typeof block.tool_use_id !== 'string') throw required(`${p}.tool_use_id`);
        const result: CanonicalMessage = {
          role: 'tool',
          content: toolResultText(block.content, `${p}.content`),
          toolCallId: block.tool_use_id,
        };
        const name = callNames.get(block.tool_use_id);
        if (name !== undefined) result.toolName = name;
        if (block.is_error === true) result.isError = true;
        out.results.push(result);
        break;
      }
      case 'thinking':
        if (typeof block.thinking !== 'string') throw block.thinking === undefined ? required(`${p}.thinking`) : invalid(`${p}.thinking`, 'a valid string', block.thinking);
        if (typeof block.signature !== 'string') throw block.signature === undefined ? required(`${p}.signature`) : invalid(`${p}.signature`, 'a valid string', block.signature);
        break;
      case 'redacted_thinking':
        if (typeof block.data !== 'string') throw block.data === undefined ? required(`${p}.data`) : invalid(`${p}.data`, 'a valid string', block.data);
        break;
      default:
        // images, documents, search results: nothing to match on as text.
        break;
    }
  });
  return out;
}

function parseMessages(value: unknown): CanonicalMessage[] {
  if (value === undefined) throw required('messages');
  if (!Array.isArray(value)) throw invalid('messages', 'a valid list', value);
  if (value.length === 0) throw new BadRequestError('messages: at least one message is required', 'messages');
  const callNames = new Map<string, string>();
  const messages: CanonicalMessage[] = [];
  value.forEach((m, i) => {
    const p = `messages.${i}`;
    if (!isObject(m)) throw invalid(p, 'a message object', m);
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') {
      throw new BadRequestError(`${p}.role: Input should be 'user', 'assistant' or 'system'`, `${p}.role`);
    }
    if (m.content === undefined) throw required(`${p}.content`);
    if (m.role === 'system') {
      messages.push({ role: 'system', content: systemText(m.content) });
      return;
    }
    const parsed = parseBlocks(m.content, `${p}.content`, m.role, callNames);
    // Results answer the previous assistant turn, so they come before the user's own text.
    messages.push(...parsed.results);
    if (m.role === 'assistant') {
      const msg: CanonicalMessage = { role: 'assistant', content: parsed.texts.join('\n') };
      if (parsed.toolCalls.length > 0) msg.toolCalls = parsed.toolCalls;
      messages.push(msg);
    } else if (parsed.texts.length > 0 || parsed.results.length === 0) {
      messages.push({ role: 'user', content: parsed.texts.join('\n') });
    }
  });
  return messages;
}

function parseTools(value: unknown): CanonicalTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid('tools', 'a valid list', value);
  return value.map((t, i) => {
    const p = `tools.${i}`;
    if (!isObject(t)) throw invalid(p, 'a tool object', t);
    if (typeof t.name !== 'string') throw required(`${p}.name`);
    const isCustom = t.type === undefined || t.type === null || t.type === 'custom';
    if (isCustom && !isObject(t.input_schema)) throw required(`${p}.input_schema`);
    const tool: CanonicalTool = { name: t.name };
    if (typeof t.description === 'string') tool.description = t.description;
    if (t.input_schema !== undefined) tool.parameters = t.input_schema;
    // Strict tools: the API guarantees the model's input fits input_schema.
    if (t.strict === true) tool.strict = true;
    return tool;
  });
}

/**
 * Parses a `POST /v1/messages` request (or, with `countTokens`, a `POST /v1/messages/count_tokens`
 * one, which carries no `max_tokens` and never streams).
 * @example
 *   const canonical = parseAnthropicRequest(req); // canonical.messages[0].role === 'system' when `system` is set
 */
export function parseAnthropicRequest(req: IncomingRequest, options: { countTokens?: boolean; seal?: ReasoningSeal; tools?: ToolListMemo } = {}): CanonicalRequest {
  const body = parseJsonObject(req.bodyText, options.tools);
  if (body.model === undefined) throw required('model');
  if (typeof body.model !== 'string') throw invalid('model', 'a valid string', body.model);
  if (options.countTokens) return canonicalOf(req, body, false);
  if (body.max_tokens === undefined) throw required('max_tokens');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) {
    throw invalid('max_tokens', 'a valid integer', body.max_tokens);
  }
  if (body.max_tokens < 1) throw new BadRequestError('max_tokens: Input should be greater than or equal to 1', 'max_tokens');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw invalid('stream', 'a valid boolean', body.stream);
  checkThinkingConfig(body);
  const canonical = canonicalOf(req, body, body.stream === true);
  const mode = thinkingMode(canonical.params, canonical.headers);
  const violations = anthropicViolations(body.messages, mode, options.seal, canonical.params);
  return { ...canonical, ...structuredOf(body), ...(violations.length > 0 ? { violations } : {}) };
}

function canonicalOf(req: IncomingRequest, body: Json, stream: boolean): CanonicalRequest {
  const messages = parseMessages(body.messages);
  if (body.system !== undefined && body.system !== null) messages.unshift({ role: 'system', content: systemText(body.system) });
  return {
    provider: 'anthropic',
    path: req.path,
    model: body.model as string,
    stream,
    messages,
    tools: parseTools(body.tools),
    headers: headerRecord(req.headers),
    params: restParams(body, ['model', 'stream', 'messages', 'system', 'tools']),
    raw: body,
  };
}
