// mcpGhost's options (zod, validated on entry) and result shape (the seed's fields, camelCase).
import { z } from 'zod';
import type { TokenUsage } from './provider.ts';
import { ServerConfigSchema } from './server-config.ts';

export const GhostOptionsSchema = z.strictObject({
  /** The `.mcp.json` shape: { mcpServers: { name: { command, args, env, cwd } | { url } } }. */
  serverConfig: ServerConfigSchema,
  systemPrompt: z.string().default(''),
  provider: z.enum(['openai', 'anthropic', 'gemini', 'azure-openai', 'bedrock']),
  /** Falls back to the provider SDK's environment variable. Not used by Bedrock (see `credentials`). */
  apiKey: z.string().optional(),
  /** Azure OpenAI: the resource endpoint (else `baseURL`, else AZURE_OPENAI_ENDPOINT). */
  endpoint: z.string().optional(),
  /** Azure OpenAI: the API version (else OPENAI_API_VERSION). */
  apiVersion: z.string().optional(),
  /** Azure OpenAI: the deployment called; the default model too. */
  deployment: z.string().optional(),
  /** Bedrock: the AWS region (else AWS_REGION). */
  region: z.string().optional(),
  /** Bedrock: static AWS credentials (else the SDK's default chain). */
  credentials: z
    .strictObject({ accessKeyId: z.string().min(1), secretAccessKey: z.string().min(1), sessionToken: z.string().optional() })
    .optional(),
  /** Bedrock: the SDK's HTTP handler; in-process (MSW) mocks need `new NodeHttpHandler()` or `new FetchHttpHandler()`. */
  requestHandler: z.custom<object>((v) => typeof v === 'object' && v !== null, 'expected an HTTP handler object').optional(),
  userPrompt: z.string().min(1),
  model: z.string().optional(),
  /** Used as the MCP client name and named in the system prompt. */
  namespace: z.string().default('mcp_ghost'),
  /** Bound on each tool call (the seed's `timeout`). */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Bound on starting and initializing one server, and listing its tools. */
  connectTimeoutMs: z.number().int().positive().default(30_000),
  /** LLM turns that may call tools; one more turn without tools follows if the model still wants them. */
  maxIterations: z.number().int().min(1).default(10),
  enableBacktracking: z.boolean().default(true),
  conversationMemory: z.boolean().default(true),
  baseURL: z.string().optional(),
  fetch: z.custom<typeof fetch>((v) => typeof v === 'function', 'expected a fetch function').optional(),
  /** Extra headers on every LLM request. */
  headers: z.record(z.string(), z.string()).optional(),
  /** Aborts the run: pending LLM and tool calls are cancelled, servers closed. */
  signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, 'expected an AbortSignal').optional(),
  retry: z
    .strictObject({
      maxRetries: z.number().int().min(0).optional(),
      baseDelayMs: z.number().min(0).optional(),
      maxDelayMs: z.number().min(0).optional(),
    })
    .optional(),
  /** Tool results longer than this are truncated (with a note) before they reach the model. */
  maxToolResultChars: z.number().int().positive().default(20_000),
  /** Past this estimated size (chars/4) older turns are summarized by the model. */
  memoryTokenBudget: z.number().int().positive().default(16_000),
  /** The same call (name and arguments) is executed at most this many times in a run. */
  maxIdenticalCalls: z.number().int().min(1).default(3),
  /** Consecutive failures after which a tool is no longer called. */
  circuitBreakerThreshold: z.number().int().min(1).default(3),
  /** OpenAI: strict function schemas where the schema allows it. */
  strict: z.boolean().default(false),
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).optional(),
  /**
   * Reasoning on (`true`, or its settings): Anthropic and Bedrock thinking (`budgetTokens`, default 2048),
   * OpenAI and Azure through the Responses API (`effort`), Gemini thoughts; what each API requires is
   * passed back (thinking blocks and signatures, encrypted reasoning items, thought signatures).
   * Without a `model`, a reasoning model is picked. A set `temperature` is not sent where thinking forbids it.
   */
  reasoning: z
    .union([
      z.boolean(),
      z.strictObject({ effort: z.enum(['low', 'medium', 'high']).optional(), budgetTokens: z.number().int().min(1024).optional() }),
    ])
    .optional(),
});

export type GhostOptions = z.input<typeof GhostOptionsSchema>;
export type ResolvedGhostOptions = z.output<typeof GhostOptionsSchema>;

export interface ToolChainEntry {
  /** The LLM turn (1-based) that asked for the call. */
  iteration: number;
  /** The original MCP name, `server.tool`; the provider-facing name when the model named no known tool. */
  toolName: string;
  /** The provider-facing name the model used. */
  providerToolName: string;
  arguments: Record<string, unknown>;
  success: boolean;
  /** The tool's output: parsed JSON when the text was JSON, else the text. Never truncated here. */
  result: unknown;
  error: string | null;
  executionTimeMs: number;
  /** The text the model wrote alongside the call. */
  reasoning: string;
  /** Failed attempts of this tool since its last success (0 = first attempt). */
  retryAttempt: number;
}

export interface HistoryEntry {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant turns: the model's reasoning as it showed it (thinking, a summary, thoughts); absent when none. */
  reasoning?: string;
  toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> | null;
  toolCallId: string | null;
}

export interface GhostErrorEntry {
  /** 0 for errors before the first LLM turn (server connections). */
  iteration: number;
  toolName: string | null;
  error: string;
  recoveryAction: string | null;
}

export interface ExecutionMetadata {
  totalExecutionTimeMs: number;
  /** LLM turns made (summaries excluded). */
  totalIterations: number;
  toolsDiscovered: number;
  serversConnected: number;
  backtrackCount: number;
  /** Percentage (0–100) of tool calls that succeeded; 100 when no tool was called. */
  successRate: number;
  tokenUsage: TokenUsage;
  /** Time spent waiting for the LLM, and for tool batches (wall time). */
  llmTimeMs: number;
  toolTimeMs: number;
  /** Transient LLM errors retried. */
  llmRetries: number;
  /** Why the loop stopped. */
  stopReason: 'answered' | 'max_iterations' | 'repeated_call' | 'tool_failure' | 'llm_error' | 'aborted' | 'internal_error';
}

export interface GhostResult {
  success: boolean;
  finalResult: unknown;
  summary: string;
  toolChain: ToolChainEntry[];
  conversationHistory: HistoryEntry[];
  errors: GhostErrorEntry[];
  executionMetadata: ExecutionMetadata;
}
