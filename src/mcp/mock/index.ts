// ghostwire/mcp: mock MCP servers from scenarios — the format (zod schemas and types), the
// builder, the loader, createMockMCP and its transports (in-memory, MSW, port, stdio via the CLI).

export {
  MCPScenarioSchema,
  ToolSchema,
  AnswerSchema,
  ArgumentsMatchSchema,
  ValueMatchSchema,
  ContentBlockSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  PromptSchema,
  CompletionSchema,
  ClientRequestSchema,
  CallNotificationSchema,
  AfterSchema,
} from './schema.ts';
export type {
  MCPScenario,
  MCPScenarioInput,
  ToolSpec,
  ToolInput,
  Answer,
  AnswerInput,
  ArgumentsMatch,
  ValueMatch,
  ContentBlock,
  ResourceSpec,
  ResourceTemplateSpec,
  PromptSpec,
  CompletionSpec,
  ClientRequestSpec,
  CallNotification,
  AfterRule,
} from './schema.ts';
export { mcpScenario, MCPScenarioBuilder, ToolAnswers } from './builder.ts';
export { loadMCPScenario, parseMCPScenario, MCPScenarioError } from './load.ts';
export { createMockMCP, MockMCP } from './mock-mcp.ts';
export type { MockMCPOptions, MCPScenarioSource, MCPScenarioBuildable } from './mock-mcp.ts';
export type { HttpSessionOptions } from './http.ts';
export type { MCPToolCall, MCPNearMiss } from './state.ts';
export type { MCPJournalEntry, MCPJournal } from './journal.ts';
export { mockMCPHandlers } from './msw.ts';
export { startMockMCPServer } from './node-server.ts';
export type { MockMCPServer, MockMCPServerOptions } from './node-server.ts';
export { mcpGolden } from './mcp-golden.ts';
export type { MCPGolden, MCPGoldenOptions, MCPServerEntry } from './mcp-golden.ts';
