import type { Env, Info, ResetOptions, ResetResult, StepResult, Tool } from './env.ts';
import { GEM_LIMIT_MESSAGE, gemResetObservation } from './roll-messages.ts';

/** Options for {@link ToolEnvWrapper} (the config's `wrapper_args`, in camelCase). */
export interface ToolEnvWrapperOptions {
  /** Reward for every parsed tool call, valid or not. Default 0. */
  toolReward?: number;
  /** Added to the reward only when the call succeeded. Default 0. */
  toolSuccessReward?: number;
  /**
   * GEM's penalty for a call that failed: replaces the reward of a failed call. Must be
   * negative, and then `toolReward` and `toolSuccessReward` must be 0 (GEM's rule). Default 0.
   */
  toolExecuteErrorReward?: number;
  /** Tool calls allowed per episode; `null` or `Infinity` for no limit. Default 10, as in GEM. */
  maxToolUses?: number | null;
  /** What the agent is told, after a blank line, in the observation of the call that reaches the limit. Default GEM's text. */
  limitMessage?: string;
  /**
   * Where the tool counters go in `info`: `'roll'` (default) as ROLL's ToolEnvWrapper puts them, under
   * `info.metrics` with `info.metrics_agg_mode` ("last") for its TrajEnvManager; `'gem'` at the top level.
   */
  infoLayout?: 'roll' | 'gem';
}

/**
 * Wraps an environment with tools, as GEM's ToolEnvWrapper (and ROLL's subclass) do.
 * `reset` appends the tools' instructions to the observation after a newline
 * (under "Available tools:" when there are several). `step` offers the action to
 * each tool in order; the first that parses it handles it (the inner environment
 * never sees it). The reward is `toolReward`, plus `toolSuccessReward` when the call
 * succeeded, or `toolExecuteErrorReward` instead when it failed and that is set. An
 * action no tool parses goes to the inner environment. After `maxToolUses` calls
 * (default 10) every action goes to the inner environment.
 *
 * @example
 * const env = new ToolEnvWrapper(new QAEnv({ items }), [new MCPTool({ serverUrl })], { toolSuccessReward: 0.2, maxToolUses: 2 });
 * const { observation } = await env.reset({ seed: 0 });
 * const step = await env.step('<tool_call>{"tool_name":"lookup","tool_params":{"topic":"France"}}</tool_call>');
 * await env.close();
 */
export class ToolEnvWrapper implements Env<string> {
  readonly env: Env<string>;
  readonly tools: readonly Tool[];
  readonly toolReward: number;
  readonly toolSuccessReward: number;
  readonly toolExecuteErrorReward: number;
  readonly maxToolUses: number;
  readonly limitMessage: string;
  readonly infoLayout: 'roll' | 'gem';
  toolUseCounter = 0;
  toolSuccessCounter = 0;
  #closed = false;

  constructor(env: Env<string>, tools: readonly Tool[], options: ToolEnvWrapperOptions = {}) {
    const maxToolUses = options.maxToolUses === null ? Infinity : (options.maxToolUses ?? 10);
    if (!(maxToolUses >= 0)) throw new Error(`ToolEnvWrapper: maxToolUses must be 0 or more, got ${maxToolUses}`);
    this.env = env;
    this.tools = [...tools];
    this.toolReward = options.toolReward ?? 0;
    this.toolSuccessReward = options.toolSuccessReward ?? 0;
    this.toolExecuteErrorReward = options.toolExecuteErrorReward ?? 0;
    if (this.toolExecuteErrorReward !== 0) {
      // GEM's assertions, with its wording.
      if (!(this.toolExecuteErrorReward < 0)) throw new Error('ToolEnvWrapper: Error reward should be negative');
      if (this.toolReward !== 0) throw new Error('ToolEnvWrapper: tool reward is not compatible with tool execute error reward');
      if (this.toolSuccessReward !== 0) throw new Error('ToolEnvWrapper: tool success reward is not compatible with tool execute error reward');
    }
    this.maxToolUses = maxToolUses;
    this.limitMessage = options.limitMessage ?? GEM_LIMIT_MESSAGE;
    this.infoLayout = options.infoLayout ?? 'roll';
  }

  async reset(options?: ResetOptions): Promise<ResetResult<string>> {
    const prevUses = this.toolUseCounter;
    const prevSuccesses = this.toolSuccessCounter;
    this.toolUseCounter = 0;
    this.toolSuccessCounter = 0;
    const { observation, info } = await this.env.reset(options);
    const instructions = await Promise.all(this.tools.map(async (tool) => String(await tool.instructionString())));
    return {
      observation: gemResetObservation(observation, instructions),
      info: this.#withCounters({ ...info, prev_ep_tool_use_counter: prevUses, prev_ep_tool_success_counter: prevSuccesses, use_tool: false }),
    };
  }

  async step(action: string): Promise<StepResult<string>> {
    if (this.toolUseCounter < this.maxToolUses) {
      for (const tool of this.tools) {
        const result = await tool.executeAction(action);
        if (!result.isParsed) continue;
        this.toolUseCounter++;
        let observation = result.observation;
        if (this.toolUseCounter === this.maxToolUses) observation = `${observation}\n\n${this.limitMessage}`;
        let reward = this.toolReward;
        if (result.isValid) {
          this.toolSuccessCounter++;
          // The success bonus goes only to calls that succeeded: never to invalid or failed ones.
          reward += this.toolSuccessReward;
        } else if (this.toolExecuteErrorReward !== 0) {
          reward = this.toolExecuteErrorReward;
        }
        const info: Info = {
          parsed_action: result.parsedAction,
          tool_type: tool.toolType ?? 'base',
          ...(result.toolName ? { tool_name: result.toolName } : {}),
          ...(result.structuredContent ? { structured_content: result.structuredContent } : {}),
          use_tool: true,
        };
        return { observation, reward, terminated: false, truncated: false, info: this.#withCounters(info) };
      }
    }
    const inner = await this.env.step(action);
    return { ...inner, info: this.#withCounters({ ...inner.info, use_tool: false }) };
  }

  /** Closes every tool, then the inner environment; all are attempted even if one fails. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const results = await Promise.allSettled(this.tools.map(async (tool) => tool.close?.()));
    const inner = await Promise.allSettled([Promise.resolve(this.env.close?.())]);
    const errors = [...results, ...inner].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (errors.length > 0) throw new AggregateError(errors, `ToolEnvWrapper.close: ${errors.length} tool(s) or the environment failed to close`);
  }

  #withCounters(info: Info): Info {
    const counters = { tool_use_counter: this.toolUseCounter, tool_success_counter: this.toolSuccessCounter };
    if (this.infoLayout === 'gem') return { ...info, ...counters };
    // ROLL's ToolEnvWrapper: counters (and any metrics the inner env reported) under info.metrics, aggregated "last".
    const { metrics, metrics_agg_mode: aggMode, ...rest } = info;
    return {
      ...rest,
      metrics: { ...counters, ...(isRecord(metrics) ? metrics : {}) },
      metrics_agg_mode: { tool_use_counter: 'last', tool_success_counter: 'last', ...(isRecord(aggMode) ? aggMode : {}) },
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
