import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { createDeadline, raceAbort } from './deadline.ts';
import type { Tool, ToolActionResult } from './env.ts';
import { listAllTools, McpServerEntrySchema, type McpServerEntryInput } from '../mcp/index.ts';
import { McpClientPool, type McpConnection, type McpTransportKind } from './mcp-pool.ts';
import { capText } from './observation.ts';
import { jsonschemaErrorText } from './jsonschema-message.ts';
import { ParamsValidator } from './params-validator.ts';
import { decodeToolCall, findToolCall } from './tool-call.ts';
import { ROLL_EMPTY_ERROR, ROLL_EMPTY_SUCCESS, rollExecutionError, rollResultText, rollToolPrompt, rollUnknownTool, rollValidationError } from './roll-messages.ts';

/** The part of an MCP SDK `Client` that MCPTool uses; a connected `Client` fits. */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignal; timeout?: number }): Promise<{ tools: McpToolInfo[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: { signal?: AbortSignal; timeout?: number }): Promise<unknown>;
}

/** Options for {@link MCPTool}. */
export interface MCPToolOptions {
  /** The server's HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`, or an SSE endpoint such as ROLL's `…/sse`. */
  serverUrl?: string;
  /** Any `.mcp.json` server entry (stdio, Streamable HTTP or SSE); used instead of `serverUrl`. */
  server?: McpServerEntryInput;
  /**
   * A client the caller connected and owns (MCPTool never closes it); used instead of `serverUrl`.
   * Its tool list is cached for the tool's life: MCPTool does not take over the client's
   * `notifications/tools/list_changed` handler (the SDK keeps one per notification, and it is the owner's).
   */
  client?: McpClientLike;
  /** Offer only these of the server's tools. */
  toolNamesSubset?: string[];
  /** Used as the instructions instead of the generated ones. */
  customPrompt?: string;
  /** One overall limit for connecting, listing and calling, per action. Default 30000. */
  timeoutMs?: number;
  /** Default `sse` for a URL whose path ends in `/sse` (as in ROLL's configs), else `streamable-http`. */
  transport?: McpTransportKind;
  /** Share connections with other tools; without one the tool owns a private pool. */
  pool?: McpClientPool;
  /**
   * Longer results are cut, ending with a marker that says how much was cut. Default 8000;
   * `null` keeps results whole, as ROLL does.
   */
  maxObservationChars?: number | null;
}

/**
 * A tool backed by an MCP server. It connects on first use, not when built:
 * `instructionString()` (called by the wrapper's `reset`) or a `<tool_call>`
 * action opens the connection, lists and caches the tools. Actions look like
 * `<tool_call>{"tool_name": "search", "tool_params": {"query": "x"}}</tool_call>` (ROLL) or
 * `<tool_call><tool_name>search</tool_name><arguments>{"query": "x"}</arguments></tool_call>` (GEM);
 * every text the agent reads is ROLL's (docs/rollout-compat.md).
 *
 * @example
 * const tool = new MCPTool({ serverUrl: 'http://127.0.0.1:3000/mcp', timeoutMs: 5000 });
 * const prompt = await tool.instructionString();
 * const { isParsed, isValid, observation } = await tool.executeAction('<tool_call>{"tool_name":"echo","tool_params":{"text":"hi"}}</tool_call>');
 * await tool.close();
 */
export class MCPTool implements Tool {
  readonly toolType = 'mcp';
  readonly serverUrl: string | undefined;
  readonly timeoutMs: number;
  readonly transport: McpTransportKind;
  readonly maxObservationChars: number | null;
  readonly #client: McpClientLike | undefined;
  readonly #server: McpServerEntryInput | undefined;
  readonly #subset: string[] | undefined;
  readonly #customPrompt: string | undefined;
  readonly #pool: McpClientPool | undefined;
  readonly #ownsPool: boolean;
  readonly #validator = new ParamsValidator();
  #connection: McpConnection | undefined;
  #closed = false;

