/**
 * ghostwire/rollout: a tool environment for agentic RL rollouts, a drop-in for
 * ROLL and GEM users. Wrap any Gymnasium-style text environment with tools (MCP
 * servers over HTTP, python_code, search); load the wiring from ROLL's YAML
 * configs (Hydra defaults, overrides and OmegaConf interpolation).
 */
export { loadRolloutConfig, parseRolloutConfig, RolloutConfigError } from './config.ts';
export type { LoadedRolloutConfig, RolloutConfigOptions } from './config.ts';
export {
  EnvConfigSchema,
  RolloutConfigSchema,
  ToolConfigSchema,
  ToolWrapperConfigSchema,
  WrapperArgsSchema,
} from './config-schema.ts';
export type { EnvConfig, RolloutConfig, ToolConfig, ToolWrapperConfig, ToolWrapperConfigInput, WrapperArgs } from './config-schema.ts';
export type { Env, Info, MaybePromise, ResetOptions, ResetResult, StepResult, Tool, ToolActionResult } from './env.ts';
export { createEnvRegistry, makeRolloutEnv, qaEnvFactory } from './make-env.ts';
export type { EnvFactory } from './make-env.ts';
export { McpClientPool } from './mcp-pool.ts';
export type { McpClientPoolOptions, McpTransportKind } from './mcp-pool.ts';
export { MCPTool } from './mcp-tool.ts';
export type { McpClientLike, MCPToolOptions } from './mcp-tool.ts';
export { extractAnswer, normalizeAnswer, QAEnv, QAFileSchema, QAItemSchema } from './qa-env.ts';
export type { QAEnvOptions, QAItem } from './qa-env.ts';
export { Bm25Index } from './bm25.ts';
export type { SearchBackend, SearchDocument } from './bm25.ts';
export { PythonCodeTool } from './python-code-tool.ts';
export type { PythonCodeToolArgs } from './python-code-tool.ts';
export { Registry } from './registry.ts';
export { SearchTool } from './search-tool.ts';
export type { SearchToolArgs } from './search-tool.ts';
export { exampleFromSchema } from './schema-example.ts';
export { TimeLimit } from './time-limit.ts';
export { ToolEnvWrapper } from './tool-env-wrapper.ts';
export type { ToolEnvWrapperOptions } from './tool-env-wrapper.ts';
export { toolInstructions } from './tool-prompt.ts';
export { createToolRegistry, makeTool, McpToolArgsSchema, registerTool, ToolRegistry } from './tool-registry.ts';
export type { ToolContext, ToolFactory, ToolRegistryOptions } from './tool-registry.ts';
export { toolWrapper } from './tool-wrapper.ts';
