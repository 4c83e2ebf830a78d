import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { fill, renderResult, templateValues, type Values } from './answer.ts';
import { pathFailures } from './match.ts';
import type { Answer, MCPScenario, ToolSpec } from './schema.ts';
import type { RuleNotification, ScenarioState } from './state.ts';

/**
 * One SDK `Server` (the low-level class, so the scenario decides every capability and answer)
 * for one connection, answering from the mock's shared state.
 */

/** What a connection's server needs from the mock that owns it. */
export interface ServerHost {
  state: ScenarioState;
  /** The server dies: how depends on the transport (exit, closed sessions, closed pairs). */
  crash(): void;
  /** Waits `ms`, or until `signal` aborts or the mock closes (then rejects). */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** Tells every connected client (only those subscribed to `uri`, when given). */
  broadcast(notification: { method: string; params?: Record<string, unknown> }, uri?: string): void;
  /** The resource URIs this connection subscribed to. */
  subscriptions: Set<string>;
}

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: { method: string; params?: Record<string, unknown> }) => Promise<void>;
  sendRequest: (r: { method: string; params?: Record<string, unknown> }, schema: any) => Promise<unknown>;
  closeSSEStream?: () => void;
};

const CLIENT_RESULT_SCHEMAS = {
  'sampling/createMessage': CreateMessageResultSchema,
  'elicitation/create': ElicitResultSchema,
  'roots/list': ListRootsResultSchema,
} as const;

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Capabilities derived from what the scenario declares, with `capabilities` merged over them. */
export function capabilitiesOf(s: MCPScenario): ServerCapabilities {
  const caps: Record<string, unknown> = { logging: {} };
  if (s.tools.length) caps.tools = { listChanged: true };
  if (s.resources.length || s.resourceTemplates.length) caps.resources = { subscribe: true, listChanged: true };
  if (s.prompts.length) caps.prompts = { listChanged: true };
  if (s.completions.length) caps.completions = {};
  return { ...caps, ...s.capabilities } as ServerCapabilities;
}

function listedTool(t: ToolSpec): Record<string, unknown> {
  const { answers: _a, hidden: _h, ...tool } = t;
  return Object.fromEntries(Object.entries(tool).filter(([, v]) => v !== undefined));
}

function strip<T extends Record<string, unknown>>(o: T, drop: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== undefined && !drop.includes(k)));
}

async function runAnswer(host: ServerHost, tool: ToolSpec, answer: Answer, args: Record<string, unknown>, extra: Extra): Promise<Record<string, unknown>> {
  const { state } = host;
  const token = extra._meta?.progressToken;
  const log = async (entry: { level: string; logger?: string; data: unknown }): Promise<void> => {
    const threshold = state.logLevel ? LEVELS.indexOf(state.logLevel) : -1;
    if (LEVELS.indexOf(entry.level) < threshold) return;
    // A scenario that overrides capabilities without logging still runs; the SDK refuses the notification.
    await extra.sendNotification({ method: 'notifications/message', params: strip({ level: entry.level, logger: entry.logger, data: fill(entry.data, templateValues(args)) }, []) }).catch(() => {});
  };
  for (const entry of answer.log ?? []) await log(entry);
  if (answer.closeStream) extra.closeSSEStream?.();
  for (const step of answer.progress ?? []) {
    if (step.delayMs) await host.wait(step.delayMs, extra.signal);
    if (token === undefined) continue;
    await extra.sendNotification({ method: 'notifications/progress', params: strip({ progressToken: token, progress: step.progress, total: step.total, message: step.message }, []) });
  }
  for (const n of answer.notifications ?? []) {
    if (n.method === 'notifications/message') await log(n.params);
    else if (token !== undefined) await extra.sendNotification({ method: n.method, params: { ...n.params, progressToken: token } });
  }
  const responses: unknown[] = [];
  for (const [k, request] of (answer.requests ?? []).entries()) {
    const params = fill(request.params, templateValues(args));
    try {
      const result = await extra.sendRequest({ method: request.method, params }, CLIENT_RESULT_SCHEMAS[request.method]);
      responses.push(result);
      const failed = request.expect ? pathFailures(request.expect, result, `response to ${request.method}`) : [];
      for (const f of failed) state.recordFailure(`tool ${JSON.stringify(tool.name)} requests[${k}]: ${f}`);
    } catch (err) {
      responses.push({ error: (err as Error).message });
      state.recordFailure(`tool ${JSON.stringify(tool.name)} requests[${k}] (${request.method}) failed: ${(err as Error).message}`);
    }
  }
  if (answer.latencyMs) await host.wait(answer.latencyMs, extra.signal);
  if (answer.error) throw new McpError(answer.error.code, answer.error.message, answer.error.data);
  return renderResult(answer, templateValues(args, { progressToken: token, responses }));
}

/** Crash or hang: either way, no answer; the returned promise settles only if the mock closes or the call is cancelled. */
function never(host: ServerHost, signal: AbortSignal): Promise<never> {
  return host.wait(Number.POSITIVE_INFINITY, signal).then(() => {
    throw new McpError(ErrorCode.ConnectionClosed, 'ghostwire: the mock MCP server closed');
  });
}

/** Sends what the `after` rules a call triggered announce. */
function announce(host: ServerHost, notifications: RuleNotification[]): void {
  for (const n of notifications) host.broadcast({ method: n.method, ...(n.uri !== undefined && { params: { uri: n.uri } }) }, n.uri);
}

