// Anthropic messages behind the LLMProvider interface (official `@anthropic-ai/sdk`, unmodified).
import type { default as AnthropicClient } from '@anthropic-ai/sdk';
import { optionalPeer } from '../lazy/index.ts';
import type { ContentBlock, ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import {
  DEFAULT_MODELS,
  DEFAULT_REASONING_MODELS,
  DEFAULT_THINKING_BUDGET,
  finishReasonFrom,
  keptItems,
  sdkClientOptions,
  type Completion,
  type CompletionFinishReason,
  type CompletionOptions,
  type GhostMessage,
  type LLMProvider,
  type NativeTurn,
  type ProviderOptions,
  type ProviderTool,
  type ReasoningOptions,
} from './provider.ts';
import { Retrier } from './retry.ts';
import { normalizeSchema } from './schema-normalize.ts';
type Anthropic = AnthropicClient;
const Anthropic = optionalPeer<typeof AnthropicClient>('@anthropic-ai/sdk', 'default');

/**
 * Builds Anthropic's `system` and alternating messages: tool results and following user text share one user turn.
 * @example
 *   const { system, messages } = toAnthropicMessages([{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'hi' }]);
 */
export function toAnthropicMessages(messages: readonly GhostMessage[]): { system: string; messages: MessageParam[] } {
  const system: string[] = [];
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') push('user', [{ type: 'text', text: m.content }]);
    else if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content, ...(m.isError ? { is_error: true } : {}) }]);
    } else {
      // Thinking blocks go back unchanged, signatures included, in the answer's order (the API checks them).
      const native = said(m);
      const blocks: ContentBlockParam[] = native ?? (m.content ? [{ type: 'text', text: m.content }] : []);
      if (!native) for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      push('assistant', blocks.length ? blocks : [{ type: 'text', text: '(no content)' }]);
    }
  }
  return { system: system.join('\n\n'), messages: out };
}

/** A native Anthropic turn's blocks without the calls the loop did not run; undefined when none, or only thinking would be left. */
function said(m: GhostMessage): ContentBlockParam[] | undefined {
  if (m.native?.provider !== 'anthropic') return undefined;
  const blocks = keptItems(m.native.items, m.toolCalls, (b) => ((b as ContentBlockParam).type === 'tool_use' ? (b as { id: string }).id : undefined)) as ContentBlockParam[];
  return blocks.some((b) => b.type === 'text' || b.type === 'tool_use') ? blocks : undefined;
}

/**
 * An answer's blocks as request params, when it carried thinking: what the next request must pass back.
 * @example nativeTurn(response.content)?.items[0] // { type: 'thinking', thinking: '…', signature: '…' }
 */
export function nativeTurn(content: readonly ContentBlock[]): NativeTurn | undefined {
  if (!content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) return undefined;
  const items: ContentBlockParam[] = content.flatMap((b): ContentBlockParam[] => {
    if (b.type === 'thinking') return [{ type: 'thinking', thinking: b.thinking, signature: b.signature }];
    if (b.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: b.data }];
    if (b.type === 'text') return [{ type: 'text', text: b.text }];
    if (b.type === 'tool_use') return [{ type: 'tool_use', id: b.id, name: b.name, input: b.input }];
    return [];
  });
  return { provider: 'anthropic', items };
}

const FINISH: Readonly<Record<string, CompletionFinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

/**
 * The Anthropic messages provider.
 * @example
 * const llm = new AnthropicProvider({ provider: 'anthropic', apiKey: 'sk-ant-test', baseURL: server.url });
 */
export class AnthropicProvider implements LLMProvider {
  readonly name = 'anthropic' as const;
  readonly defaultModel: string;
  private readonly client: Anthropic;
  private readonly retrier: Retrier;
  private readonly reasoning: ReasoningOptions | undefined;

  constructor(options: ProviderOptions) {
    this.reasoning = options.reasoning;
    this.defaultModel = options.defaultModel ?? (options.reasoning ? DEFAULT_REASONING_MODELS : DEFAULT_MODELS).anthropic;
    this.retrier = new Retrier('anthropic', options.retry, options.fetch);
    this.client = new Anthropic(sdkClientOptions(options, this.retrier.fetch));
  }

  tools(tools: readonly ProviderTool[]): Tool[] {
    return tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: normalizeSchema(t.parameters, 'anthropic') as Tool['input_schema'],
    }));
  }

  async createCompletion(messages: readonly GhostMessage[], tools: readonly ProviderTool[], options: CompletionOptions = {}): Promise<Completion> {
    const wire = toAnthropicMessages(messages);
    const budget = this.reasoning ? (this.reasoning.budgetTokens ?? DEFAULT_THINKING_BUDGET) : 0;
    const body = {
      model: options.model ?? this.defaultModel,
      // Thinking tokens count toward max_tokens, which must exceed the budget.
      max_tokens: this.reasoning ? Math.max(options.maxTokens ?? 4096, budget + 1024) : (options.maxTokens ?? 4096),
      messages: wire.messages,
      ...(wire.system ? { system: wire.system } : {}),
      ...(tools.length ? { tools: this.tools(tools) } : {}),
      // Thinking is not compatible with a changed temperature (the API refuses it).
      ...(options.temperature !== undefined && !this.reasoning ? { temperature: options.temperature } : {}),
      ...(this.reasoning ? { thinking: { type: 'enabled' as const, budget_tokens: budget } } : {}),
    };
    const { value: response, retries } = await this.retrier.run(
      () => this.client.messages.create(body, { signal: options.signal }),
      options.signal,
    );
    const text = response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const toolCalls = response.content.flatMap((b) =>
      b.type === 'tool_use'
        ? [{ id: b.id, name: b.name, arguments: (b.input ?? {}) as Record<string, unknown>, rawArguments: JSON.stringify(b.input ?? {}) }]
        : [],
    );
    const u = response.usage;
    const prompt = (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0);
    const completion = u?.output_tokens ?? 0;
    const reasoning = response.content.flatMap((b) => (b.type === 'thinking' && b.thinking ? [b.thinking] : [])).join('\n');
    const native = nativeTurn(response.content);
    return {
      text,
      ...(reasoning ? { reasoning } : {}),
      ...(native ? { native } : {}),
      toolCalls,
      usage: { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion },
      finishReason: finishReasonFrom(FINISH, response.stop_reason),
      model: response.model,
      retries,
    };
  }
}