  constructor(options: MCPToolOptions) {
    if (!options.client && !options.serverUrl && !options.server) throw new Error("MCPTool: either 'client' or 'serverUrl' must be provided (or a .mcp.json 'server' entry)");
    if (options.server && !options.client) {
      const parsed = McpServerEntrySchema.safeParse(options.server);
      if (!parsed.success) throw new Error(`MCPTool: invalid server entry: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ')}`);
    }
    if (options.serverUrl && !options.client && !options.server) {
      try {
        const url = new URL(options.serverUrl);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`protocol ${url.protocol}`);
      } catch (error) {
        throw new Error(`MCPTool: serverUrl ${JSON.stringify(options.serverUrl)} is not an http(s) URL (${(error as Error).message})`, { cause: error });
      }
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!(timeoutMs > 0)) throw new Error(`MCPTool: timeoutMs must be a positive number, got ${timeoutMs}`);
    this.serverUrl = options.serverUrl ?? (options.server && 'url' in options.server ? options.server.url : undefined);
    this.#server = options.server;
    this.timeoutMs = timeoutMs;
    // What connect() would pick for this URL (ROLL's URLs end in /sse); Streamable HTTP still falls back to SSE on a 4xx.
    this.transport = options.transport ?? (/\/sse\/?$/.test(options.serverUrl?.split(/[?#]/)[0] ?? '') ? 'sse' : 'streamable-http');
    this.maxObservationChars = options.maxObservationChars === undefined ? 8000 : options.maxObservationChars;
    this.#client = options.client;
    this.#subset = options.toolNamesSubset;
    this.#customPrompt = options.customPrompt;
    this.#ownsPool = !options.client && !options.pool;
    this.#pool = options.client ? undefined : (options.pool ?? new McpClientPool());
  }

  /** Whether a connection has been asked for yet (lazy connection is observable). */
  get connectionRequested(): boolean {
    return this.#connection !== undefined;
  }

  /**
   * The tools this MCPTool offers (the server's, narrowed to `toolNamesSubset`); connects on first call.
   *
   * @example
   * const names = (await tool.tools()).map((t) => t.name);
   */
  async tools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const deadline = createDeadline(this.timeoutMs, this.#target());
    deadline.phase = 'connecting and listing tools';
    try {
      return await this.#tools(signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal);
    } finally {
      deadline.dispose();
    }
  }

  /**
   * The custom prompt, or instructions generated from the tools. Connects on first call
   * (so `reset` fails loudly when the server is unreachable).
   *
   * @example
   * const text = await tool.instructionString();
   */
  async instructionString(): Promise<string> {
    const tools = await this.tools();
    return this.#customPrompt || rollToolPrompt(tools);
  }

  /**
   * Handles an action: `isParsed` false when it has no `<tool_call>`; otherwise
   * `[Validation Error: ...]` for bad JSON, an unknown tool or params that fail
   * the tool's schema, `[Execution Error: ...]` when the call fails or the server
   * reports an error, and `<information>...</information>` on success. Never throws.
   *
   * @example
   * const r = await tool.executeAction('<tool_call>{"tool_name":"add","tool_params":{"a":1,"b":2}}</tool_call>');
   * // { isParsed: true, isValid: true, observation: '<information>3</information>', ... }
   */
  async executeAction(action: string): Promise<ToolActionResult> {
    const found = findToolCall(action);
    if (!found) return { isParsed: false, isValid: false, observation: '', parsedAction: action };
    const { parsedAction } = found;
    // Every text below is ROLL's (roll-messages.ts); only the cap on long results is ghostwire's.
    const fail = (observation: string, toolName?: string): ToolActionResult => ({
      isParsed: true,
      isValid: false,
      observation,
      parsedAction,
      ...(toolName ? { toolName } : {}),
    });
    let call;
    try {
      call = decodeToolCall(found);
    } catch (error) {
      return fail(rollValidationError(this.#cap((error as Error).message)));
    }
    if (this.#closed) return fail(rollExecutionError('the MCP tool is closed'), call.toolName);
    const deadline = createDeadline(this.timeoutMs, this.#target());
    try {
      deadline.phase = 'connecting and listing tools';
      let tools: McpToolInfo[];
      try {
        tools = await this.#tools(deadline.signal);
      } catch (error) {
        return fail(rollExecutionError(`could not list the tools of ${this.#target()}: ${describeError(error)}`), call.toolName);
      }
      const tool = tools.find((t) => t.name === call.toolName);
      if (!tool) return fail(rollValidationError(rollUnknownTool(call.toolName, tools.map((t) => t.name))), call.toolName);
      const errors = this.#validator.errors(tool.inputSchema, call.toolParams);
      if (errors.length > 0) {
        // ROLL's reason is jsonschema's text; the short line stands in should no error be picked.
        const reason = jsonschemaErrorText(errors, tool.inputSchema, call.toolParams) ?? this.#validator.check(tool.inputSchema, call.toolParams) ?? 'invalid params';
        return fail(rollValidationError(this.#cap(reason)), tool.name);
      }
      deadline.phase = `calling ${tool.name}`;
      let result: CallToolResult;
      try {
        result = await this.#conn().callTool(tool.name, call.toolParams, deadline.signal);
      } catch (error) {
        return fail(rollExecutionError(this.#cap(describeError(error))), tool.name);
      }
      const text = rollResultText(result);
      if (result.isError) return fail(text ? rollExecutionError(this.#cap(text)) : ROLL_EMPTY_ERROR, tool.name);
      return {
        isParsed: true,
        isValid: true,
        observation: text ? `<information>${this.#cap(text)}</information>` : ROLL_EMPTY_SUCCESS,
        parsedAction,
        toolName: tool.name,
        ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
      };
    } finally {
      deadline.dispose();
    }
  }

  #cap(text: string): string {
    return this.maxObservationChars === null ? text : capText(text, this.maxObservationChars);
  }

  /** Releases the connection (the last holder of a pooled one closes it). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.release();
    if (this.#ownsPool) await this.#pool?.close();
  }

  async #tools(signal: AbortSignal): Promise<McpToolInfo[]> {
    const all = await this.#conn().tools(signal);
    if (!this.#subset) return all;
    const missing = this.#subset.filter((name) => !all.some((t) => t.name === name));
    if (missing.length > 0) {
      throw new Error(`toolNamesSubset names tools the server does not have: ${missing.join(', ')} (server has: ${all.map((t) => t.name).join(', ')})`);
    }
    return all.filter((t) => this.#subset?.includes(t.name));
  }

  #conn(): McpConnection {
    if (this.#closed) throw new Error('the MCP tool is closed');
    this.#connection ??= this.#client ? directConnection(this.#client) : this.#pool!.acquire(this.#server ?? this.serverUrl!, this.transport);
    return this.#connection;
  }

  #target(): string {
    if (this.#server && 'command' in this.#server) return [this.#server.command, ...(this.#server.args ?? [])].join(' ');
    return this.serverUrl ?? '(given client)';
  }
}

/** Wraps a caller-owned client: tools cached, no reconnection, never closed here. */
function directConnection(client: McpClientLike): McpConnection {
  let tools: Promise<McpToolInfo[]> | undefined;
  const options = (signal: AbortSignal) => ({ signal, timeout: 2 ** 31 - 1 });
  return {
    tools(signal) {
      tools ??= listAllTools(client, { signal });
      tools.catch(() => {
        tools = undefined;
      });
      return raceAbort(tools, signal);
    },
    async callTool(name, args, signal) {
      return (await raceAbort(client.callTool({ name, arguments: args }, undefined, options(signal)), signal)) as CallToolResult;
    },
    release: async () => undefined,
  };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's fetch hides the useful part (ECONNREFUSED, UND_ERR_SOCKET) in the cause.
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
