import { z } from 'zod';

// Interpolated values (`${oc.env:MAX}`) arrive as strings: numeric strings count as numbers.
const numeric = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v), schema);

/** `tool_wrapper.wrapper_args`: rewards and the tool-use limit. */
export const WrapperArgsSchema = z.strictObject({
  /** Given for every parsed tool call, valid or not. */
  tool_reward: numeric(z.number()).default(0),
  /** Added only when the call succeeded. */
  tool_success_reward: numeric(z.number()).default(0),
  /** Tool calls allowed per episode; absent or null means no limit. */
  max_tool_uses: numeric(z.number().int().min(0)).nullable().optional(),
});

/** One entry of `tool_wrapper.tool_configs`. */
export const ToolConfigSchema = z.strictObject({
  tool_id: z.string().min(1),
  tool_args: z.record(z.string(), z.unknown()).default({}),
});

/** `tool_wrapper`: how to wrap an environment with tools. */
export const ToolWrapperConfigSchema = z.strictObject({
  wrapper_args: WrapperArgsSchema.default({ tool_reward: 0, tool_success_reward: 0 }),
  tool_configs: z.array(ToolConfigSchema).min(1),
});

/** One environment: the seed's `env_type`, `max_steps`, `max_tokens_per_step`, `env_config`, `tool_wrapper`. */
export const EnvConfigSchema = z.strictObject({
  env_type: z.string().min(1),
  max_steps: numeric(z.number().int().positive()).optional(),
  max_tokens_per_step: numeric(z.number().int().positive()).optional(),
  env_config: z.record(z.string(), z.unknown()).default({}),
  tool_wrapper: ToolWrapperConfigSchema.optional(),
});

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
