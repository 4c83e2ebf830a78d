// OpenAI chat completions behind the LLMProvider interface (official `openai` SDK, unmodified).
import type { default as OpenAIClient } from 'openai';
import { optionalPeer } from '../lazy/index.ts';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import {
  DEFAULT_MODELS,
  DEFAULT_REASONING_MODELS,
  finishReasonFrom,
  parseArguments,
  sdkClientOptions,
  type Completion,
  type CompletionFinishReason,
  type CompletionOptions,
  type GhostMessage,
  type LLMProvider,
  type ProviderOptions,
  type ProviderTool,
  type ReasoningOptions,
} from './provider.ts';
import { fromResponse, responsesBody } from './openai-responses-wire.ts';
import { Retrier } from './retry.ts';
import { normalizeSchema, strictCompatible } from './schema-normalize.ts';
type OpenAI = OpenAIClient;
const OpenAI = optionalPeer<typeof OpenAIClient>('openai', 'default');

function toWire(message: GhostMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content || null,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.rawArguments || JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      };
  }
}

const FINISH: Readonly<Record<string, CompletionFinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

/**
 * The OpenAI provider: Chat Completions, or with reasoning on the Responses API, stateless, passing
 * each reasoning item back (encrypted) with the calls it led to.
 * @example
 * const llm = new OpenAIProvider({ provider: 'openai', apiKey: 'sk-test', baseURL: server.url + '/v1' });
 */
export class OpenAIProvider implements LLMProvider {
  readonly name: 'openai' | 'azure-openai';
  readonly defaultModel: string;
  private readonly client: OpenAI;
  private readonly retrier: Retrier;
  private readonly strict: boolean;
  private readonly reasoning: ReasoningOptions | undefined;

  /** `makeClient`: another client of the same wire over the same options (Azure's `AzureOpenAI`). */
  constructor(options: ProviderOptions, makeClient: (clientOptions: ReturnType<typeof sdkClientOptions>) => OpenAI = (o) => new OpenAI(o)) {
    this.name = options.provider === 'azure-openai' ? 'azure-openai' : 'openai';
    this.reasoning = options.reasoning;
    this.defaultModel = options.defaultModel ?? (options.reasoning ? DEFAULT_REASONING_MODELS : DEFAULT_MODELS)[this.name];
    this.retrier = new Retrier(this.name, options.retry, options.fetch);
    this.strict = options.strict ?? false;
    this.client = makeClient(sdkClientOptions(options, this.retrier.fetch));
  }

  tools(tools: readonly ProviderTool[]): ChatCompletionTool[] {
    return tools.map((t) => {
      const strict = this.strict && strictCompatible(t.parameters);
      return {
        type: 'function',
        function: {
          name: t.name,
          description: t.description,
          parameters: normalizeSchema(t.parameters, 'openai', { strict }),
          ...(strict ? { strict: true } : {}),
        },
      };
    });
  }

  async createCompletion(messages: readonly GhostMessage[], tools: readonly ProviderTool[], options: CompletionOptions = {}): Promise<Completion> {
    if (this.reasoning) {
      const request = responsesBody(options.model ?? this.defaultModel, messages, tools, this.reasoning, { strict: this.strict, maxTokens: options.maxTokens });
      const { value: response, retries } = await this.retrier.run(() => this.client.responses.create(request, { signal: options.signal }), options.signal);
      return fromResponse(response, this.name, retries);
    }
    const body = {
      model: options.model ?? this.defaultModel,
      messages: messages.map(toWire),
      ...(tools.length ? { tools: this.tools(tools) } : {}),
      ...(options.maxTokens !== undefined ? { max_completion_tokens: options.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
    const { value: response, retries } = await this.retrier.run(
      () => this.client.chat.completions.create(body, { signal: options.signal }),
      options.signal,
    );
    const choice = response.choices[0];
    const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, name: call.function.name, ...parseArguments(call.function.arguments) }] : [],
    );
    const usage = response.usage;
    return {
      text: choice?.message.content ?? '',
      toolCalls,
      usage: {
        promptTokens: usage?.prompt_tokens ?? 0,
        completionTokens: usage?.completion_tokens ?? 0,
        totalTokens: usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
      },
      finishReason: finishReasonFrom(FINISH, choice?.finish_reason),
      model: response.model,
      retries,
    };
  }
}
