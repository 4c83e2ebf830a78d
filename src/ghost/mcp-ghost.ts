// mcpGhost(): connect to the MCP servers, adapt tools for the provider, run the loop, always clean up.
import { runLoop } from './loop.ts';
import { McpManager } from './mcp-manager.ts';
import type { GhostMessage, LLMProvider, ProviderTool } from './provider.ts';
import { createProvider, type AnyProviderOptions } from './provider-factory.ts';
import { formatIssues } from './server-config.ts';
import { buildSystemPrompt } from './system-prompt.ts';
import { ToolExecutor, type ToolInvoker } from './tool-executor.ts';
import { ToolNameMap } from './tool-names.ts';
import { GhostOptionsSchema, type GhostErrorEntry, type GhostOptions, type GhostResult, type HistoryEntry, type ResolvedGhostOptions } from './types.ts';

/**
 * Validates options; throws an error naming each bad field.
 * @example
 *   const resolved = resolveGhostOptions({ serverConfig, systemPrompt: 'Be brief', provider: 'openai', userPrompt: 'hi' }); // defaults filled in
 */
export function resolveGhostOptions(options: GhostOptions): ResolvedGhostOptions {
  const parsed = GhostOptionsSchema.safeParse(options);
  if (!parsed.success) throw new Error(`invalid mcpGhost options:\n${formatIssues('options', parsed.error)}`);
  return parsed.data;
}

function toHistory(m: GhostMessage): HistoryEntry {
  return {
    role: m.role,
    content: m.content,
    ...(m.reasoning ? { reasoning: m.reasoning } : {}),
    toolCalls: m.toolCalls?.length ? m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) : null,
    toolCallId: m.toolCallId ?? null,
  };
}

/** Reuse seams: a ready provider, or an already connected McpManager (its owner closes it; serverConfig is then ignored). */
export interface GhostInternals {
  llm?: LLMProvider;
  mcp?: McpManager;
}

/**
 * Runs one LLM tool-calling task over MCP servers and reports everything that happened.
 * Never throws for run-time problems (they are in `errors`); throws only for invalid options.
 * Every server connection, and every stdio child, is closed before it returns.
 * @example
 * const result = await mcpGhost({
 *   serverConfig: { mcpServers: { db: { command: process.execPath, args: ['fixtures/servers/sqlite.ts'] } } },
 *   provider: 'openai', apiKey: 'sk-test', systemPrompt: 'You analyse data.', userPrompt: 'How many orders?',
 * });
 * result.success; result.toolChain; result.executionMetadata.tokenUsage;
 */
export async function mcpGhost(options: GhostOptions, internals: GhostInternals = {}): Promise<GhostResult> {
  const started = performance.now();
  const opts = resolveGhostOptions(options);
  const llm =
    internals.llm ??
    createProvider({
      provider: opts.provider,
      apiKey: opts.apiKey,
      baseURL: opts.baseURL,
      fetch: opts.fetch,
      defaultModel: opts.model,
      retry: opts.retry,
      strict: opts.strict,
      headers: opts.headers,
      endpoint: opts.endpoint,
      apiVersion: opts.apiVersion,
      deployment: opts.deployment,
      region: opts.region,
      credentials: opts.credentials,
      requestHandler: opts.requestHandler as AnyProviderOptions['requestHandler'],
      ...(opts.reasoning ? { reasoning: opts.reasoning === true ? {} : opts.reasoning } : {}),
    });
  const owned = !internals.mcp;
  const mcp = internals.mcp ?? (await McpManager.connect(opts.serverConfig, { timeoutMs: opts.timeoutMs, connectTimeoutMs: opts.connectTimeoutMs, clientName: opts.namespace, signal: opts.signal }));
  try {
    return await runWith(opts, llm, mcp, mcp.failures, started);
  } catch (error) {
    // A bug or an unexpected SDK throw still yields a result, never an unhandled rejection mid-test.
    return crashed(error, mcp, started);
  } finally {
    if (owned) await mcp.close();
  }
}

function crashed(error: unknown, mcp: McpManager, started: number): GhostResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    success: false,
    finalResult: null,
    summary: `The run failed: ${message}`,
    toolChain: [],
    conversationHistory: [],
    errors: [{ iteration: 0, toolName: null, error: message, recoveryAction: null }],
    executionMetadata: {
      totalExecutionTimeMs: performance.now() - started,
      totalIterations: 0,
      toolsDiscovered: mcp.tools.length,
      serversConnected: mcp.serversConnected,
      backtrackCount: 0,
      successRate: 100,
      tokenUsage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      llmTimeMs: 0,
      toolTimeMs: 0,
      llmRetries: 0,
      stopReason: 'internal_error',
    },
  };
}

async function runWith(
  opts: ResolvedGhostOptions,
  llm: LLMProvider,
  mcp: McpManager,
  failures: McpManager['failures'],
  started: number,
): Promise<GhostResult> {
  const errors: GhostErrorEntry[] = failures.map((f) => ({
    iteration: 0,
    toolName: null,
    error: `server "${f.server}" failed to connect: ${f.error}`,
    recoveryAction: `continued without server "${f.server}"`,
  }));
  const names = new ToolNameMap(opts.provider, mcp.tools.map((t) => ({ server: t.server, tool: t.name })));
  const tools: ProviderTool[] = mcp.tools.map((t) => ({
    name: names.toProvider(t.server, t.name),
    description: t.description,
    parameters: t.inputSchema,
  }));
  const systemPrompt = buildSystemPrompt(
    opts.provider,
    opts.systemPrompt,
    mcp.tools.map((t) => ({ name: names.toProvider(t.server, t.name), original: `${t.server}.${t.name}`, description: t.description })),
    opts.namespace,
  );
  const invoker: ToolInvoker = mcp;
  const executor = new ToolExecutor(invoker, names, mcp.tools, {
    maxToolResultChars: opts.maxToolResultChars,
    maxIdenticalCalls: opts.maxIdenticalCalls,
    circuitBreakerThreshold: opts.circuitBreakerThreshold,
    stripNulls: (opts.provider === 'openai' || opts.provider === 'azure-openai') && opts.strict,
    validator: mcp.validator,
  });
  const out = await runLoop({
    llm,
    executor,
    tools,
    systemPrompt,
    userPrompt: opts.userPrompt,
    model: opts.model,
    maxIterations: opts.maxIterations,
    enableBacktracking: opts.enableBacktracking,
    conversationMemory: opts.conversationMemory,
    memoryTokenBudget: opts.memoryTokenBudget,
    maxTokens: opts.maxTokens,
    temperature: opts.temperature,
    signal: opts.signal,
  });
  const calls = out.toolChain.length;
  const ok = out.toolChain.filter((t) => t.success).length;
  return {
    success: out.success,
    finalResult: out.finalResult,
    summary: out.summary,
    toolChain: out.toolChain,
    conversationHistory: out.history.map(toHistory),
    errors: [...errors, ...out.errors],
    executionMetadata: {
      totalExecutionTimeMs: performance.now() - started,
      totalIterations: out.iterations,
      toolsDiscovered: mcp.tools.length,
      serversConnected: mcp.serversConnected,
      backtrackCount: out.backtrackCount,
      successRate: calls === 0 ? 100 : Math.round((ok / calls) * 10_000) / 100,
      tokenUsage: out.usage,
      llmTimeMs: out.llmTimeMs,
      toolTimeMs: out.toolTimeMs,
      llmRetries: out.llmRetries,
      stopReason: out.stopReason,
    },
  };
}
