/**
 * Chat Completions' protocol rules (docs/scenario-format.md#protocol-rules): tool calls and tool
 * results pair up. Every `tool_calls` entry of an assistant message is answered by a `tool` message
 * before the next other message, and every `tool` message answers a call of the assistant message
 * before it. The real API refuses a conversation that breaks either with a 400 naming the message;
 * so does the mock, unless its rules are off.
 */
import type { CanonicalMessage, ProtocolViolation } from '../../scenario/canonical.ts';

/** The function-calling guide: results go back as `tool` messages, one per `tool_call_id`. */
export const FUNCTION_CALLING_DOC = 'https://developers.openai.com/api/docs/guides/function-calling';

function violation(rule: string, message: string, param: string): ProtocolViolation {
  return { rule, doc: FUNCTION_CALLING_DOC, error: { status: 400, message, type: 'invalid_request_error', param, code: null, headers: {} } };
}

const unanswered = (open: string[], at: number) =>
  violation(
    'openai.tool-calls-without-results',
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
    `messages.[${at}].role`,
  );

/**
 * The pairing rules' violations, in message order (the API reports the first).
 * @example
 *   chatToolPairing([{ role: 'tool', content: 'x', toolCallId: 'call_1' }])[0].rule // 'openai.tool-result-without-call'
 */
export function chatToolPairing(messages: readonly CanonicalMessage[]): ProtocolViolation[] {
  const found: ProtocolViolation[] = [];
  let open: string[] = [];
  let openAt = -1;
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      // The deprecated `function` role (toolName set) is not held to the pairing rule.
      if (openAt < 0 && m.toolName === undefined) {
        found.push(
          violation(
            'openai.tool-result-without-call',
            // The API's own spelling ("preceeding").
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
            `messages.[${i}].role`,
          ),
        );
      }
      open = open.filter((id) => id !== m.toolCallId);
      return;
    }
    if (open.length > 0) found.push(unanswered(open, openAt));
    openAt = m.role === 'assistant' && m.toolCalls?.length ? i : -1;
    open = openAt >= 0 ? m.toolCalls!.map((c) => c.id) : [];
  });
  if (open.length > 0) found.push(unanswered(open, openAt));
  return found;
}
