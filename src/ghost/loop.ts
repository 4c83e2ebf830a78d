// The tool-calling loop: LLM turn → tool calls (concurrent) → results → next turn, with backtracking,
// a bound on turns, repeat detection and memory management. Provider- and MCP-agnostic.
import { compactIfNeeded, minimalWindow } from './memory.ts';
import { ZERO_USAGE, type GhostMessage, type LLMProvider, type ProviderTool, type TokenUsage } from './provider.ts';
import type { CallReport, ToolExecutor } from './tool-executor.ts';
import type { ExecutionMetadata, GhostErrorEntry, ToolChainEntry } from './types.ts';

export interface LoopInput {
  llm: LLMProvider;
  executor: ToolExecutor;
  tools: readonly ProviderTool[];
  systemPrompt: string;
  userPrompt: string;
  model?: string;
  maxIterations: number;
  enableBacktracking: boolean;
  conversationMemory: boolean;
  memoryTokenBudget: number;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface LoopOutput {
  success: boolean;
  finalResult: unknown;
  summary: string;
  toolChain: ToolChainEntry[];
  history: GhostMessage[];
  errors: GhostErrorEntry[];
  backtrackCount: number;
  iterations: number;
  usage: TokenUsage;
  llmTimeMs: number;
  toolTimeMs: number;
  llmRetries: number;
  stopReason: ExecutionMetadata['stopReason'];
}

/**
 * The seed's recovery prompt, with every failed call of the turn.
 * @example
 *   recoveryPrompt(failedCalls) // 'The previous approach failed. Tool fs_read failed: ENOENT. Please try ...'
 */
export function recoveryPrompt(failures: readonly CallReport[]): string {
  const context = failures.map((f) => `Tool ${f.entry.providerToolName} failed: ${f.entry.error}`).join('. ');
  return `The previous approach failed. ${context}. Please try a different approach: fix the arguments, use another tool, or break the task into smaller steps.`;
}

const FINAL_PROMPTS = {
  max_iterations: (n: number) =>
    `You have used all ${n} tool-calling turns for this run. Do not call tools. Give your final answer now from the results above, and say what is still missing.`,
  repeated_call: () =>
    'You are repeating the same tool call with the same arguments. Do not call tools. Give your final answer now from the results above, and say what is still missing.',
};

function addUsage(total: TokenUsage, more: TokenUsage): TokenUsage {
  return {
    promptTokens: total.promptTokens + more.promptTokens,
    completionTokens: total.completionTokens + more.completionTokens,
    totalTokens: total.totalTokens + more.totalTokens,
  };
}

function firstParagraph(text: string, max = 500): string {
  const para = text.trim().split(/\n\s*\n/)[0] ?? '';
  return para.length > max ? `${para.slice(0, max - 3)}...` : para;
}

function parseFinal(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return null;
  const trimmed = text.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // Not JSON after all: the text is the result.
    }
  }
  return text;
}

/**
 * Runs the loop to a final answer (or a clean stop) and reports everything that happened.
 * @example
 * const out = await runLoop({ llm, executor, tools, systemPrompt, userPrompt: 'How many orders?', maxIterations: 10,
 *   enableBacktracking: true, conversationMemory: true, memoryTokenBudget: 16000 });
 */
