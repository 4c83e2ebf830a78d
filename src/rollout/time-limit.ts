import type { Env, ResetOptions, ResetResult, StepResult } from './env.ts';

/**
 * Ends an episode after `maxSteps` steps with `truncated: true` (Gymnasium's
 * TimeLimit): the config's `max_steps`, counting tool calls too.
 *
 * @example
 * const env = new TimeLimit(new QAEnv({ items }), 4);
 */
export class TimeLimit<Obs = string> implements Env<Obs> {
  readonly env: Env<Obs>;
  readonly maxSteps: number;
  #steps = 0;

  constructor(env: Env<Obs>, maxSteps: number) {
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new Error(`TimeLimit: maxSteps must be a positive integer, got ${maxSteps}`);
    this.env = env;
    this.maxSteps = maxSteps;
  }

  async reset(options?: ResetOptions): Promise<ResetResult<Obs>> {
    this.#steps = 0;
    return this.env.reset(options);
  }

  async step(action: string): Promise<StepResult<Obs>> {
    const result = await this.env.step(action);
    this.#steps++;
    const truncated = result.truncated || (!result.terminated && this.#steps >= this.maxSteps);
    return { ...result, truncated, info: { ...result.info, elapsed_steps: this.#steps } };
  }

  async close(): Promise<void> {
    await this.env.close?.();
  }
}
