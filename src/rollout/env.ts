/**
 * The Gymnasium-style environment and tool contracts the rollout module is built on.
 * Methods may answer synchronously or with a promise: wrappers always await, so a
 * plain in-memory environment need not pretend to do I/O.
 */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** Free-form side information returned by `reset` and `step` (Gymnasium's `info`). */
export type Info = Record<string, unknown>;

/** What `reset` returns: the first observation of an episode and its info. */
export interface ResetResult<Obs = string> {
  observation: Obs;
  info: Info;
}

/** What `step` returns, with Gymnasium's names and meanings. */
export interface StepResult<Obs = string> {
  observation: Obs;
  reward: number;
  /** The episode ended on its own terms (an answer was given). */
  terminated: boolean;
  /** The episode was cut short from outside (a step limit). */
  truncated: boolean;
  info: Info;
}

/** Options for `reset`; a seed makes the episode reproducible. */
export interface ResetOptions {
  seed?: number;
}

/**
 * A Gymnasium-style environment over text actions.
 *
 * @example
 * const { observation } = await env.reset({ seed: 0 });
 * const { reward, terminated } = await env.step('<answer>Paris</answer>');
 */
export interface Env<Obs = string, Act = string> {
  reset(options?: ResetOptions): MaybePromise<ResetResult<Obs>>;
  step(action: Act): MaybePromise<StepResult<Obs>>;
  close?(): MaybePromise<void>;
}

/** What a tool answers for one action (the seed's `(is_parsed, is_valid, observation, parsed_action)`). */
export interface ToolActionResult {
  /** The action was meant for this tool (it carried the tool's call syntax). */
  isParsed: boolean;
  /** The call was well formed and succeeded. */
  isValid: boolean;
  /** What the agent sees next. Empty when not parsed. */
  observation: string;
  /** The action as the tool understood it (for MCPTool: cut after the first `</tool_call>`). */
  parsedAction: string;
  /** The name of the tool called, once known. */
  toolName?: string;
  /** The server's structured result, kept as is. */
  structuredContent?: Record<string, unknown>;
}

/**
 * A tool the ToolEnvWrapper can offer to an agent.
 *
 * @example
 * const echo: Tool = {
 *   instructionString: () => 'Write <echo>text</echo> to hear it back.',
 *   executeAction: (a) => ({ isParsed: a.startsWith('<echo>'), isValid: true, observation: a, parsedAction: a }),
 * };
 */
export interface Tool {
  /** GEM's `tool_type` ("mcp", "python_code", "search"), reported in `info.tool_type`; default "base". */
  readonly toolType?: string;
  instructionString(): MaybePromise<string>;
  executeAction(action: string): MaybePromise<ToolActionResult>;
  close?(): MaybePromise<void>;
}
