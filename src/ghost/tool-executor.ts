// Executes the tool calls of one LLM turn: validation, circuit breaker, repeat detection, concurrent calls,
// truncation. Every problem becomes a tool message for the model; nothing here throws.
import { ArgumentValidator, formatArgumentIssues } from '../mcp/index.ts';
import { ToolCircuitBreaker } from './circuit-breaker.ts';
import type { DiscoveredTool, ToolOutcome } from './mcp-manager.ts';
import type { GhostMessage, GhostToolCall } from './provider.ts';
import { dropNullOptionals } from './schema-normalize.ts';
import type { ToolNameMap } from './tool-names.ts';
import type { ToolChainEntry } from './types.ts';

/** What the loop needs from the MCP side; McpManager implements it, tests and benches may fake it. */
export interface ToolInvoker {
  callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome>;
}

export type CallKind = 'ok' | 'tool_error' | 'malformed' | 'circuit_open' | 'repeated';

export interface CallReport {
  entry: ToolChainEntry;
  message: GhostMessage;
  kind: CallKind;
}

export interface ExecutorOptions {
  maxToolResultChars: number;
  maxIdenticalCalls: number;
  circuitBreakerThreshold: number;
  /** OpenAI strict schemas turn optional fields into nullable ones; strip those nulls before calling. */
  stripNulls: boolean;
  /** Compiled schemas to reuse across runs (McpManager keeps one); a fresh one otherwise. */
  validator?: ArgumentValidator;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function parseResult(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/**
 * Cuts `text` to `max` characters with a note telling the model what happened.
 * @example
 *   truncateResult('x'.repeat(10_000), 4000) // the first 4,000 characters and a note
 */
export function truncateResult(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[truncated by ghostwire: showing ${max} of ${text.length} characters; ask for less (a filter, a LIMIT, a page) if you need the rest]`;
}

/**
 * Runs tool calls for the loop; one instance per run (it holds the breaker and the repeat counts).
 * @example
 * const exec = new ToolExecutor(mcp, names, mcp.tools, { maxToolResultChars: 20000, maxIdenticalCalls: 3, circuitBreakerThreshold: 3, stripNulls: false });
 * const reports = await exec.runTurn(1, completion.toolCalls, completion.text);
 */
export class ToolExecutor {
  readonly breaker: ToolCircuitBreaker;
  private readonly validator: ArgumentValidator;
  private readonly invoker: ToolInvoker;
  private readonly names: ToolNameMap;
  private readonly options: ExecutorOptions;
  private readonly tools = new Map<string, DiscoveredTool>();
  private readonly seen = new Map<string, number>();

  constructor(invoker: ToolInvoker, names: ToolNameMap, tools: readonly DiscoveredTool[], options: ExecutorOptions) {
    this.invoker = invoker;
    this.names = names;
    this.options = options;
    this.breaker = new ToolCircuitBreaker(options.circuitBreakerThreshold);
    this.validator = options.validator ?? new ArgumentValidator();
    for (const t of tools) this.tools.set(`${t.server}.${t.name}`, t);
  }

  /** Executes one turn's calls concurrently; reports come back in the model's order. */
  async runTurn(iteration: number, calls: readonly GhostToolCall[], reasoning: string, signal?: AbortSignal): Promise<CallReport[]> {
    // Checks that depend on order (repeat counts, breaker state) happen before anything runs.
    const plans = calls.map((call) => this.plan(iteration, call, reasoning));
    return Promise.all(plans.map((p) => (typeof p === 'function' ? p(signal) : Promise.resolve(p))));
  }

  private plan(iteration: number, call: GhostToolCall, reasoning: string): CallReport | ((signal?: AbortSignal) => Promise<CallReport>) {
    const ref = this.names.fromProvider(call.name);
    const base = {
      iteration,
      toolName: ref ? `${ref.server}.${ref.tool}` : call.name,
      providerToolName: call.name,
      arguments: call.arguments,
      reasoning,
      retryAttempt: this.breaker.consecutiveFailures(call.name),
    };
    const reject = (kind: CallKind, error: string): CallReport => ({
      kind,
      entry: { ...base, success: false, result: null, error, executionTimeMs: 0 },
      message: { role: 'tool', content: `Error: ${error}`, toolCallId: call.id, toolName: call.name, isError: true },
    });
    if (!ref) {
      const known = this.names.names();
      return reject('malformed', `unknown tool "${call.name}". Available tools: ${known.length ? known.join(', ') : '(none)'}`);
    }
    if (call.parseError) return reject('malformed', `${call.parseError}. Send the arguments of ${call.name} as one JSON object.`);
    const tool = this.tools.get(`${ref.server}.${ref.tool}`);
    const args = this.options.stripNulls ? dropNullOptionals(call.arguments, tool?.inputSchema) : call.arguments;
    const invalid = formatArgumentIssues(this.validator.check(tool?.inputSchema, args));
    if (invalid) return reject('malformed', `arguments do not fit the input schema of ${call.name}: ${invalid}`);
    if (this.breaker.isOpen(call.name)) {
      return reject('circuit_open', `${call.name} failed ${this.breaker.threshold} times in a row and is disabled for this run; use another tool or answer with what you have`);
    }
    const key = `${call.name} ${canonicalJson(args)}`;
    const count = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, count);
    if (count > this.options.maxIdenticalCalls) {
      return reject('repeated', `${call.name} was already called ${this.options.maxIdenticalCalls} times with these exact arguments; the call was not repeated`);
    }
    return async (signal) => {
      const started = performance.now();
      const outcome = await this.invoker.callTool(ref.server, ref.tool, args, signal);
      const executionTimeMs = performance.now() - started;
      this.breaker.record(call.name, outcome.ok);
      const shown = truncateResult(outcome.ok ? outcome.text : `Error: ${outcome.error ?? 'tool failed'}`, this.options.maxToolResultChars);
      return {
        kind: outcome.ok ? 'ok' : 'tool_error',
        entry: {
          ...base,
          arguments: args,
          success: outcome.ok,
          result: outcome.ok ? parseResult(outcome.text) : outcome.text ? parseResult(outcome.text) : null,
          error: outcome.ok ? null : (outcome.error ?? 'tool failed'),
          executionTimeMs,
        },
        message: { role: 'tool', content: shown, toolCallId: call.id, toolName: call.name, ...(outcome.ok ? {} : { isError: true }) },
      };
    };
  }
}
