/**
 * Bedrock Converse requests → canonical: `messages` of content blocks (`text`, `toolUse`,
 * `toolResult`), `system` blocks, `toolConfig.tools[].toolSpec` with `inputSchema.json`, and the
 * model id from the path (`/model/{modelId}/converse[-stream]`, URL-encoded, ARNs included).
 */
import { BadRequestError, type IncomingRequest } from '../adapter.ts';
import { asText, headerRecord, isObject, parseJsonObject, restParams, typeName, type Json } from '../common/wire-json.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool } from '../../scenario/canonical.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { converseResponseFormat, converseThinking, converseViolations } from './converse-reasoning.ts';

/** Bedrock's validation wording: `1 validation error detected: Value at 'field' failed to satisfy constraint: …`. */
export const validation = (field: string, constraint: string): BadRequestError =>
  new BadRequestError(`1 validation error detected: Value at '${field}' failed to satisfy constraint: ${constraint}`, field);

/** The text of a block list: `text` blocks, tool results' `text`/`json` parts. */
function blocksText(blocks: unknown[], at: string): string {
  return blocks
    .map((b, i) => {
      if (!isObject(b)) throw validation(`${at}.${i + 1}.member`, `Member must be an object, got ${typeName(b)}`);
      if (typeof b.text === 'string') return b.text;
      if (b.json !== undefined) return asText(b.json);
      return '';
    })
    .join('');
}

function message(m: unknown, i: number): CanonicalMessage[] {
  const at = `messages.${i + 1}.member`;
  if (!isObject(m)) throw validation(at, `Member must be an object, got ${typeName(m)}`);
  if (m.role !== 'user' && m.role !== 'assistant') throw validation(`${at}.role`, 'Member must satisfy enum value set: [user, assistant]');
  if (!Array.isArray(m.content)) throw validation(`${at}.content`, 'Member must not be null');
  const out: CanonicalMessage[] = [];
  const text: string[] = [];
  const calls: NonNullable<CanonicalMessage['toolCalls']> = [];
  m.content.forEach((block: unknown, j) => {
    if (!isObject(block)) throw validation(`${at}.content.${j + 1}.member`, `Member must be an object, got ${typeName(block)}`);
    if (typeof block.text === 'string') text.push(block.text);
    const use = block.toolUse as Json | undefined;
    if (isObject(use)) calls.push({ id: String(use.toolUseId ?? ''), name: String(use.name ?? ''), arguments: use.input ?? {} });
    const result = block.toolResult as Json | undefined;
    if (isObject(result)) {
      const content = Array.isArray(result.content) ? blocksText(result.content, `${at}.content.${j + 1}.member.toolResult.content`) : '';
      out.push({ role: 'tool', content, toolCallId: String(result.toolUseId ?? ''), ...(result.status === 'error' ? { isError: true } : {}) });
    }
  });
  if (text.length > 0 || calls.length > 0 || out.length === 0) {
    const turn: CanonicalMessage = { role: m.role, content: text.join('\n') };
    if (calls.length > 0) turn.toolCalls = calls;
    out.unshift(turn);
  }
  return out;
}

function tools(config: unknown): CanonicalTool[] {
  if (config === undefined || config === null) return [];
  if (!isObject(config) || !Array.isArray(config.tools)) throw validation('toolConfig.tools', 'Member must not be null');
  return config.tools.map((t: unknown, i) => {
    const spec = isObject(t) ? t.toolSpec : undefined;
    if (!isObject(spec) || typeof spec.name !== 'string') throw validation(`toolConfig.tools.${i + 1}.member.toolSpec.name`, 'Member must not be null');
    const schema = isObject(spec.inputSchema) ? spec.inputSchema.json : undefined;
    return {
      name: spec.name,
      ...(typeof spec.description === 'string' ? { description: spec.description } : {}),
      parameters: schema,
      // Strict tools: Bedrock guarantees the input fits inputSchema.
      ...(spec.strict === true ? { strict: true } : {}),
    };
  });
}

/** `toolConfig.toolChoice.tool.name`: the one tool the request forces. */
function forcedTool(config: unknown): string | undefined {
  const choice = isObject(config) && isObject(config.toolChoice) ? config.toolChoice.tool : undefined;
  return isObject(choice) && typeof choice.name === 'string' ? choice.name : undefined;
}

/**
 * Parses a Converse or ConverseStream request for the model `modelId`.
 * @example
 *   parseConverse(req, 'anthropic.claude-3-haiku-20240307-v1:0', false).messages[0].role // 'user'
 */
export function parseConverse(req: IncomingRequest, modelId: string, stream: boolean, seal?: ReasoningSeal): CanonicalRequest {
  const body = parseJsonObject(req.bodyText);
  if (!Array.isArray(body.messages)) throw validation('messages', 'Member must not be null');
  const messages = body.messages.flatMap(message);
  if (body.system !== undefined) {
    if (!Array.isArray(body.system)) throw validation('system', `Member must be a list, got ${typeName(body.system)}`);
    messages.unshift({ role: 'system', content: blocksText(body.system, 'system') });
  }
  const canonical: CanonicalRequest = {
    provider: 'bedrock',
    path: req.path,
    model: modelId,
    stream,
    messages,
    tools: tools(body.toolConfig),
    headers: headerRecord(req.headers),
    params: restParams(body, ['messages', 'system', 'toolConfig']),
    raw: body,
  };
  const responseFormat = converseResponseFormat(body);
  if (responseFormat) canonical.responseFormat = responseFormat;
  const forced = forcedTool(body.toolConfig);
  if (forced) canonical.forcedTool = forced;
  const violations = converseViolations(body.messages, modelId, converseThinking(body, modelId), seal);
  if (violations.length > 0) canonical.violations = violations;
  return canonical;
}
