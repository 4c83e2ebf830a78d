import type { Env, Info, ResetOptions, ResetResult, StepResult, Tool } from './env.ts';

/** Options for {@link ToolEnvWrapper} (the config's `wrapper_args`, in camelCase). */
export interface ToolEnvWrapperOptions {
  /** Reward for every parsed tool call, valid or not. Default 0. */
  toolReward?: number;
  /** Added to the reward only when the call succeeded. Default 0. */
  toolSuccessReward?: number;
  /** Tool calls allowed per episode. Default unlimited. */
  maxToolUses?: number;
  /** What the agent is told once the limit is reached. */
  limitMessage?: (maxToolUses: number) => string;
}

const defaultLimitMessage = (max: number): string =>
  `You have reached the maximum number of tool uses (${max}). Do not call tools any more; give your final answer directly.`;

/**
 * Wraps an environment with tools. `reset` appends each tool's instructions to
 * the observation and to `info.env_instruction`. `step` offers the action to
 * each tool in order; the first that parses it handles it (the inner
 * environment never sees it), and the reward is `toolReward` plus
 * `toolSuccessReward` when the call succeeded. An action no tool parses goes
 * to the inner environment unchanged. After `maxToolUses` calls the agent is
 * told to answer and every later action goes to the inner environment.
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
  readonly maxToolUses: number;
  readonly #limitMessage: (max: number) => string;
  toolUseCounter = 0;
  toolSuccessCounter = 0;
  #closed = false;

  constructor(env: Env<string>, tools: readonly Tool[], options: ToolEnvWrapperOptions = {}) {
    const maxToolUses = options.maxToolUses ?? Infinity;
    if (!(maxToolUses >= 0)) throw new Error(`ToolEnvWrapper: maxToolUses must be 0 or more, got ${maxToolUses}`);
    this.env = env;
    this.tools = [...tools];
    this.toolReward = options.toolReward ?? 0;
    this.toolSuccessReward = options.toolSuccessReward ?? 0;
    this.maxToolUses = maxToolUses;
    this.#limitMessage = options.limitMessage ?? defaultLimitMessage;
  }

  async reset(options?: ResetOptions): Promise<ResetResult<string>> {
    const { observation, info } = await this.env.reset(options);
    this.toolUseCounter = 0;
    this.toolSuccessCounter = 0;
    const instructions = (await Promise.all(this.tools.map((tool) => tool.instructionString()))).filter((text) => text.trim() !== '');
    const block = instructions.join('\n\n');
    const envInstruction = typeof info.env_instruction === 'string' ? info.env_instruction : '';
    return {
      observation: block ? `${observation}\n\n${block}` : observation,
      info: { ...info, env_instruction: [envInstruction, block].filter(Boolean).join('\n\n'), ...this.#counters() },
    };
  }

  async step(action: string): Promise<StepResult<string>> {
    if (this.toolUseCounter < this.maxToolUses) {
      for (const [index, tool] of this.tools.entries()) {
        const result = await tool.executeAction(action);
        if (!result.isParsed) continue;
        this.toolUseCounter++;
        if (result.isValid) this.toolSuccessCounter++;
        const limitReached = this.toolUseCounter >= this.maxToolUses;
        const info: Info = {
          tool_handled: true,
          tool_index: index,
          tool_name: result.toolName,
          parsed_action: result.parsedAction,
          tool_valid: result.isValid,
          tool_limit_reached: limitReached,
          ...(result.structuredContent ? { structured_content: result.structuredContent } : {}),
          ...this.#counters(),
        };
        return {
          observation: limitReached ? `${result.observation}\n\n${this.#limitMessage(this.maxToolUses)}` : result.observation,
          // The success bonus goes only to calls that succeeded: never to invalid or failed ones.
          reward: this.toolReward + (result.isValid ? this.toolSuccessReward : 0),
          terminated: false,
          truncated: false,
          info,
        };
      }
    }
    const inner = await this.env.step(action);
    return {
      ...inner,
      info: { ...inner.info, tool_handled: false, tool_limit_reached: this.toolUseCounter >= this.maxToolUses, ...this.#counters() },
    };
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

  #counters(): Info {
    return { tool_use_counter: this.toolUseCounter, tool_success_counter: this.toolSuccessCounter };
  }
}
