/**
 * Extended thinking on the Messages API (and Claude on Bedrock and Vertex, which take the same
 * bodies): whether a request turns thinking on, whether an answer may carry a thinking block, and
 * the protocol rules the API enforces on the conversation a request passes back.
 *
 * Rules, each as the API words its 400 (docs/scenario-format.md#protocol-rules):
 * - every `tool_use` of an assistant message answered by a `tool_result` in the next message, and
 *   no `tool_result` for an id the previous message did not issue (always);
 * - with thinking on, the assistant message that opened the tool loop in flight starts with its
 *   `thinking`/`redacted_thinking` block, and the thinking blocks of that loop carry the signatures
 *   this mock minted for their text. Earlier turns' thinking may be dropped: the API strips it.
 */
import { BadRequestError } from '../adapter.ts';
import type { CanonicalRequest, ProtocolViolation } from '../../scenario/canonical.ts';
import type { ReasoningSeal } from '../common/reasoning-seal.ts';
import { isObject, type Json } from '../common/wire-json.ts';

/** The documents the rules reproduce. */
export const EXTENDED_THINKING_DOC = 'https://platform.claude.com/docs/en/build-with-claude/extended-thinking';
export const TOOL_USE_DOC = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use';

/** What the seal signs a thinking block's text for (a Gemini thought signature is not a Claude one). */
export const THINKING_PURPOSE = 'anthropic.thinking';

/** The `thinking` request field, read: is it on, is its text shown, does Claude think between tool calls. */
export interface ThinkingMode {
  enabled: boolean;
  /** `display: 'omitted'`: the block carries an empty `thinking` and only its signature. */
  omitted: boolean;
  /** Claude thinks again after tool results: adaptive thinking, or the interleaved-thinking beta. */
  interleaved: boolean;
  /**
   * The thinking rules apply: `enabled` or `adaptive`, the modes whose rules are documented
   * (`between_tools` thinks only between tool calls, so its turns need not open with thinking).
   */
  rules: boolean;
}

/**
 * The thinking a request asks for: `{ type: 'enabled', budget_tokens }`, `{ type: 'adaptive' }`
 * (or `between_tools`) turn it on; `disabled` or no field leave it off.
 * @example
 *   thinkingMode({ thinking: { type: 'adaptive' } }, {}).interleaved // true
 */
export function thinkingMode(params: Record<string, unknown>, headers: Record<string, string>): ThinkingMode {
  const thinking = params.thinking;
  const type = isObject(thinking) ? thinking.type : undefined;
  const enabled = type === 'enabled' || type === 'adaptive' || type === 'between_tools';
  // The beta rides in a header on Anthropic's API, in the body's `anthropic_beta` on Bedrock.
  const beta = `${headers['anthropic-beta'] ?? ''},${Array.isArray(params.anthropic_beta) ? params.anthropic_beta.join(',') : ''}`;
  return {
    enabled,
    omitted: enabled && isObject(thinking) && thinking.display === 'omitted',
    // Adaptive thinking interleaves by itself; manual thinking needs the beta header (Claude 4 models).
    interleaved: enabled && (type !== 'enabled' || /interleaved-thinking/.test(beta)),
    rules: type === 'enabled' || type === 'adaptive',
  };
}

/**
 * The `thinking` field's own checks, as the API makes them: manual thinking needs an integer
 * `budget_tokens` of at least 1024, below `max_tokens`.
 * @example
 *   checkThinkingConfig({ max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 2048 } }) // throws: `max_tokens` must be greater than `thinking.budget_tokens`.
 */