async function callTool(host: ServerHost, connection: string, name: string, args: Record<string, unknown>, extra: Extra): Promise<Record<string, unknown>> {
  const { state } = host;
  const tool = state.tool(name);
  if (!tool) {
    // Answered (with an error) like any call, so it counts for `after` rules as it did for the server recorded.
    announce(host, state.onCallAnswered(name));
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  }
  const rule = state.onCallStart(name);
  if (rule.crash) {
    host.crash();
    return never(host, extra.signal);
  }
  if (rule.hang) return never(host, extra.signal);
  const selected = state.select(tool, args);
  const record = { connection, tool: name, arguments: args, answer: selected.index, nearMisses: selected.index === null ? selected.nearMisses : [] };
  state.recordCall(record);
  if (selected.index !== null && selected.answer.crash) {
    host.crash();
    return never(host, extra.signal);
  }
  if (selected.index !== null && selected.answer.hang) return never(host, extra.signal);
  try {
    if (selected.index === null) {
      const lines = selected.nearMisses.map((m) => `  answers[${m.answer}]: ${m.failed.join('; ')}`);
      throw new McpError(ErrorCode.InvalidParams, `ghostwire: no answer of tool ${JSON.stringify(name)} matches these arguments${lines.length ? `; near misses:\n${lines.join('\n')}` : ' (the tool has no answers)'}`, { nearMisses: selected.nearMisses });
    }
    return await runAnswer(host, tool, selected.answer, args, extra);
  } finally {
    // Every answered call counts for `after` rules, near misses and errors included.
    announce(host, state.onCallAnswered(name));
  }
}

function readResource(state: ScenarioState, uri: string): Record<string, unknown> {
  const s = state.scenario;
  const content = (text: string | undefined, blob: string | undefined, mimeType: string | undefined, values: Values) =>
    strip({ uri, mimeType, text: text === undefined ? (blob === undefined ? '' : undefined) : fill(text, values), blob }, []);
  const exact = state.resource(uri);
  if (exact) {
    if (exact.error) throw new McpError(exact.error.code, exact.error.message, exact.error.data);
    return { contents: [content(exact.text, exact.blob, exact.mimeType, () => undefined)] };
  }
  for (const t of s.resourceTemplates) {
    const vars = new UriTemplate(t.uriTemplate).match(uri);
    if (vars) return { contents: [content(t.text, t.blob, t.mimeType, templateValues(vars, { uri }))] };
  }
  throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
}

function getPrompt(state: ScenarioState, name: string, args: Record<string, string>): Record<string, unknown> {
  const prompt = state.prompt(name);
  if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} not found`);
  const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length) throw new McpError(ErrorCode.InvalidParams, `Prompt ${prompt.name}: missing required arguments ${missing.join(', ')}`);
  return strip({ description: prompt.description, messages: fill(prompt.messages, templateValues(args)) }, []);
}

/**
 * A Server for one connection of the mock.
 * @example
 *   const server = createScenarioServer(host, 'mem-1');
 *   await server.connect(transport);
 */
export function createScenarioServer(host: ServerHost, connection: string): Server {
  const s = host.state.scenario;
  const info = s.serverInfo ?? { name: s.name, version: '1.0.0' };
  const caps = capabilitiesOf(s);
  const server = new Server(info, { capabilities: caps, ...(s.instructions !== undefined && { instructions: s.instructions }) });
  const st = host.state;
  // The SDK refuses handlers for capabilities the server does not declare: register only those declared.
  const has = (cap: keyof ServerCapabilities) => caps[cap] !== undefined;
  if (has('tools')) {
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: st.listedTools().map(listedTool) }) as any);
    server.setRequestHandler(CallToolRequestSchema, (req, extra) => callTool(host, connection, req.params.name, req.params.arguments ?? {}, extra as unknown as Extra) as any);
  }
  if (has('resources')) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: st.listedResources().map((r) => strip(r, ['text', 'blob', 'error', 'hidden'])) }) as any);
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: s.resourceTemplates.map((r) => strip(r, ['text', 'blob'])) }) as any);
    server.setRequestHandler(ReadResourceRequestSchema, (req) => readResource(st, req.params.uri) as any);
    server.setRequestHandler(SubscribeRequestSchema, (req) => {
      st.subscriptions.add(req.params.uri);
      host.subscriptions.add(req.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
      st.subscriptions.delete(req.params.uri);
      host.subscriptions.delete(req.params.uri);
      return {};
    });
  }
  if (has('prompts')) {
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: st.listedPrompts().map((p) => strip(p, ['messages', 'hidden'])) }) as any);
    server.setRequestHandler(GetPromptRequestSchema, (req) => getPrompt(st, req.params.name, req.params.arguments ?? {}) as any);
  }
  if (has('completions')) {
    server.setRequestHandler(CompleteRequestSchema, (req) => {
      const { ref, argument } = req.params;
      const named = (ref as { name?: string; uri?: string }).name ?? (ref as { uri?: string }).uri;
      const entry = s.completions.find((c) => c.argument === argument.name && c.ref.type === ref.type && (c.ref.type === 'ref/prompt' ? c.ref.name : c.ref.uri) === named);
      const values = (entry?.values ?? []).filter((v) => v.startsWith(argument.value));
      return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
    });
  }
  if (has('logging')) {
    server.setRequestHandler(SetLevelRequestSchema, (req) => {
      st.logLevel = req.params.level;
      return {};
    });
  }
  return server;
}
