/**
 * Reasoning and structured outputs on Converse/ConverseStream: `reasoningContent` blocks
 * (`reasoningText` with a signature, or `redactedContent` bytes), which Claude returns when
 * `additionalModelRequestFields.thinking` turns thinking on and reasoning models (DeepSeek-R1,
 * gpt-oss) return always; `outputConfig.textFormat` (a JSON Schema as a string); and the protocol
 * rules Converse enforces on the conversation: each `toolUse` answered by a `toolResult` in the next
 * message, no more results than the previous turn's uses, and, for Claude with thinking on, the
 * Messages API's thinking rules as the model reports them.
 */
import type { CanonicalRequest, ProtocolViolation } from '../../scenario/canonical.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { isObject, type Json } from '../common/wire-json.ts';
import { EXTENDED_THINKING_DOC, THINKING_PURPOSE, thinkingMode, type ThinkingMode } from '../anthropic/thinking.ts';
import { validation } from './converse-parse.ts';

export const CONVERSE_TOOL_USE_DOC = 'https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html';
export const BEDROCK_THINKING_DOC = 'https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html';

/** Claude models on Bedrock (`anthropic.claude-…`, inference profiles `us.anthropic.…`, ARNs naming them). */
export const isClaude = (modelId: string): boolean => /anthropic\.|claude/i.test(modelId);

/**
 * The thinking a Converse request asks for: Claude's `additionalModelRequestFields.thinking`; other
 * reasoning models reason without being asked.
 * @example
 *   converseThinking({ additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } } }, 'anthropic.claude-sonnet-4-5-20250929-v1:0').enabled // true
 */
export function converseThinking(body: Json, modelId: string): ThinkingMode {
  if (!isClaude(modelId)) return { enabled: true, omitted: false, interleaved: true, rules: false };
  return thinkingMode(isObject(body.additionalModelRequestFields) ? body.additionalModelRequestFields : {}, {});
}

/** The thinking mode of a parsed Converse request (kept in its params). */
export const requestThinking = (request: CanonicalRequest): ThinkingMode => converseThinking(isObject(request.raw) ? request.raw : {}, request.model);

/**
 * `outputConfig.textFormat` → the canonical response format (its schema arrives as a JSON string).
 * @example
 *   converseResponseFormat({ outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type":"object"}', name: 'x' } } } } })
 *   // { name: 'x', schema: { type: 'object' } }
 */
export function converseResponseFormat(body: Json): CanonicalRequest['responseFormat'] {
  const format = isObject(body.outputConfig) ? body.outputConfig.textFormat : undefined;
  if (format === undefined || format === null) return undefined;
  const at = 'outputConfig.textFormat';
  if (!isObject(format)) throw validation(at, 'Member must be a structure');
  if (format.type !== 'json_schema') throw validation(`${at}.type`, 'Member must satisfy enum value set: [json_schema]');
  const definition = isObject(format.structure) ? format.structure.jsonSchema : undefined;
  if (!isObject(definition) || typeof definition.schema !== 'string') throw validation(`${at}.structure.jsonSchema.schema`, 'Member must not be null');
  let schema: unknown;
  try {
    schema = JSON.parse(definition.schema);
  } catch {
    throw validation(`${at}.structure.jsonSchema.schema`, 'Member must be a JSON Schema document (a JSON string)');
  }
  return { name: typeof definition.name === 'string' ? definition.name : null, schema };
}

function violation(rule: string, doc: string, message: string): ProtocolViolation {
  return { rule, doc, error: { status: 400, type: 'ValidationException', message, headers: {} } };
}

const contentOf = (m: Json): Json[] => (Array.isArray(m.content) ? m.content.filter(isObject) : []);
const uses = (m: Json | undefined): string[] => (m?.role === 'assistant' ? contentOf(m).flatMap((b) => (isObject(b.toolUse) ? [String(b.toolUse.toolUseId)] : [])) : []);
const results = (m: Json | undefined): string[] => (m?.role === 'user' ? contentOf(m).flatMap((b) => (isObject(b.toolResult) ? [String(b.toolResult.toolUseId)] : [])) : []);

