/**
 * The proxy's MCP face: its ten tools, each input described by a zod schema (also its JSON Schema
 * in tools/list), dispatched to ProxyCore, plus the downstream servers' resources (subscriptions
 * included), prompts, completions, logging and list_changed notifications (passthrough.ts). One Server per client session; all share the core.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { registerPassthrough } from './passthrough.ts';
import type { ProxyCore } from './proxy.ts';

const serverArg = z.string().describe('Downstream server name (see list_mcp_servers)');
const toolArg = z.string().describe('Tool name on that server');

interface ProxyTool {
  description: string;
  input: z.ZodObject;
  run: (core: ProxyCore, args: any) => Promise<unknown> | unknown;
}

const TOOLS: Record<string, ProxyTool> = {
  list_mcp_servers: {
    description: 'List the downstream MCP servers with their connection state (configured, connecting, connected, failed), circuit breaker state, connected_at, last_error and last refresh summary.',
    input: z.object({}),
    run: (core) => core.listServers(),
  },
  list_tools: {
    description: 'List tools with brief descriptions, for one server (connecting it if needed) or all. Tools of servers whose circuit is open are marked available: false.',
    input: z.object({ server: serverArg.optional(), include_metrics: z.boolean().optional().describe('Add success rate, latency and call count') }),
    run: (core, a) => core.listTools(a),
  },
  get_tool_schema: {
    description: 'Get the full description and input schema of one tool.',
    input: z.object({ server: serverArg, tool: toolArg }),
    run: (core, a) => core.getToolSchema(a.server, a.tool),
  },
  call_tool: {
    description: 'Call a tool on a downstream server. Arguments are validated against the tool input schema first. On failure the result has isError and a separate fallback_suggestions field with similar tools; decide yourself whether to use one.',
    input: z.object({
      server: serverArg, tool: toolArg,
      arguments: z.record(z.string(), z.unknown()).optional().describe('The tool arguments'),
      include_fallbacks: z.boolean().optional().describe('Suggest alternatives on failure (default true)'),
    }),
    run: (core, a) => core.callTool(a.server, a.tool, a.arguments ?? {}, { include_fallbacks: a.include_fallbacks }),
  },
  recommend_tools: {
    description: 'Recommend the tools best suited to a task. search_mode: semantic (search only), hybrid (search, then LLM re-ranking of the short list), llm (LLM over all tools). Reliability is factored in.',
    input: z.object({
      task: z.string().min(1).describe('What you want to do'),
      search_mode: z.enum(['semantic', 'hybrid', 'llm']).optional(),
      top_k: z.number().int().positive().max(50).optional(),
      server: serverArg.optional(),
    }),
    run: (core, a) => core.recommendTools(a.task, a),
  },
  search_tools: {
    description: 'Search tools by meaning (embeddings) or, without an embeddings API, by BM25 over names, descriptions and parameter names.',
    input: z.object({
      query: z.string().min(1),
      top_k: z.number().int().positive().max(100).optional(),
      min_similarity: z.number().min(0).max(1).optional(),
      server: serverArg.optional(),
    }),
    run: (core, a) => core.searchTools(a.query, a),
  },
  get_tool_metrics: {
    description: 'Call metrics per tool (machine-global): call/success/failure counts, success rate, average latency, last error; plus the top and failing tools.',
    input: z.object({
      server: serverArg.optional(), tool: toolArg.optional(),
      failing_threshold: z.number().min(0).max(1).optional().describe('Success rate below which a tool counts as failing (default 0.5)'),
      limit: z.number().int().positive().optional(),
    }),
    run: (core, a) => core.getToolMetrics(a),
  },
  reset_tool_metrics: {
    description: 'Delete recorded metrics (admin), for one tool, one server or everything.',
    input: z.object({ server: serverArg.optional(), tool: toolArg.optional() }),
    run: (core, a) => core.resetToolMetrics(a),
  },
  get_tool_alternatives: {
    description: 'Tools similar to the given one, ranked by similarity x success rate x recency, same server preferred.',
    input: z.object({ server: serverArg, tool: toolArg, limit: z.number().int().positive().max(20).optional() }),
    run: (core, a) => core.getToolAlternatives(a.server, a.tool, a.limit),
  },
  refresh_tools: {
    description: 'Re-read tool lists from downstream servers; only changed tools are re-indexed. Reports added, updated, removed and unchanged.',
    input: z.object({ server: serverArg.optional(), force: z.boolean().optional().describe('Re-index every tool regardless of hashes') }),
    run: (core, a) => core.refreshTools(a),
  },
};

/**
 * The proxy's tool list as MCP advertises it.
 * @example
 *   proxyToolList().map((t) => t.name) // ['list_mcp_servers', 'list_tools', ...]
 */
export function proxyToolList(): Tool[] {
  return Object.entries(TOOLS).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input, { io: 'input' }) as Tool['inputSchema'],
  }));
}

const asJson = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
  ...(isError ? { isError: true } : {}),
});

/**
 * Runs one proxy tool; errors become isError results naming the problem.
 * @example
 *   await runProxyTool(core, 'list_mcp_servers', {});
 */
export async function runProxyTool(core: ProxyCore, name: string, args: unknown): Promise<CallToolResult> {
  const tool = TOOLS[name];
  if (!tool) return asJson({ error: `unknown tool "${name}": the proxy offers ${Object.keys(TOOLS).join(', ')}` }, true);
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`);
    return asJson({ error: `invalid arguments for ${name}: ${problems.join('; ')}` }, true);
  }
  try {
    const result = await tool.run(core, parsed.data);
    return name === 'call_tool' ? (result as CallToolResult) : asJson(result);
  } catch (err) {
    return asJson({ error: (err as Error).message }, true);
  }
}

export interface ProxyServerOptions {
  /**
   * Advertise and serve resources/subscribe. Default: whether a connected (or remembered) downstream
   * server supports it; `McpProxy` decides with `core.passthrough.canSubscribe()`, which first waits
   * (bounded) for servers that are connecting.
   */
  subscribe?: boolean;
}

/**
 * An MCP Server offering the proxy's tools over any transport.
 * @example
 *   await createProxyMcpServer(core).connect(new StdioServerTransport());
 */
export function createProxyMcpServer(core: ProxyCore, options: ProxyServerOptions = {}): Server {
  const subscribe = options.subscribe ?? core.passthrough.knownToSubscribe();
  // listChanged: the servers' own list_changed notifications are forwarded; tools/list_changed follows
  // a downstream server's, once the proxy re-indexed that server and found a change.
  const server = new Server({ name: 'ghostwire-proxy', version: '0.1.0' }, {
    capabilities: {
      tools: { listChanged: true }, resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) },
      prompts: { listChanged: true }, completions: {}, logging: {},
    },
  });
  registerPassthrough(server, core.passthrough, core, { subscribe });
  const tools = proxyToolList();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => runProxyTool(core, request.params.name, request.params.arguments));
  return server;
}
