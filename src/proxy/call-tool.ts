/**
 * call_tool: validate the arguments, call downstream with a timeout, record the call, and on
 * failure (error, timeout, empty or invalid result) attach fallback suggestions as a separate field.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { CircuitOpenError } from './breaker.ts';
import type { CatalogTool } from './catalog.ts';
import type { Downstream } from './downstream.ts';
import type { FallbackResolver, FallbackSuggestion } from './fallback.ts';
import { failureCause, failurePolicy, type FailureCause } from './failure-scope.ts';
import type { MetricsRecorder } from './metrics.ts';
import { formatArgumentIssues, type ArgumentValidator } from '../mcp/index.ts';

export interface CallContext {
  downstream(server: string): Downstream;
  /** Connects and indexes the server on first use; returns its tool. */
  resolveTool(server: string, tool: string): Promise<CatalogTool>;
  metrics: MetricsRecorder;
  fallbacks: FallbackResolver;
  validator: ArgumentValidator;
  callTimeoutMs: number;
  autoRetryFallback: boolean;
  /** The annotations a tool was listed with in this process, if it was. */
  annotationsOf(server: string, tool: string): ToolAnnotations | undefined;
  /** "server/tool" names auto-retry may run without safe annotations (config recommend_tools.auto_retry_tools). */
  autoRetryAllowed: ReadonlySet<string>;
}

export interface CallOptions {
  include_fallbacks?: boolean;
}

/** A failed call as the caller sees it. */
export interface CallFailure {
  success: false;
  server: string;
  tool: string;
  error: string;
  /** Why it failed: error (tool said so), timeout, empty, invalid, unavailable, connection, arguments, unknown_tool. */
  kind: string;
  /** What the tool's error names, when it rules out the tool's own server: access_denied, not_found, invalid_argument, conflict. */
  cause?: FailureCause;
  fallback_suggestions: FallbackSuggestion[];
  /** Why the suggestions are what they are (or why there are none). */
  fallback_note?: string;
  fallback_result?: { server: string; tool: string; success: boolean; result?: CallToolResult; error?: string };
  /** Suggestions auto-retry would not run, and why. */
  auto_retry_skipped?: Array<{ server: string; tool: string; reason: string }>;
}

/**
 * Why auto-retry must not run a tool, or undefined when it may: only tools annotated read-only, or
 * idempotent and explicitly non-destructive (MCP's destructiveHint defaults to true), or opted in by name.
 * @example
 *   retryRefusal({ readOnlyHint: true }, false) // undefined
 */
export function retryRefusal(annotations: ToolAnnotations | undefined, optedIn: boolean): string | undefined {
  if (optedIn) return undefined;
  if (!annotations) return 'no annotations: not known to be free of side effects (opt in with recommend_tools.auto_retry_tools)';
  if (annotations.destructiveHint === true) return 'annotated destructiveHint: true';
  if (annotations.readOnlyHint === true) return undefined;
  if (annotations.idempotentHint === true && annotations.destructiveHint === false) return undefined;
  return 'not annotated readOnlyHint, nor idempotentHint with destructiveHint: false (opt in with recommend_tools.auto_retry_tools)';
}

class CallError extends Error {
  readonly kind: string;
  constructor(kind: string, message: string) {
    super(message);
    this.kind = kind;
  }
}

function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n').trim();
}

/** No value at all: nothing, blank text, an empty list, or an object of such (`{ content: '' }`). */
function blank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(blank);
  return false;
}

function isEmpty(result: CallToolResult): boolean {
  // server-filesystem lists an empty folder as structured `{ content: '' }` beside an empty text block.
  if (!blank(result.structuredContent)) return false;
  const content = result.content ?? [];
  return content.length === 0 || content.every((c) => c.type === 'text' && c.text.trim() === '');
}

function classify(err: unknown, timeoutMs: number): CallError {
  if (err instanceof CallError) return err;
  if (err instanceof CircuitOpenError) return new CallError('unavailable', err.message);
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return new CallError('timeout', `tool call timed out after ${timeoutMs} ms`);
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) return new CallError('connection', `server connection closed during the call: ${err.message}`);
  if (err instanceof McpError && /output schema|structured content/i.test(err.message)) return new CallError('invalid', err.message);
  const message = err instanceof Error ? err.message : String(err);
  // An HTTP server that went away (refused, reset) or forgot our session (404) is a connection problem.
  const lost = err instanceof StreamableHTTPError || (err instanceof TypeError && /fetch failed/.test(message));
  const cause = (err as { cause?: { code?: string } })?.cause?.code;
  return new CallError(lost || cause || /cannot connect|connection/i.test(message) ? 'connection' : 'error', cause ? `${message} (${cause})` : message);
}