export async function runLoop(input: LoopInput): Promise<LoopOutput> {
  const history: GhostMessage[] = [];
  let context: GhostMessage[] = [];
  const add = (m: GhostMessage): void => {
    history.push(m);
    context.push(m);
  };
  if (input.systemPrompt) add({ role: 'system', content: input.systemPrompt });
  add({ role: 'user', content: input.userPrompt });

  const toolChain: ToolChainEntry[] = [];
  const errors: GhostErrorEntry[] = [];
  let usage = ZERO_USAGE;
  let llmTimeMs = 0;
  let toolTimeMs = 0;
  let llmRetries = 0;
  let backtrackCount = 0;
  let iterations = 0;
  let finalText: string | undefined;
  let stopReason: LoopOutput['stopReason'] | undefined;
  let forceFinal: 'max_iterations' | 'repeated_call' | undefined;
  const callOptions = { model: input.model, maxTokens: input.maxTokens, temperature: input.temperature, signal: input.signal };

  for (let iteration = 1; ; iteration++) {
    const offerTools = forceFinal === undefined && input.tools.length > 0;
    if (forceFinal) add({ role: 'user', content: FINAL_PROMPTS[forceFinal](input.maxIterations) });
    let completion;
    try {
      if (input.conversationMemory) {
        const compaction = await compactIfNeeded(context, input.llm, input.memoryTokenBudget, callOptions);
        if (compaction) {
          context = compaction.messages;
          history.push(compaction.summary);
          usage = addUsage(usage, compaction.usage);
        }
      }
      const window = input.conversationMemory ? context : minimalWindow(context);
      const started = performance.now();
      completion = await input.llm.createCompletion(window, offerTools ? input.tools : [], callOptions);
      llmTimeMs += performance.now() - started;
    } catch (error) {
      const aborted = input.signal?.aborted ?? false;
      errors.push({ iteration, toolName: null, error: error instanceof Error ? error.message : String(error), recoveryAction: null });
      stopReason = aborted ? 'aborted' : 'llm_error';
      break;
    }
    iterations = iteration;
    usage = addUsage(usage, completion.usage);
    llmRetries += completion.retries;
    const calls = offerTools ? completion.toolCalls : [];
    add({
      role: 'assistant',
      content: completion.text,
      // The reasoning (and the turn as its provider must get it back) rides with the message.
      ...(completion.reasoning ? { reasoning: completion.reasoning } : {}),
      ...(completion.native ? { native: completion.native } : {}),
      ...(calls.length ? { toolCalls: calls } : {}),
    });
    if (calls.length === 0) {
      finalText = completion.text;
      stopReason = forceFinal ?? 'answered';
      break;
    }

    const started = performance.now();
    const reports = await input.executor.runTurn(iteration, calls, completion.text, input.signal);
    toolTimeMs += performance.now() - started;
    for (const r of reports) {
      toolChain.push(r.entry);
      add(r.message);
    }

    const recoverable: CallReport[] = [];
    for (const r of reports) {
      const toolName = r.entry.toolName;
      const error = r.entry.error ?? '';
      if (r.kind === 'malformed') {
        errors.push({ iteration, toolName, error, recoveryAction: 'returned the error to the model to correct the call' });
        if (input.enableBacktracking) backtrackCount++;
      } else if (r.kind === 'repeated') {
        errors.push({ iteration, toolName, error, recoveryAction: 'skipped the repeated call and asked for a final answer without tools' });
        forceFinal = 'repeated_call';
      } else if (r.kind === 'tool_error' || r.kind === 'circuit_open') {
        if (input.enableBacktracking) {
          const action = r.kind === 'circuit_open' ? 'circuit open: call refused; ' : '';
          errors.push({ iteration, toolName, error, recoveryAction: `${action}backtracked with a recovery prompt (attempt ${r.entry.retryAttempt + 1})` });
          backtrackCount++;
          recoverable.push(r);
        } else {
          errors.push({ iteration, toolName, error, recoveryAction: null });
          stopReason = 'tool_failure';
        }
      }
    }
    if (stopReason === 'tool_failure') break;
    if (recoverable.length > 0) add({ role: 'user', content: recoveryPrompt(recoverable) });
    if (!forceFinal && iteration >= input.maxIterations) {
      forceFinal = 'max_iterations';
      errors.push({
        iteration,
        toolName: null,
        error: `maxIterations (${input.maxIterations}) reached while the model still wanted tools`,
        recoveryAction: 'asked for a final answer without tools',
      });
    }
    if (input.signal?.aborted) {
      stopReason = 'aborted';
      break;
    }
  }

  const allToolsFailed = toolChain.length > 0 && toolChain.every((t) => !t.success);
  const success = stopReason === 'answered' && !allToolsFailed;
  const answer = finalText?.trim() ? firstParagraph(finalText) : '';
  let summary: string;
  if (success) summary = answer;
  else {
    const why: Record<LoopOutput['stopReason'], string> = {
      answered: 'Every tool call failed',
      max_iterations: `Stopped after ${input.maxIterations} tool-calling turns (maxIterations)`,
      repeated_call: 'Stopped because the model repeated the same tool call',
      tool_failure: `Stopped at the first tool failure (backtracking is off): ${errors[errors.length - 1]?.error ?? ''}`,
      llm_error: `The LLM request failed: ${errors[errors.length - 1]?.error ?? ''}`,
      aborted: 'The run was aborted',
      internal_error: 'The run failed',
    };
    summary = `${why[stopReason ?? 'aborted']}.${answer ? ` Final answer: ${answer}` : ''}`;
  }

  return {
    success,
    finalResult: parseFinal(finalText),
    summary,
    toolChain,
    history,
    errors,
    backtrackCount,
    iterations,
    usage,
    llmTimeMs,
    toolTimeMs,
    llmRetries,
    stopReason: stopReason ?? 'aborted',
  };
}
