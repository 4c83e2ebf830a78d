// Conversation memory: what each LLM turn gets to see, and summarizing older turns past a token budget.
import type { GhostMessage, LLMProvider, TokenUsage } from './provider.ts';

/**
 * Rough token estimate (4 characters per token plus a little per message); good enough for a budget.
 * @example
 *   estimateTokens([{ role: 'user', content: 'What is the weather?' }]) // 9
 */
export function estimateTokens(messages: readonly GhostMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length + 16;
    for (const c of m.toolCalls ?? []) chars += c.name.length + c.rawArguments.length + 16;
  }
  return Math.ceil(chars / 4);
}

/** Leading system messages plus the first user message: kept in every window. */
function headLength(messages: readonly GhostMessage[]): number {
  let i = 0;
  while (i < messages.length && messages[i].role === 'system') i++;
  if (i < messages.length && messages[i].role === 'user') i++;
  return i;
}

/** Index where the last `turns` assistant turns start (each with its tool results), or -1. */
function recentStart(messages: readonly GhostMessage[], from: number, turns: number): number {
  let found = 0;
  for (let i = messages.length - 1; i >= from; i--) {
    if (messages[i].role === 'assistant' && ++found === turns) return i;
  }
  return -1;
}

/**
 * Without memory a turn sees only what the next step needs: the prompts and the latest assistant turn
 * with its results (and any recovery note after them).
 * @example
 * const window = minimalWindow(context);
 */
export function minimalWindow(messages: readonly GhostMessage[]): GhostMessage[] {
  const head = headLength(messages);
  const start = recentStart(messages, head, 1);
  return start < 0 ? [...messages] : [...messages.slice(0, head), ...messages.slice(start)];
}

export const SUMMARY_SYSTEM_PROMPT =
  'You compress the earlier part of a tool-using conversation. Write a short factual summary of what was asked, which tools were called with which arguments, and what they returned, keeping every fact needed to continue. No preamble.';
export const SUMMARY_PREFIX = '[Summary of earlier steps]';

function transcript(messages: readonly GhostMessage[]): string {
  return messages
    .map((m) => {
      const calls = (m.toolCalls ?? []).map((c) => `\n  call ${c.name}(${c.rawArguments || JSON.stringify(c.arguments)})`).join('');
      return `${m.role}${m.toolName ? ` ${m.toolName}` : ''}: ${m.content}${calls}`;
    })
    .join('\n');
}

export interface Compaction {
  messages: GhostMessage[];
  summary: GhostMessage;
  usage: TokenUsage;
  replaced: number;
}

/**
 * Past `budget` estimated tokens, asks the model to summarize everything between the prompts and the
 * last two assistant turns, and returns the shorter context; undefined when nothing needs doing.
 * @example
 * const c = await compactIfNeeded(context, llm, 16000, { model: 'gpt-4o' });
 * if (c) context = c.messages;
 */
export async function compactIfNeeded(
  messages: readonly GhostMessage[],
  llm: LLMProvider,
  budget: number,
  options: { model?: string; signal?: AbortSignal } = {},
): Promise<Compaction | undefined> {
  if (estimateTokens(messages) <= budget) return undefined;
  const head = headLength(messages);
  const start = recentStart(messages, head, 2);
  if (start <= head) return undefined;
  const middle = messages.slice(head, start);
  const answer = await llm.createCompletion(
    [
      { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
      { role: 'user', content: transcript(middle) },
    ],
    [],
    options,
  );
  const summary: GhostMessage = { role: 'user', content: `${SUMMARY_PREFIX}\n${answer.text}` };
  return {
    messages: [...messages.slice(0, head), summary, ...messages.slice(start)],
    summary,
    usage: answer.usage,
    replaced: middle.length,
  };
}
