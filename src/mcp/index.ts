// The MCP client layer the ghost, the proxy and the rollout env share: one `.mcp.json` schema, one
// connect (process groups, SSE fallback, session-gone detection), one paged tool listing, one
// argument validator, one idle expiry for Streamable HTTP sessions. (The mock MCP server lives in ./mock/.)
export {
  McpConfigSchema, McpServerEntrySchema, StdioEntrySchema, HttpEntrySchema,
  parseMcpConfig, formatConfigIssues, transportOf, isStdioEntry,
} from './config.ts';
export type { McpConfig, McpConfigInput, McpServerEntry, McpServerEntryInput, StdioEntry, HttpEntry, TransportKind } from './config.ts';
export { connect, isSessionGone } from './connect.ts';
export type { ConnectOptions, McpSession } from './connect.ts';
export { GroupStdioTransport } from './stdio-transport.ts';
export type { GroupStdioOptions } from './stdio-transport.ts';
export { listAllPages, listAllTools } from './list-tools.ts';
export type { ListToolsOptions, ToolLister } from './list-tools.ts';
export { ArgumentValidator, formatArgumentIssues } from './validate-args.ts';
export type { ArgumentIssue, ArgumentValidatorOptions, SchemaDraft } from './validate-args.ts';
export { IdleExpiry } from './idle-expiry.ts';
