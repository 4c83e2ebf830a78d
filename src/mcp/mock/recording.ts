import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ResultSchema, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { HttpSessions } from './http.ts';
import type { AnswerInput, ContentBlock, MCPScenarioInput, PromptSpec, ResourceSpec, ToolInput } from './schema.ts';

/**
 * Recording a real MCP server: a relay that clients connect to (Streamable HTTP through `handle`,
 * or any transport) and that forwards every request to a client connected to the real server,
 * noting what the server answered. `toScenario()` turns the notes into an MCP scenario that
 * replays them — tools as listed, each call's answer matched on its exact arguments, in order.
 */

type Json = Record<string, unknown>;

const KEEP: Record<string, string[]> = {
  text: ['type', 'text', 'annotations', '_meta'],
  image: ['type', 'data', 'mimeType', 'annotations', '_meta'],
  audio: ['type', 'data', 'mimeType', 'annotations', '_meta'],
  resource: ['type', 'resource', 'annotations', '_meta'],
  resource_link: ['type', 'uri', 'name', 'title', 'description', 'mimeType', 'annotations', '_meta'],
};

/** A content block as the scenario format takes it (fields the format does not know are dropped). */
function toBlock(block: unknown): ContentBlock {
  const b = (block ?? {}) as Json;
  const keep = KEEP[String(b.type)];
  if (!keep) return { type: 'text', text: JSON.stringify(block) };
  const out = Object.fromEntries(Object.entries(b).filter(([k]) => keep.includes(k)));
  if (out.resource) {
    const { uri, mimeType, text, blob, _meta } = out.resource as Json;
    out.resource = Object.fromEntries(Object.entries({ uri, mimeType, text, blob, _meta }).filter(([, v]) => v !== undefined));
  }
  return out as ContentBlock;
}

const FORWARDED = new Set(['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/updated', 'notifications/message']);

interface RecordedCall {
  name: string;
  arguments: Json;
  result?: Json;
  error?: { code: number; message: string; data?: unknown };
}

export class MCPRecorder {
  readonly name: string;
  readonly #client: Client;
  readonly #http: HttpSessions;
  readonly #servers = new Set<Server>();
  #tools: Json[] | undefined;
  readonly #calls: RecordedCall[] = [];
  #resources: Json[] | undefined;
  readonly #reads = new Map<string, Json>();
  #prompts: Json[] | undefined;
  readonly #gets = new Map<string, Json>();