/** One downstream call, recorded. Throws CallError on failure. */
async function callOnce(ctx: CallContext, server: string, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const def = await ctx.resolveTool(server, tool);
  const problems = ctx.validator.check(def.inputSchema, args, def.hash);
  if (problems.length) {
    // The caller's mistake, not the tool's: not counted against its reliability.
    throw new CallError('arguments', `arguments do not match the input schema of ${server}/${tool}: ${formatArgumentIssues(problems)}`);
  }
  const started = performance.now();
  let result: CallToolResult;
  try {
    result = await ctx.downstream(server).callTool(tool, args, ctx.callTimeoutMs);
    if (result.isError) throw new CallError('error', textOf(result) || 'the tool reported an error without a message');
    if (isEmpty(result)) throw new CallError('empty', 'the tool returned an empty result');
  } catch (err) {
    const failure = classify(err, ctx.callTimeoutMs);
    // Drop a lost connection so the next call reconnects instead of reusing a dead session.
    if (failure.kind === 'connection') await ctx.downstream(server).disconnect(failure.message);
    ctx.metrics.record({ server, tool, success: false, latencyMs: performance.now() - started, error: failure.message.slice(0, 1000) });
    throw failure;
  }
  ctx.metrics.record({ server, tool, success: true, latencyMs: performance.now() - started });
  return result;
}

/**
 * Calls a downstream tool through the proxy.
 * @example
 *   const result = await callTool(ctx, 'fs', 'read_file', { path: 'a.txt' });
 */
export async function callTool(ctx: CallContext, server: string, tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
  try {
    return await callOnce(ctx, server, tool, args);
  } catch (err) {
    const failure = err instanceof CallError ? err : classify(err, ctx.callTimeoutMs);
    // A tool's error naming a refusal, a missing thing or a rejected argument (MCP's InvalidParams says "-32602").
    const cause = failure.kind === 'error' ? failureCause(failure.message) : undefined;
    const kind = failure.kind;
    const body: CallFailure = { success: false, server, tool, error: failure.message, kind, ...(cause ? { cause } : {}), fallback_suggestions: [] };
    const wantsFallbacks = options.include_fallbacks !== false && !['arguments', 'unknown_tool', 'unknown_server'].includes(failure.kind);
    if (wantsFallbacks) {
      // The failure decides where suggestions may come from; only same-job tools that would take these very
      // arguments under their own declared properties.
      const policy = failurePolicy(kind, cause, server);
      body.fallback_suggestions = await ctx.fallbacks.find(server, tool, undefined, args, policy.scope).catch(() => []);
      body.fallback_note = body.fallback_suggestions.length ? policy.why : `${policy.why}; none was found`;
    } else if (failure.kind === 'arguments' && options.include_fallbacks !== false) {
      // Any tool taking the same schema would refuse them too: the arguments are what to fix.
      body.fallback_note = 'its arguments do not match the tool\'s input schema: correct them; no other tool is suggested';
    }
    if (ctx.autoRetryFallback) {
      const skipped: NonNullable<CallFailure['auto_retry_skipped']> = [];
      const chosen = body.fallback_suggestions.find((s) => {
        const reason = retryRefusal(ctx.annotationsOf(s.server, s.tool), ctx.autoRetryAllowed.has(`${s.server}/${s.tool}`));
        if (reason) skipped.push({ server: s.server, tool: s.tool, reason });
        return !reason;
      });
      if (skipped.length) body.auto_retry_skipped = skipped;
      if (chosen) {
        try {
          const result = await callOnce(ctx, chosen.server, chosen.tool, args);
          body.fallback_result = { server: chosen.server, tool: chosen.tool, success: true, result };
        } catch (fallbackErr) {
          body.fallback_result = { server: chosen.server, tool: chosen.tool, success: false, error: (fallbackErr as Error).message };
        }
      }
    }
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as unknown as Record<string, unknown> };
  }
}

export { CallError };