/** Rule 6: tool uses answered in the next message; no more results than the previous turn's uses. */
function toolPairing(messages: Json[]): ProtocolViolation[] {
  const out: ProtocolViolation[] = [];
  messages.forEach((m, i) => {
    const next = messages[i + 1];
    if (m.role === 'assistant' && next) {
      const answered = new Set(results(next));
      const missing = uses(m).filter((id) => !answered.has(id));
      if (missing.length > 0) {
        out.push(violation('bedrock.tool-use-without-result', CONVERSE_TOOL_USE_DOC, `Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${missing.join(', ')}`));
      }
    }
    if (results(m).length > uses(messages[i - 1]).length) {
      out.push(
        violation(
          'bedrock.tool-result-without-use',
          CONVERSE_TOOL_USE_DOC,
          `The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`,
        ),
      );
    }
  });
  return out;
}

/** The Messages API's name for a Converse block (what Claude sees). */
const blockType = (b: Json | undefined): string => {
  if (!b) return 'text';
  if (isObject(b.reasoningContent)) return b.reasoningContent.redactedContent !== undefined ? 'redacted_thinking' : 'thinking';
  if (b.toolUse) return 'tool_use';
  if (b.toolResult) return 'tool_result';
  return 'text';
};

/** The assistant message that opened the tool loop the conversation ends in, or -1. */
function loopStart(messages: Json[]): number {
  let end = messages.length - 1;
  let start = -1;
  while (end >= 1 && results(messages[end]).length > 0 && messages[end - 1].role === 'assistant') {
    start = end - 1;
    const before = messages[start - 1];
    if (!before || results(before).length === 0 || contentOf(before).some((b) => !b.toolResult)) break;
    end = start - 1;
  }
  return start;
}

/** Claude's thinking rules (the Messages API's), as Converse reports the model's error. */
function thinkingRules(messages: Json[], seal: ReasoningSeal): ProtocolViolation[] {
  const start = loopStart(messages);
  if (start < 0) return [];
  const out: ProtocolViolation[] = [];
  const prefix = 'The model returned the following errors: ';
  const type = blockType(contentOf(messages[start])[0]);
  if (type !== 'thinking' && type !== 'redacted_thinking') {
    out.push(
      violation(
        'bedrock.thinking-block-first',
        BEDROCK_THINKING_DOC,
        `${prefix}messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${type}\`. ` +
          'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
          'We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. ' +
          `Please consult our documentation at ${EXTENDED_THINKING_DOC.replace('platform.claude.com/docs/en', 'docs.claude.com/en/docs')}`,
      ),
    );
  }
  for (let i = start; i < messages.length; i += 1) {
    if (messages[i].role !== 'assistant') continue;
    contentOf(messages[i]).forEach((b, j) => {
      const reasoning = isObject(b.reasoningContent) ? b.reasoningContent : null;
      // Redacted reasoning is Claude's redacted_thinking: content this mock's seal cannot open was altered (the Messages API's words).
      if (reasoning?.redactedContent !== undefined && seal.open(reasoning.redactedContent) === null) {
        out.push(violation('bedrock.redacted-thinking-data', BEDROCK_THINKING_DOC, `${prefix}messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`));
      }
      const text = reasoning && isObject(reasoning.reasoningText) ? reasoning.reasoningText : null;
      if (!text || seal.verify(THINKING_PURPOSE, String(text.text ?? ''), text.signature)) return;
      out.push(violation('bedrock.thinking-signature', BEDROCK_THINKING_DOC, `${prefix}messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`));
    });
  }
  return out;
}

/**
 * The protocol rules a Converse request's `messages` break.
 * @example
 *   converseViolations(body.messages, 'anthropic.claude-sonnet-4-5-20250929-v1:0', mode, seal) // [] for a well-formed loop
 */
export function converseViolations(messages: unknown, modelId: string, mode: ThinkingMode, seal: ReasoningSeal | undefined): ProtocolViolation[] {
  const list = Array.isArray(messages) ? messages.filter(isObject) : [];
  const claudeThinking = isClaude(modelId) && mode.rules && seal !== undefined;
  return [...toolPairing(list), ...(claudeThinking ? thinkingRules(list, seal) : [])];
}
