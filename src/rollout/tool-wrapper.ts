import { formatIssues, ToolWrapperConfigSchema, type ToolWrapperConfigInput } from './config-schema.ts';
import type { Env, Tool } from './env.ts';
import { ToolEnvWrapper } from './tool-env-wrapper.ts';
import { createToolRegistry, type ToolRegistry } from './tool-registry.ts';

/**
 * The seed's `tool_wrapper(env, wrapper_args, tool_configs)`: builds each tool
 * from the registry and wraps `env` in a ToolEnvWrapper. Takes the config's
 * `tool_wrapper` block as written (snake_case); validates it first. Pass the
 * same registry to every environment of a rollout so their MCP tools share one
 * connection per server.
 *
 * @example
 * const registry = createToolRegistry();
 * const env = toolWrapper(new QAEnv({ items }), {
 *   wrapper_args: { tool_reward: 0, tool_success_reward: 0.2, max_tool_uses: 1 },
 *   tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: 'http://127.0.0.1:3000/mcp' } }],
 * }, { registry });
 */
export function toolWrapper(env: Env<string>, config: ToolWrapperConfigInput, options: { registry?: ToolRegistry; baseDir?: string } = {}): ToolEnvWrapper {
  const parsed = ToolWrapperConfigSchema.safeParse(config);
  if (!parsed.success) throw new Error(formatIssues('tool_wrapper', parsed.error.issues));
  const { wrapper_args: args, tool_configs: configs } = parsed.data;
  const registry = options.registry ?? createToolRegistry();
  const tools: Tool[] = [];
  try {
    for (const [index, toolConfig] of configs.entries()) {
      try {
        tools.push(registry.make(toolConfig.tool_id, toolConfig.tool_args, { baseDir: options.baseDir }));
      } catch (error) {
        throw new Error(`tool_wrapper.tool_configs.${index} (${toolConfig.tool_id}): ${(error as Error).message}`, { cause: error });
      }
    }
    return new ToolEnvWrapper(env, tools, {
      toolReward: args.tool_reward,
      toolSuccessReward: args.tool_success_reward,
      toolExecuteErrorReward: args.tool_execute_error_reward,
      maxToolUses: args.max_tool_uses,
      limitMessage: args.limit_message,
      infoLayout: args.info_layout,
    });
  } catch (error) {
    // Tools built before the failure hold pool references: give them back.
    for (const tool of tools) void Promise.resolve(tool.close?.()).catch(() => undefined);
    throw error;
  }
}