  /** `client` is connected to the real server; the recorder does not own it. */
  constructor(name: string, client: Client) {
    this.name = name;
    this.#client = client;
    this.#http = new HttpSessions(async (transport) => void (await this.serve(transport)));
    // The real server's announcements reach the relay's clients (progress is not relayed: its tokens are per connection).
    client.fallbackNotificationHandler = async (notification) => {
      if (!FORWARDED.has(notification.method)) return;
      for (const server of this.#servers) await server.notification(notification as never).catch(() => {});
    };
  }

  /** Relays one connection on `transport` to the real server. */
  async serve(transport: Transport): Promise<Server> {
    const info = this.#client.getServerVersion() ?? { name: this.name, version: '0.0.0' };
    const server = new Server(info, { capabilities: this.#client.getServerCapabilities() ?? {}, instructions: this.#client.getInstructions() });
    server.fallbackRequestHandler = (request, extra) => this.#forward(request, extra.signal) as never;
    server.onclose = () => this.#servers.delete(server);
    this.#servers.add(server);
    await server.connect(transport);
    return server;
  }

  /** Streamable HTTP for the relay (sessions by Mcp-Session-Id), for MSW or a port. */
  handle(request: Request): Promise<Response> {
    return this.#http.handle(request);
  }

  async #forward(request: JSONRPCRequest, signal: AbortSignal): Promise<Json> {
    const params = (request.params ?? {}) as Json;
    const forwarded = { method: request.method, params };
    if (request.method !== 'tools/call') {
      const result = (await this.#client.request(forwarded as never, ResultSchema.passthrough(), { signal })) as Json;
      this.#note(request.method, params, result);
      return result;
    }
    const call: RecordedCall = { name: String(params.name), arguments: (params.arguments ?? {}) as Json };
    this.#calls.push(call);
    try {
      call.result = (await this.#client.request(forwarded as never, ResultSchema.passthrough(), { signal })) as Json;
      return call.result;
    } catch (err) {
      const e = err as { code?: unknown; message?: string; data?: unknown };
      call.error = { code: typeof e.code === 'number' ? e.code : -32603, message: String(e.message ?? err).replace(/^MCP error -?\d+: /, '') };
      if (e.data !== undefined) call.error.data = e.data;
      throw err;
    }
  }

  #note(method: string, params: Json, result: Json): void {
    if (method === 'tools/list' && !params.cursor) this.#tools = result.tools as Json[];
    else if (method === 'tools/list') this.#tools = [...(this.#tools ?? []), ...((result.tools as Json[]) ?? [])];
    else if (method === 'resources/list') this.#resources = result.resources as Json[];
    else if (method === 'resources/read') this.#reads.set(String(params.uri), ((result.contents as Json[]) ?? [])[0] ?? {});
    else if (method === 'prompts/list') this.#prompts = result.prompts as Json[];
    else if (method === 'prompts/get') this.#gets.set(String(params.name), result);
  }

  /** What was recorded, as an MCP scenario that replays it. */
  toScenario(): MCPScenarioInput {
    const tools = new Map<string, ToolInput>();
    for (const t of this.#tools ?? []) {
      const { name, title, description, inputSchema, outputSchema, annotations, _meta } = t;
      tools.set(String(name), JSON.parse(JSON.stringify({ name, title, description, inputSchema, outputSchema, annotations, _meta, answers: [] })));
    }
    for (const call of this.#calls) {
      if (!call.result && !call.error) continue;
      let tool = tools.get(call.name);
      if (!tool) tools.set(call.name, (tool = { name: call.name, hidden: true, answers: [] }));
      const answer: AnswerInput = { match: { argumentsEqual: call.arguments } };
      if (call.error) answer.error = call.error;
      else {
        const r = call.result!;
        answer.content = ((r.content as unknown[]) ?? []).map(toBlock);
        if (r.structuredContent) answer.structuredContent = r.structuredContent as Json;
        if (r.isError) answer.isError = true;
      }
      (tool.answers ??= []).push(answer);
    }
    const resources: ResourceSpec[] = (this.#resources ?? []).map((r) => {
      const read = this.#reads.get(String(r.uri));
      return JSON.parse(JSON.stringify({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, text: read?.text, blob: read?.blob }));
    });
    for (const [uri, read] of this.#reads) {
      if (!resources.some((r) => r.uri === uri)) resources.push(JSON.parse(JSON.stringify({ uri, name: uri, mimeType: read.mimeType, text: read.text, blob: read.blob })));
    }
    const prompts: PromptSpec[] = (this.#prompts ?? []).map((p) => {
      const got = this.#gets.get(String(p.name));
      const messages = ((got?.messages as Json[]) ?? []).map((m) => ({ role: m.role as 'user' | 'assistant', content: toBlock(m.content) }));
      return JSON.parse(JSON.stringify({ name: p.name, title: p.title, description: p.description, arguments: p.arguments, messages }));
    });
    const info = this.#client.getServerVersion();
    return JSON.parse(
      JSON.stringify({
        name: this.name,
        serverInfo: info ? { name: info.name, version: info.version, title: info.title } : undefined,
        instructions: this.#client.getInstructions(),
        capabilities: this.#client.getServerCapabilities(),
        tools: [...tools.values()],
        resources,
        prompts,
      }),
    ) as MCPScenarioInput;
  }

  /** Ends the relay's connections (not the client to the real server). */
  async close(): Promise<void> {
    await this.#http.closeAll();
    await Promise.all([...this.#servers].map((s) => s.close().catch(() => {})));
  }
}