export function checkThinkingConfig(body: Json): void {
  const thinking = body.thinking;
  if (!isObject(thinking) || thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  const at = 'thinking.enabled.budget_tokens';
  if (budget === undefined) throw new BadRequestError(`${at}: Field required`, at);
  if (typeof budget !== 'number' || !Number.isInteger(budget)) throw new BadRequestError(`${at}: Input should be a valid integer`, at);
  if (budget < 1024) throw new BadRequestError(`${at}: Input should be greater than or equal to 1024`, at);
  if (typeof body.max_tokens === 'number' && body.max_tokens <= budget) throw new BadRequestError('`max_tokens` must be greater than `thinking.budget_tokens`.', 'max_tokens');
}

const blocksOf = (m: Json): Json[] => (Array.isArray(m.content) ? m.content.filter(isObject) : [{ type: 'text', text: m.content }]);
const isToolResultTurn = (m: Json | undefined): boolean => m?.role === 'user' && blocksOf(m).some((b) => b.type === 'tool_result');

/**
 * Index of the assistant message that opened the tool loop the conversation ends in (the last
 * message a user turn of `tool_result`s), or -1 when it does not end in one.
 */
function loopStart(messages: Json[]): number {
  let end = messages.length - 1;
  if (!isToolResultTurn(messages[end])) return -1;
  let start = -1;
  while (end >= 1 && messages[end - 1]?.role === 'assistant' && isToolResultTurn(messages[end])) {
    start = end - 1;
    // The loop goes on back through user messages made only of tool results.
    const before = messages[start - 1];
    if (!before || !isToolResultTurn(before) || blocksOf(before).some((b) => b.type !== 'tool_result')) break;
    end = start - 1;
  }
  return start;
}

/**
 * Is the request a continuation of a tool loop (its last message a user turn of tool results)? Then
 * Claude thinks again only when thinking is interleaved.
 */
export function continuesToolLoop(request: CanonicalRequest): boolean {
  const messages = isObject(request.raw) && Array.isArray(request.raw.messages) ? request.raw.messages.filter(isObject) : [];
  return loopStart(messages) >= 0;
}

function violation(rule: string, doc: string, message: string): ProtocolViolation {
  return { rule, doc, error: { status: 400, type: 'invalid_request_error', message, headers: {} } };
}

const idsOf = (blocks: Json[], types: readonly string[], field: string): string[] => blocks.filter((b) => types.includes(String(b.type))).map((b) => String(b[field]));

/** Client tool uses, which the next message must answer (server tools' results come in the assistant message itself). */
const CLIENT_USES = ['tool_use'];
/** Ids a tool_result may answer: any tool use of the previous message (leniently, server tools' too). */
const ANY_USES = ['tool_use', 'server_tool_use', 'mcp_tool_use'];

/** Rule 3: tool uses answered in the next message, tool results answering the previous one. */
function toolPairing(messages: Json[]): ProtocolViolation[] {
  const out: ProtocolViolation[] = [];
  messages.forEach((m, i) => {
    const blocks = blocksOf(m);
    if (m.role === 'assistant') {
      const next = messages[i + 1];
      // An assistant message last (a prefill) has no next message to answer it: the API takes it. Consecutive
      // messages of one role are merged into one turn by the API: leave those to it (never stricter).
      if (!next || next.role === 'assistant') return;
      const answered = new Set(next.role === 'user' ? idsOf(blocksOf(next), ['tool_result'], 'tool_use_id') : []);
      const missing = idsOf(blocks, CLIENT_USES, 'id').filter((id) => !answered.has(id));
      if (missing.length === 0) return;
      out.push(
        violation(
          'anthropic.tool-use-without-result',
          TOOL_USE_DOC,
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
            'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
        ),
      );
    } else if (m.role === 'user' && Array.isArray(m.content)) {
      const prev = messages[i - 1];
      if (prev?.role === 'user') return;
      const issued = new Set(prev?.role === 'assistant' ? idsOf(blocksOf(prev), ANY_USES, 'id') : []);
      m.content.forEach((b, j) => {
        if (!isObject(b) || b.type !== 'tool_result' || issued.has(String(b.tool_use_id))) return;
        out.push(
          violation(
            'anthropic.tool-result-without-use',
            TOOL_USE_DOC,
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. ` +
              'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
          ),
        );
      });
    }
  });
  return out;
}

/** Rule 4: with thinking on, the tool loop in flight keeps its (unaltered) thinking. */
function thinkingRules(messages: Json[], seal: ReasoningSeal | undefined): ProtocolViolation[] {
  const start = loopStart(messages);
  if (start < 0) return [];
  const out: ProtocolViolation[] = [];
  const first = blocksOf(messages[start])[0];
  const type = typeof first?.type === 'string' ? first.type : 'text';
  if (type !== 'thinking' && type !== 'redacted_thinking') {
    out.push(
      violation(
        'anthropic.thinking-block-first',
        EXTENDED_THINKING_DOC,
        `messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${type}\`. ` +
          'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
          'We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. ' +
          'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
      ),
    );
  }
  if (!seal) return out;
  for (let i = start; i < messages.length; i += 1) {
    if (messages[i].role !== 'assistant') continue;
    blocksOf(messages[i]).forEach((b, j) => {
      if (b.type === 'thinking' && !seal.verify(THINKING_PURPOSE, String(b.thinking ?? ''), b.signature)) {
        out.push(violation('anthropic.thinking-signature', EXTENDED_THINKING_DOC, `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`));
      }
      // Redacted thinking is this mock's own encryption: data it cannot open was altered (the API's words, as
      // reported from production: "messages.23.content.2: Invalid `data` in `redacted_thinking` block").
      if (b.type === 'redacted_thinking' && seal.open(b.data) === null) {
        out.push(violation('anthropic.redacted-thinking-data', EXTENDED_THINKING_DOC, `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`));
      }
    });
  }
  return out;
}

/**
 * The protocol rules `messages` (the request's, as sent) break, in the API's own words.
 * @example
 *   anthropicViolations([{ role: 'user', content: 'hi' }], thinkingMode({}, {}), seal) // []
 */
export function anthropicViolations(messages: unknown, mode: ThinkingMode, seal: ReasoningSeal | undefined, params: Record<string, unknown> = {}): ProtocolViolation[] {
  const list = Array.isArray(messages) ? messages.filter(isObject) : [];
  return [...forcedToolRule(params), ...toolPairing(list), ...(mode.rules ? thinkingRules(list, seal) : [])];
}

/**
 * Manual thinking (`type: 'enabled'`) with a `tool_choice` that forces tool use (`tool` or `any`) is
 * refused; adaptive thinking with a forced tool is left alone (newer models take it).
 */
function forcedToolRule(params: Record<string, unknown>): ProtocolViolation[] {
  const thinking = params.thinking;
  const choice = params.tool_choice;
  if (!isObject(thinking) || thinking.type !== 'enabled' || !isObject(choice) || (choice.type !== 'tool' && choice.type !== 'any')) return [];
  return [violation('anthropic.thinking-forced-tool', EXTENDED_THINKING_DOC, 'Thinking may not be enabled when tool_choice forces tool use.')];
}
