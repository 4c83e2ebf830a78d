// Converse's wire shapes from the ghost's messages and tools. Typed structurally (the subset of the AWS
// SDK's Message, ContentBlock and Tool the ghost sends) so no shipped declaration imports the SDK: a ghost
// user who never uses Bedrock does not install it, and `skipLibCheck: false` would then fail their build.
import { keptItems, type GhostMessage, type ProviderTool } from './provider.ts';
import { normalizeSchema } from './schema-normalize.ts';

/** A Converse content block the ghost sends: text, reasoning passed back, a tool call, or a tool's result. */
export type ConverseBlock =
  | { text: string }
  | { reasoningContent: { reasoningText?: { text: string; signature?: string }; redactedContent?: Uint8Array } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: { toolUseId: string; content: Array<{ text: string }>; status: 'error' | 'success' } };

/** A Converse message: one role's turn. */
export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseBlock[];
}

/** A Converse tool: its `toolSpec`. */
export interface ConverseTool {
  toolSpec: { name: string; description: string; inputSchema: { json: unknown } };
}

/**
 * Builds Converse's `system` blocks and alternating messages: tool results and following user text share one user turn.
 * @example
 *   const { system, messages } = toConverseMessages([{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'hi' }]);
 */
export function toConverseMessages(messages: readonly GhostMessage[]): { system: Array<{ text: string }>; messages: ConverseMessage[] } {
  const system: Array<{ text: string }> = [];
  const out: ConverseMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: ConverseBlock[]): void => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push({ text: m.content });
    else if (m.role === 'user') push('user', [{ text: m.content }]);
    else if (m.role === 'tool') {
      push('user', [{ toolResult: { toolUseId: m.toolCallId ?? '', content: [{ text: m.content }], status: m.isError ? 'error' : 'success' } }]);
    } else {
      // reasoningContent goes back unchanged (signature, redacted bytes), in the answer's order.
      const native = keptBlocks(m);
      const blocks: ConverseBlock[] = native ?? (m.content ? [{ text: m.content }] : []);
      if (!native) for (const c of m.toolCalls ?? []) blocks.push({ toolUse: { toolUseId: c.id, name: c.name, input: c.arguments } });
      push('assistant', blocks.length ? blocks : [{ text: '(no content)' }]);
    }
  }
  return { system, messages: out };
}

/** A native Converse turn's blocks without the calls the loop did not run; undefined when none, or only reasoning would be left. */
function keptBlocks(m: GhostMessage): ConverseBlock[] | undefined {
  if (m.native?.provider !== 'bedrock') return undefined;
  const blocks = keptItems(m.native.items, m.toolCalls, (b) => (b as { toolUse?: { toolUseId?: string } }).toolUse?.toolUseId ?? undefined) as ConverseBlock[];
  return blocks.some((b) => !('reasoningContent' in b)) ? blocks : undefined;
}

/**
 * Tools as Converse `toolSpec`s, their schemas normalised for Bedrock.
 * @example
 *   converseTools([{ name: 'query', description: 'Run SQL', parameters: { type: 'object' } }]);
 */
export function converseTools(tools: readonly ProviderTool[]): ConverseTool[] {
  return tools.map((t) => ({
    toolSpec: { name: t.name, description: t.description || t.name, inputSchema: { json: normalizeSchema(t.parameters, 'bedrock') } },
  }));
}
