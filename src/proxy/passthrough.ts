/**
 * What a client behind the proxy would otherwise lose: downstream resources, resource templates,
 * prompts and completions, passed through and namespaced like tools (names `server/name`; resource
 * URIs kept, routed back by the listing that named them), and logging/setLevel honoured with the
 * downstream servers' log messages forwarded (logger `server[/logger]`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema, SetLevelRequestSchema,
  type LoggingLevel, type LoggingMessageNotification, type Prompt, type Resource, type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { listAllPages } from '../mcp/index.ts';

/** A connected downstream server. */
export interface Reachable {
  server: string;
  client: Client;
}

/** What passthrough needs from the proxy core. */
export interface PassthroughHost {
  /** Connected servers, after a bounded wait for ones still connecting. */
  reachable(): Promise<Reachable[]>;
  /** Sets the level on every connected server that logs (and on servers connecting later). */
  setLogLevel(level: LoggingLevel): Promise<void>;
  /** Subscribes to downstream log messages; returns the unsubscribe. */
  onLog(listener: (server: string, params: LoggingMessageNotification['params']) => void): () => void;
}

const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const SERVER_META = 'ghostwire/server';

function splitName(name: string): [string, string] {
  const slash = name.indexOf('/');
  if (slash <= 0) throw new McpError(ErrorCode.InvalidParams, `expected a namespaced name "server/name", got ${JSON.stringify(name)}`);
  return [name.slice(0, slash), name.slice(slash + 1)];
}

/**
 * Routing state shared by every session of one proxy: which server listed which resource URI or template.
 * @example
 *   registerPassthrough(server, new Passthrough(host));
 */
export class Passthrough {
  private readonly host: PassthroughHost;
  private owners = new Map<string, string>();
  private templates: Array<{ server: string; template: UriTemplate }> = [];

  constructor(host: PassthroughHost) {
    this.host = host;
  }

  private async each<T>(capability: 'resources' | 'prompts', list: (r: Reachable) => Promise<T[]>): Promise<Array<{ server: string; items: T[] }>> {
    const servers = (await this.host.reachable()).filter((r) => r.client.getServerCapabilities()?.[capability]);
    // One server failing to list must not hide the others.
    return Promise.all(servers.map(async (r) => ({ server: r.server, items: await list(r).catch(() => [] as T[]) })));
  }

  async listResources(): Promise<Resource[]> {
    const all = await this.each('resources', ({ client }) => listAllPages((cursor) => client.listResources(cursor ? { cursor } : {}), (p) => p.resources));
    const owners = new Map<string, string>();
    const out: Resource[] = [];
    for (const { server, items } of all) {
      for (const r of items) {
        if (!owners.has(r.uri)) owners.set(r.uri, server);
        out.push({ ...r, name: `${server}/${r.name}`, _meta: { ...r._meta, [SERVER_META]: server } });
      }
    }
    this.owners = owners;
    return out;
  }

  async listTemplates(): Promise<ResourceTemplate[]> {
    const all = await this.each('resources', ({ client }) => listAllPages((cursor) => client.listResourceTemplates(cursor ? { cursor } : {}), (p) => p.resourceTemplates));
    this.templates = all.flatMap(({ server, items }) => items.map((t) => ({ server, template: new UriTemplate(t.uriTemplate) })));
    return all.flatMap(({ server, items }) => items.map((t) => ({ ...t, name: `${server}/${t.name}`, _meta: { ...t._meta, [SERVER_META]: server } })));
  }

  async listPrompts(): Promise<Prompt[]> {
    const all = await this.each('prompts', ({ client }) => listAllPages((cursor) => client.listPrompts(cursor ? { cursor } : {}), (p) => p.prompts));
    return all.flatMap(({ server, items }) => items.map((p) => ({ ...p, name: `${server}/${p.name}`, _meta: { ...p._meta, [SERVER_META]: server } })));
  }

  /** The client of the server that listed `uri` (directly or through a template), listing again if needed. */
  async ownerOf(uri: string): Promise<Client> {
    const find = (): string | undefined => this.owners.get(uri) ?? this.templates.find((t) => t.template.match(uri) !== null)?.server;
    let server = find();
    if (!server) {
      await Promise.all([this.listResources(), this.listTemplates()]);
      server = find();
    }
    if (!server) throw new McpError(-32002, `resource not found: no downstream server lists ${uri}`, { uri });
    return this.clientOf(server);
  }

  async clientOf(server: string): Promise<Client> {
    const found = (await this.host.reachable()).find((r) => r.server === server);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `server "${server}" is not connected`);
    return found.client;
  }
}

/**
 * Registers resources, templates, prompts, completions and logging on one proxy MCP Server (one session).
 * @example
 *   registerPassthrough(server, core.passthrough, core);
 */
export function registerPassthrough(server: Server, passthrough: Passthrough, host: PassthroughHost): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await passthrough.listResources() }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: await passthrough.listTemplates() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const client = await passthrough.ownerOf(request.params.uri);
    return client.readResource(request.params);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await passthrough.listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const [name, prompt] = splitName(request.params.name);
    return (await passthrough.clientOf(name)).getPrompt({ ...request.params, name: prompt });
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref } = request.params;
    if (ref.type === 'ref/prompt') {
      const [name, prompt] = splitName(ref.name);
      return (await passthrough.clientOf(name)).complete({ ...request.params, ref: { ...ref, name: prompt } });
    }
    return (await passthrough.ownerOf(ref.uri)).complete(request.params);
  });
  let level: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    level = request.params.level;
    await host.setLogLevel(level);
    return {};
  });
  const unsubscribe = host.onLog((from, params) => {
    // Only what this session asked for: at or above its level (all of it until it sets one).
    if (level && LEVELS.indexOf(params.level) < LEVELS.indexOf(level)) return;
    void server.sendLoggingMessage({ ...params, logger: params.logger ? `${from}/${params.logger}` : from }).catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
}
