// ghostwire/ghost: mcpGhost() and the reusable pieces under it (providers, MCP manager, name and schema adaptation).
export { mcpGhost, resolveGhostOptions } from './mcp-ghost.ts';
export type { GhostInternals } from './mcp-ghost.ts';
export { GhostOptionsSchema } from './types.ts';
export type {
  GhostOptions,
  GhostResult,
  ToolChainEntry,
  HistoryEntry,
  GhostErrorEntry,
  ExecutionMetadata,
  ResolvedGhostOptions,
} from './types.ts';
export { createProvider, type AnyProviderOptions } from './provider-factory.ts';
export { OpenAIProvider } from './provider-openai.ts';
export { AzureOpenAIProvider, type AzureOpenAIProviderOptions } from './provider-azure-openai.ts';
export { AnthropicProvider, toAnthropicMessages } from './provider-anthropic.ts';
export { GeminiProvider, toGeminiContents } from './provider-gemini.ts';
export { BedrockProvider, type BedrockCredentials, type BedrockProviderOptions } from './provider-bedrock.ts';
export { toConverseMessages, type ConverseBlock, type ConverseMessage } from './bedrock-converse.ts';
export { DEFAULT_MODELS, DEFAULT_REASONING_MODELS, DEFAULT_THINKING_BUDGET, parseArguments } from './provider.ts';
export { toResponsesInput, responsesBody } from './openai-responses-wire.ts';
export type {
  LLMProvider,
  ProviderOptions,
  ProviderTool,
  GhostMessage,
  GhostToolCall,
  Completion,
  CompletionOptions,
  CompletionFinishReason,
  TokenUsage,
  NativeTurn,
  ReasoningOptions,
} from './provider.ts';
export { Retrier, ProviderError, isRetryableStatus, retryAfterMs } from './retry.ts';
export type { RetryPolicy } from './retry.ts';
export { McpManager, renderToolResult } from './mcp-manager.ts';
export type { DiscoveredTool, ServerFailure, ToolOutcome, McpManagerOptions } from './mcp-manager.ts';
export { ServerConfigSchema, parseServerConfig } from './server-config.ts';
export type { ServerConfig, ServerConfigInput, ServerEntry, StdioServerEntry, HttpServerEntry } from './server-config.ts';
export { ToolNameMap, candidateName, NAME_RULES, MAX_TOOL_NAME } from './tool-names.ts';
export type { ProviderName, ToolRef, NameCollision } from './tool-names.ts';
export { normalizeSchema, strictCompatible, dropNullOptionals } from './schema-normalize.ts';
export { buildSystemPrompt } from './system-prompt.ts';
export type { PromptTool } from './system-prompt.ts';
export { ToolExecutor, truncateResult } from './tool-executor.ts';
export type { ToolInvoker, CallReport, CallKind, ExecutorOptions } from './tool-executor.ts';
export { ToolCircuitBreaker } from './circuit-breaker.ts';
export { runLoop, recoveryPrompt } from './loop.ts';
export type { LoopInput, LoopOutput } from './loop.ts';
export { estimateTokens, minimalWindow, compactIfNeeded, SUMMARY_PREFIX, SUMMARY_SYSTEM_PROMPT } from './memory.ts';
