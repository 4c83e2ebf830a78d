// Amazon Bedrock's Converse API behind the LLMProvider interface (official `@aws-sdk/client-bedrock-runtime`, unmodified).
// The AWS SDK's types stay out of this file's public declarations: a ghost user who never uses Bedrock
// does not install it, and a type import of it in a shipped .d.ts breaks their `skipLibCheck: false` build.
import type { BedrockRuntimeClient as BedrockClient, BedrockRuntimeClientConfig, ConverseCommand as ConverseCommandClass, ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { converseTools, toConverseMessages } from './bedrock-converse.ts';
import { optionalPeer } from '../lazy/index.ts';
import {
  DEFAULT_MODELS,
  DEFAULT_REASONING_MODELS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_THINKING_BUDGET,
  finishReasonFrom,
  type Completion,
  type CompletionFinishReason,
  type CompletionOptions,
  type GhostMessage,
  type LLMProvider,
  type ProviderOptions,
  type ProviderTool,
  type ReasoningOptions,
} from './provider.ts';
import { Retrier } from './retry.ts';
const BedrockRuntimeClient = optionalPeer<typeof BedrockClient>('@aws-sdk/client-bedrock-runtime', 'BedrockRuntimeClient');
const ConverseCommand = optionalPeer<typeof ConverseCommandClass>('@aws-sdk/client-bedrock-runtime', 'ConverseCommand');

export interface BedrockProviderOptions extends Omit<ProviderOptions, 'provider' | 'apiKey' | 'fetch' | 'strict'> {
  /** Else AWS_REGION, as the SDK reads it. */
  region?: string;
  /** Static credentials (or a function resolving them); else the SDK's default chain (AWS_ACCESS_KEY_ID, profiles, roles). */
  credentials?: BedrockCredentials | (() => Promise<BedrockCredentials>);
  /**
   * The SDK's HTTP handler (an `@smithy/node-http-handler` NodeHttpHandler or `@smithy/fetch-http-handler`
   * FetchHttpHandler). The default speaks HTTP/2, which MSW cannot intercept: in-process mocks need
   * `new NodeHttpHandler()` or `new FetchHttpHandler()`; a mock's real port takes either.
   */
  requestHandler?: object;
}

/** AWS credentials as the SDK takes them. */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

const FINISH: Readonly<Record<string, CompletionFinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/**
 * The Bedrock Converse provider: any Converse model, tools as `toolSpec`s, calls as `toolUse` blocks.
 * The ghost's `baseURL` is the client's `endpoint`; SDK retries are off (the Retrier owns the policy).
 * @example
 * const llm = new BedrockProvider({ region: 'us-east-1', credentials, requestHandler: new NodeHttpHandler() });
 * const { toolCalls } = await llm.createCompletion([{ role: 'user', content: 'How many orders?' }], tools);
 */
export class BedrockProvider implements LLMProvider {
  readonly name = 'bedrock' as const;
  readonly defaultModel: string;
  private readonly client: BedrockClient;
  private readonly retrier: Retrier;
  private readonly reasoning: ReasoningOptions | undefined;

  constructor(options: BedrockProviderOptions) {
    this.reasoning = options.reasoning;
    this.defaultModel = options.defaultModel ?? (options.reasoning ? DEFAULT_REASONING_MODELS : DEFAULT_MODELS).bedrock;
    this.retrier = new Retrier('bedrock', options.retry);
    this.client = new BedrockRuntimeClient({
      maxAttempts: 1,
      ...(options.region ? { region: options.region } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.baseURL ? { endpoint: options.baseURL } : {}),
      requestHandler: (options.requestHandler ?? { requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS }) as BedrockRuntimeClientConfig['requestHandler'],
    });
    const headers = options.headers;
    if (headers && Object.keys(headers).length) {
      // Added after signing so a header such as a mock's session id is sent as given.
      this.client.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as { headers?: Record<string, string> };
          if (request.headers) Object.assign(request.headers, headers);
          return next(args);
        },
        { step: 'finalizeRequest', priority: 'low', name: 'ghostwireExtraHeaders' },
      );
    }
  }

  async createCompletion(messages: readonly GhostMessage[], tools: readonly ProviderTool[], options: CompletionOptions = {}): Promise<Completion> {
    const { system, messages: wire } = toConverseMessages(messages);
    const modelId = options.model ?? this.defaultModel;
    const budget = this.reasoning ? (this.reasoning.budgetTokens ?? DEFAULT_THINKING_BUDGET) : 0;
    // Claude's thinking on Converse: the model's own field; maxTokens must exceed the budget, temperature stays unset.
    const maxTokens = this.reasoning ? Math.max(options.maxTokens ?? 4096, budget + 1024) : options.maxTokens;
    const temperature = this.reasoning ? undefined : options.temperature;
    const input: ConverseCommandInput = {
      modelId,
      // The structural shapes are the SDK's own subset (bedrock-converse.ts).
      messages: wire as ConverseCommandInput['messages'],
      ...(system.length ? { system } : {}),
      ...(tools.length ? { toolConfig: { tools: converseTools(tools) as NonNullable<ConverseCommandInput['toolConfig']>['tools'] } } : {}),
      ...(maxTokens !== undefined || temperature !== undefined
        ? { inferenceConfig: { ...(maxTokens !== undefined ? { maxTokens } : {}), ...(temperature !== undefined ? { temperature } : {}) } }
        : {}),
      ...(this.reasoning ? { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: budget } } } : {}),
    };
    const { value: response, retries } = await this.retrier.run(
      () => this.client.send(new ConverseCommand(input), { abortSignal: options.signal }),
      options.signal,
    );
    const blocks = response.output?.message?.content ?? [];
    const text = blocks.flatMap((b) => (b.text !== undefined ? [b.text] : [])).join('');
    const toolCalls = blocks.flatMap((b) => {
      if (!b.toolUse) return [];
      const input = b.toolUse.input;
      const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      const parseError = input === undefined || input === args ? undefined : `arguments must be a JSON object, got ${Array.isArray(input) ? 'an array' : typeof input}`;
      return [{ id: b.toolUse.toolUseId ?? '', name: b.toolUse.name ?? '', arguments: args, rawArguments: JSON.stringify(input ?? {}), ...(parseError ? { parseError } : {}) }];
    });
    const usage = response.usage;
    const reasoning = blocks.flatMap((b) => (b.reasoningContent?.reasoningText?.text ? [b.reasoningContent.reasoningText.text] : [])).join('\n');
    // The blocks go back as they came when they carried reasoning (its signature, or redacted bytes).
    const native = blocks.some((b) => b.reasoningContent) ? { provider: 'bedrock' as const, items: blocks.map((b) => ({ ...b })) } : undefined;
    return {
      text,
      ...(reasoning ? { reasoning } : {}),
      ...(native ? { native } : {}),
      toolCalls,
      usage: {
        promptTokens: usage?.inputTokens ?? 0,
        completionTokens: usage?.outputTokens ?? 0,
        totalTokens: usage?.totalTokens ?? (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
      },
      finishReason: finishReasonFrom(FINISH, response.stopReason),
      // Converse does not echo the model; the id asked for is the one that answered.
      model: modelId,
      retries,
    };
  }
}
