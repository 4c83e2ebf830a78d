import { z } from 'zod';

// Interpolated values (`${oc.env:MAX}`) arrive as strings: numeric strings count as numbers.
const numeric = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v), schema);

/**
 * `tool_wrapper.wrapper_args`: GEM's ToolEnvWrapper arguments (ROLL passes them as keyword
 * arguments, so an unknown one is an error there too), plus ghostwire's `limit_message` and `info_layout`.
 */
export const WrapperArgsSchema = z.strictObject({
  /** Given for every parsed tool call, valid or not. */
  tool_reward: numeric(z.number()).default(0),
  /** Added only when the call succeeded. */
  tool_success_reward: numeric(z.number()).default(0),
  /** GEM: replaces the reward of a failed call; negative, and only with the other two at 0. */
  tool_execute_error_reward: numeric(z.number().max(0)).default(0),
  /** Tool calls allowed per episode; null means no limit. Default 10, as in GEM. */
  max_tool_uses: numeric(z.number().int().min(0)).nullable().default(10),
  /** ghostwire: the text appended to the call that reaches the limit (default GEM's). */
  limit_message: z.string().optional(),
  /** ghostwire: counters under info.metrics (`roll`, default) or at the top level (`gem`). */
  info_layout: z.enum(['roll', 'gem']).optional(),
});

/** One entry of `tool_wrapper.tool_configs`. */
export const ToolConfigSchema = z.looseObject({
  tool_id: z.string().min(1),
  tool_args: z.record(z.string(), z.unknown()).nullable().default({}).transform((v) => v ?? {}),
});

/** `tool_wrapper`: how to wrap an environment with tools. */
export const ToolWrapperConfigSchema = z.looseObject({
  wrapper_args: WrapperArgsSchema.default({ tool_reward: 0, tool_success_reward: 0, tool_execute_error_reward: 0, max_tool_uses: 10 }),
  tool_configs: z.array(ToolConfigSchema).min(1),
});

/**
 * One environment: `env_type`, `max_steps`, `env_config`, `tool_wrapper`, and every other key a
 * ROLL entry carries (`env_manager_cls`, `agent_system_template`, `agent_template`,
 * `max_env_step_concurrent`, `max_tokens_per_step`, ...), kept as written for the caller.
 */
export const EnvConfigSchema = z.looseObject({
  env_type: z.string().min(1),
  max_steps: numeric(z.number().int().positive()).optional(),
  max_tokens_per_step: numeric(z.number().int().positive()).optional(),
  max_env_step_concurrent: numeric(z.number().int().min(0)).optional(),
  env_manager_cls: z.string().optional(),
  agent_system_template: z.string().optional(),
  agent_template: z.string().optional(),
  env_config: z.record(z.string(), z.unknown()).nullable().default({}).transform((v) => v ?? {}),
  tool_wrapper: ToolWrapperConfigSchema.nullable().optional().transform((v) => v ?? undefined),
}).superRefine((entry, ctx) => {
  // Other keys pass through (ROLL's entries carry many), but a near miss of a key ghostwire acts on is a typo.
  for (const key of Object.keys(entry)) {
    const meant = ACTED_ON.find((known) => known !== key && closeTo(key, known));
    if (meant) ctx.addIssue({ code: 'custom', path: [key], message: `Unrecognized key: "${key}" (did you mean "${meant}"?)` });
  }
});

const ACTED_ON = ['env_type', 'max_steps', 'env_config', 'tool_wrapper'];

/** Edit distance at most 2 (one or two typos), for keys of 5 characters or more. */
function closeTo(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length] <= 2;
}

/** A rollout config: environments under `custom_envs`; other top-level keys (pipeline settings) are kept as they are. */
export const RolloutConfigSchema = z.looseObject({
  custom_envs: z.record(z.string(), EnvConfigSchema),
});

export type WrapperArgs = z.infer<typeof WrapperArgsSchema>;
export type ToolConfig = z.infer<typeof ToolConfigSchema>;
export type ToolWrapperConfig = z.infer<typeof ToolWrapperConfigSchema>;
export type ToolWrapperConfigInput = z.input<typeof ToolWrapperConfigSchema>;
export type EnvConfig = z.infer<typeof EnvConfigSchema>;
export type RolloutConfig = z.infer<typeof RolloutConfigSchema>;

/**
 * Formats zod issues as `path.to.field: message` lines, under a heading that says where.
 *
 * @example
 * formatIssues('rollout.yaml', error.issues)
 */
export function formatIssues(where: string, issues: z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(root)';
    return `  ${path}: ${issue.message}`;
  });
  return `${where}: invalid rollout config\n${lines.join('\n')}`;
}
