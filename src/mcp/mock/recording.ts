import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { LoggingMessageNotificationSchema, ProgressNotificationSchema, ResultSchema, type JSONRPCRequest, type Progress, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { HttpSessions } from './http.ts';
import { RecordedChanges, toolsListedAfter } from './recorded-changes.ts';
import type { AnswerInput, CallNotification, ContentBlock, MCPScenarioInput, PromptSpec, ResourceSpec, ToolInput } from './schema.ts';

/**
 * Recording a real MCP server: a relay that clients connect to (Streamable HTTP through `handle`,
 * or any transport) and that forwards every request to a client connected to the real server,
 * noting what the server answered. `toScenario()` turns the notes into an MCP scenario that
 * replays them — tools as listed, each call's answer matched on its exact arguments, in order,
 * with the progress and log notifications sent during the call, in the order they came, and the
 * list changes and resource updates between calls as `after` rules (see recorded-changes.ts).
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

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

interface RecordedCall {
  name: string;
  arguments: Json;
  result?: Json;
  error?: { code: number; message: string; data?: unknown };
  notifications: CallNotification[];
}

/** A call in flight: its notes, and how to tell its own caller about a notification. */
interface ActiveCall {
  call: RecordedCall;
  relay: (notification: { method: string; params: Json }) => void;
}

/** Progress as the scenario keeps it (the token is the replaying call's own). */
function progressOf(p: Progress): CallNotification {
  return { method: 'notifications/progress', params: JSON.parse(JSON.stringify({ progress: p.progress, total: p.total, message: p.message })) };
}

export class MCPRecorder {
  readonly name: string;
  readonly #client: Client;
  readonly #http: HttpSessions;
  readonly #servers = new Set<Server>();
  readonly #calls: RecordedCall[] = [];
  /** Tool calls answered (with a result or an error), the anchor of changes between calls. */
  #answered = 0;
  readonly #changes = new RecordedChanges();
  readonly #gets = new Map<string, Json>();
  /** Tool calls in flight, oldest first: a log message is the latest one's (stdio says no more). */
  readonly #active: ActiveCall[] = [];
  /** Progress listeners of the calls in flight, by the token the recorder gave the real server. */
  readonly #progress = new Map<string, (p: Progress) => void>();
  #seq = 0;

  /** `client` is connected to the real server; the recorder does not own it. */
  constructor(name: string, client: Client) {
    this.name = name;
    this.#client = client;
    this.#http = new HttpSessions(async (transport) => void (await this.serve(transport)));
    // The real server's announcements reach the relay's clients. A log message during a tool call is
    // that call's: noted with it and sent on its caller's stream. Progress is matched to its call by token.
    // Progress by our own token rather than the SDK's onprogress: the SDK drops a request's progress
    // handler as its response arrives, before progress that came just ahead of it in the same read is
    // handled (notification handlers run a microtask later), so the last steps were lost
    // (modelcontextprotocol/typescript-sdk#2580).
    client.setNotificationHandler(ProgressNotificationSchema, (n) => {
      const { progressToken, ...progress } = n.params;
      this.#progress.get(String(progressToken))?.(progress);
    });
    client.fallbackNotificationHandler = async (notification) => {
      if (!FORWARDED.has(notification.method)) return;
      const during = this.#active.at(-1);
      // Noted before it reaches the relay's clients, so the list they fetch in answer is the change's.
      this.#changes.notification(notification.method, notification.params as Json | undefined, this.#answered + (during ? 1 : 0));
      const message = LoggingMessageNotificationSchema.safeParse(notification);
      if (message.success && during) {
        const { level, logger, data } = message.data.params;
        during.call.notifications.push({ method: 'notifications/message', params: JSON.parse(JSON.stringify({ level, logger, data: data ?? null })) });
        during.relay({ method: notification.method, params: notification.params as Json });
        return;
      }
      for (const server of this.#servers) await server.notification(notification as never).catch(() => {});
    };
  }

  /** Relays one connection on `transport` to the real server. */
  async serve(transport: Transport): Promise<Server> {
    const info = this.#client.getServerVersion() ?? { name: this.name, version: '0.0.0' };
    const server = new Server(info, { capabilities: this.#client.getServerCapabilities() ?? {}, instructions: this.#client.getInstructions() });
    server.fallbackRequestHandler = (request, extra) => this.#forward(request, extra) as never;
    server.onclose = () => this.#servers.delete(server);
    this.#servers.add(server);
    await server.connect(transport);
    return server;
  }

  /** Streamable HTTP for the relay (sessions by Mcp-Session-Id), for MSW or a port. */
  handle(request: Request): Promise<Response> {
    return this.#http.handle(request);
  }

  async #forward(request: JSONRPCRequest, extra: Extra): Promise<Json> {
    const { signal } = extra;
    const params = (request.params ?? {}) as Json;
    const forwarded = { method: request.method, params };
    if (request.method !== 'tools/call') {
      const result = (await this.#client.request(forwarded as never, ResultSchema.passthrough(), { signal })) as Json;
      this.#changes.result(request.method, params, result);
      if (request.method === 'prompts/get' && !this.#gets.has(String(params.name))) this.#gets.set(String(params.name), result);
      return result;
    }
    const call: RecordedCall = { name: String(params.name), arguments: (params.arguments ?? {}) as Json, notifications: [] };
    this.#calls.push(call);
    const meta = params._meta as { progressToken?: string | number } | undefined;
    const token = meta?.progressToken;
    // Our own token for the real server: asked always, so the recording has progress whether or not
    // this caller asked; the caller is told only with its own token.
    const ours = `ghostwire-recording-${++this.#seq}`;
    forwarded.params = { ...params, _meta: { ...meta, progressToken: ours } };
    // Sent on the caller's own stream; the result waits for them (Streamable HTTP ends the call's stream
    // with its result, so a notification still being sent would be lost).
    const relays: Array<Promise<void>> = [];
    const relay = (n: { method: string; params: Json }): void => void relays.push(extra.sendNotification(n as ServerNotification).catch(() => {}));
    const active: ActiveCall = { call, relay };
    this.#active.push(active);
    this.#progress.set(ours, (p) => {
      call.notifications.push(progressOf(p));
      if (token !== undefined) relay({ method: 'notifications/progress', params: { ...p, progressToken: token } });
    });
    try {
      call.result = (await this.#client.request(forwarded as never, ResultSchema.passthrough(), { signal })) as Json;
      await Promise.all(relays);
      return call.result;
    } catch (err) {
      const e = err as { code?: unknown; message?: string; data?: unknown };
      call.error = { code: typeof e.code === 'number' ? e.code : -32603, message: String(e.message ?? err).replace(/^MCP error -?\d+: /, '') };
      if (e.data !== undefined) call.error.data = e.data;
      await Promise.all(relays);
      throw err;
    } finally {
      this.#answered++;
      this.#active.splice(this.#active.indexOf(active), 1);
      this.#progress.delete(ours);
    }
  }

  /** What was recorded, as an MCP scenario that replays it. */
  toScenario(): MCPScenarioInput {
    const plan = this.#changes.plan();
    const { lists, reads, after } = plan;
    const tools = new Map<string, ToolInput>();
    for (const { definition, hidden } of lists.tools ?? []) tools.set(String(definition.name), { ...definition, ...(hidden && { hidden }), answers: [] } as unknown as ToolInput);
    for (const [i, call] of this.#calls.entries()) {
      if (!call.result && !call.error) continue;
      // Not listed at that point of the replay (removed, or never listed): the mock answers "not found".
      // A client that never listed tools (a plain SDK user calling by name) leaves no list: all are callable.
      if (toolsListedAfter(plan, i)?.has(call.name) === false) continue;
      let tool = tools.get(call.name);
      if (!tool) tools.set(call.name, (tool = { name: call.name, answers: [] }));
      const answer: AnswerInput = { match: { argumentsEqual: call.arguments } };
      if (call.notifications.length) answer.notifications = call.notifications;
      if (call.error) answer.error = call.error;
      else {
        const r = call.result!;
        answer.content = ((r.content as unknown[]) ?? []).map(toBlock);
        if (r.structuredContent) answer.structuredContent = r.structuredContent as Json;
        if (r.isError) answer.isError = true;
      }
      (tool.answers ??= []).push(answer);
    }
    const resources: ResourceSpec[] = (lists.resources ?? []).map(({ definition, hidden }) => {
      const read = reads.get(String(definition.uri));
      return JSON.parse(JSON.stringify({ ...definition, text: read?.text, blob: read?.blob, hidden: hidden || undefined }));
    });
    for (const [uri, read] of reads) {
      if (!resources.some((r) => r.uri === uri)) resources.push(JSON.parse(JSON.stringify({ uri, name: uri, mimeType: read.mimeType, text: read.text, blob: read.blob })));
    }
    const prompts: PromptSpec[] = (lists.prompts ?? []).map(({ definition, hidden }) => {
      const got = this.#gets.get(String(definition.name));
      const messages = ((got?.messages as Json[]) ?? []).map((m) => ({ role: m.role as 'user' | 'assistant', content: toBlock(m.content) }));
      return JSON.parse(JSON.stringify({ ...definition, hidden: hidden || undefined, messages }));
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
        after,
      }),
    ) as MCPScenarioInput;
  }

  /** Ends the relay's connections (not the client to the real server). */
  async close(): Promise<void> {
    await this.#http.closeAll();
    await Promise.all([...this.#servers].map((s) => s.close().catch(() => {})));
  }
}
