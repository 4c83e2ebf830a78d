import { resolve } from 'node:path';
import { z } from 'zod';
import { McpServerEntrySchema } from '../mcp/index.ts';
import type { Tool } from './env.ts';
import { McpClientPool } from './mcp-pool.ts';
import { MCPTool, type McpClientLike } from './mcp-tool.ts';
import { PythonCodeTool } from './python-code-tool.ts';
import { Registry } from './registry.ts';
import { SearchTool } from './search-tool.ts';

/** What a tool factory gets besides its args: the registry's shared MCP client pool. */
export interface ToolContext {
  pool: McpClientPool;
  /** Where relative paths in the args are resolved (the config file's folder); default the working directory. */
  baseDir?: string;
}

/** Builds a tool from its (snake_case, config-style) args. */
export type ToolFactory = (args: Record<string, unknown>, context: ToolContext) => Tool;

/** Options for {@link createToolRegistry}. */
export interface ToolRegistryOptions {
  /** The pool MCP tools made here share; by default the registry creates (and owns) one. */
  pool?: McpClientPool;
  /** Register the built-in tools (`mcp`, `python_code`, `search`, as ROLL registers them). Default true. */
  builtins?: boolean;
}

/** The args of the built-in `mcp` tool, as written under `tool_args` (the seed's snake_case names). */
export const McpToolArgsSchema = z.strictObject({
  server_url: z.string().min(1).optional(),
  /** Any `.mcp.json` server entry (stdio, Streamable HTTP, SSE), instead of server_url. */
  server: McpServerEntrySchema.optional(),
  client: z.custom<McpClientLike>((v) => typeof v === 'object' && v !== null && 'callTool' in v, 'expected an MCP client').optional(),
  tool_names_subset: z.array(z.string().min(1)).nullable().optional(),
  custom_prompt: z.string().nullable().optional(),
  timeout_ms: z.coerce.number().positive().optional(),
  transport: z.enum(['streamable-http', 'sse']).optional(),
  /** Results longer than this are cut, with a marker (default 8000); null keeps them whole, as ROLL does. */
  max_observation_chars: z.coerce.number().int().positive().nullable().optional(),
  /** Accepted for configs written for the Python original; concurrency is the pool's cap here. */
  num_workers: z.coerce.number().int().positive().optional(),
});

/** The `mcp` factory: validates the args, then builds an MCPTool on the registry's pool. */
const mcpToolFactory: ToolFactory = (args, { pool }) => {
  const parsed = McpToolArgsSchema.safeParse(args);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.') || '(args)'}: ${i.message}`).join('; ');
    throw new Error(`tool "mcp": invalid tool_args: ${details} (expected server_url, server, client, tool_names_subset, custom_prompt, timeout_ms, transport, max_observation_chars)`);
  }
  const a = parsed.data;
  return new MCPTool({
    serverUrl: a.server_url,
    server: a.server,
    client: a.client,
    toolNamesSubset: a.tool_names_subset ?? undefined,
    customPrompt: a.custom_prompt ?? undefined,
    timeoutMs: a.timeout_ms,
    transport: a.transport,
    maxObservationChars: a.max_observation_chars,
    pool,
  });
};

/**
 * The tool registry: ids to factories with default args, and the MCP client pool
 * its tools share. Each registry is an independent instance; `python_code`,
 * `search` and `mcp` are registered out of the box, as in ROLL.
 *
 * @example
 * const registry = createToolRegistry();
 * registry.register('calculator', (args) => new Calculator(args), { precision: 2 });
 * const tool = registry.make('mcp', { server_url: 'http://127.0.0.1:3000/mcp' });
 * await registry.close();
 */
export class ToolRegistry {
  readonly pool: McpClientPool;
  readonly #table = new Registry<ToolFactory>('tool');
  readonly #ownsPool: boolean;

  constructor(options: ToolRegistryOptions = {}) {
    this.#ownsPool = !options.pool;
    this.pool = options.pool ?? new McpClientPool();
    if (options.builtins !== false) {
      this.#table.add('python_code', (args) => new PythonCodeTool(args));
      this.#table.add('search', (args, { baseDir }) =>
        new SearchTool(typeof args.documents_file === 'string' && baseDir ? { ...args, documents_file: resolve(baseDir, args.documents_file) } : args),
      );
      this.#table.add('mcp', mcpToolFactory);
    }
  }

  /** Adds a tool under `id` with default args; a duplicate id is an error. */
  register(id: string, factory: ToolFactory, defaults: Record<string, unknown> = {}): this {
    this.#table.add(id, factory, defaults);
    return this;
  }

  /** Builds tool `id` from its registered defaults merged with `args` (args win); `baseDir` resolves relative paths. */
  make(id: string, args: Record<string, unknown> = {}, options: { baseDir?: string } = {}): Tool {
    const { factory, args: merged } = this.#table.resolve(id, args);
    return factory(merged, { pool: this.pool, baseDir: options.baseDir });
  }

  has(id: string): boolean {
    return this.#table.has(id);
  }

  ids(): string[] {
    return this.#table.ids();
  }

  /** Closes the pool if the registry created it (tools should be closed first, by their wrappers). */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.pool.close();
  }
}

/**
 * A new registry with the built-in tools. This factory is the "default
 * registry": there is no process-wide one, so registrations never leak between
 * tests or rollouts.
 *
 * @example
 * const registry = createToolRegistry({ pool: new McpClientPool({ maxConcurrency: 4 }) });
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  return new ToolRegistry(options);
}

/**
 * The seed's `register_tools(tool_id, entry_point)`. It registers into `registry`,
 * or into a new default registry when none is given, and returns that registry
 * so later calls can use it. A duplicate id is an error (including `mcp`, which
 * every default registry already has).
 *
 * @example
 * const registry = registerTool('echo', () => echoTool, { defaults: { prefix: '>' } });
 * registerTool('clock', () => clockTool, { registry });
 * const echo = makeTool('echo', {}, { registry });
 */
export function registerTool(
  id: string,
  factory: ToolFactory,
  options: { registry?: ToolRegistry; defaults?: Record<string, unknown> } = {},
): ToolRegistry {
  const registry = options.registry ?? createToolRegistry();
  registry.register(id, factory, options.defaults);
  return registry;
}

/**
 * The seed's `make_tool(tool_id, **tool_args)`: registered defaults merged with
 * `args`. Without a registry it uses a new default registry (built-ins only).
 *
 * @example
 * const tool = makeTool('mcp', { server_url: 'http://127.0.0.1:3000/mcp' });
 */
export function makeTool(id: string, args: Record<string, unknown> = {}, options: { registry?: ToolRegistry } = {}): Tool {
  return (options.registry ?? createToolRegistry()).make(id, args);
}
