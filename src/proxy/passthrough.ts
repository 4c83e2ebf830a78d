/**
 * What a client behind the proxy would otherwise lose: downstream resources, resource templates,
 * prompts and completions, passed through and namespaced like tools (names `server/name`; resource
 * URIs kept, routed back by the listing that named them), resource subscriptions (subscriptions.ts),
 * the servers' list_changed notifications, and logging/setLevel honoured with the downstream servers'
 * log messages forwarded (logger `server[/logger]`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema, SetLevelRequestSchema, SubscribeRequestSchema,
  UnsubscribeRequestSchema, type LoggingLevel, type LoggingMessageNotification, type Prompt, type Resource,
  type ResourceTemplate, type ResourceUpdatedNotification, type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { listAllPages } from '../mcp/index.ts';
import { Subscriptions, type Subscriber } from './subscriptions.ts';

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
  /** Listens to what downstream servers announce; returns the unsubscribe. */
  onEvent(listener: (server: string, event: DownstreamEvent) => void): () => void;
  /** Resolves once servers connecting now are connected, failed or backing off (bounded). */
  connectingSettled(): Promise<void>;
  /** A server's client while it is connected (no waiting, no connecting). */
  connected(server: string): Client | undefined;
  /** Every enabled server's name. */
  serverNames(): string[];
  /** What a server said it can do when it last connected (this process, else remembered), if known. */
  capabilitiesOf(server: string): ServerCapabilities | undefined;
}

/**
 * What a downstream server announced: a log message, a resource update, a changed list (tools: after
 * the proxy re-indexed them and found a change), or a (re)connection.
 */
export type DownstreamEvent =
  | { kind: 'log'; params: LoggingMessageNotification['params'] }
  | { kind: 'resource-updated'; params: ResourceUpdatedNotification['params'] }
  | { kind: 'resources-changed' | 'prompts-changed' | 'tools-changed' }
  | { kind: 'connected'; client: Client };

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
  readonly subscriptions = new Subscriptions();

  constructor(host: PassthroughHost) {
    this.host = host;
    host.onEvent((server, event) => {
      if (event.kind === 'resource-updated') this.subscriptions.updated(server, event.params);
      // A server that came back has forgotten its subscriptions: ask again for the URIs still wanted.
      if (event.kind === 'connected') for (const uri of this.subscriptions.urisOf(server)) void event.client.subscribeResource({ uri }).catch(() => undefined);
    });
  }

  /** Whether a server that is connected, or remembered from an earlier connection, supports resources/subscribe. */
  knownToSubscribe(): boolean {
    return this.host.serverNames().some((s) => this.host.capabilitiesOf(s)?.resources?.subscribe === true);
  }

  /**
   * Whether to advertise resources/subscribe: whether a server is known to support it, once the servers
   * already connecting (preconnects, lazy_connect off) have had their bounded wait. Servers never seen
   * are not connected for this: lazy servers stay unconnected until used.
   */
  async canSubscribe(): Promise<boolean> {
    if (this.knownToSubscribe()) return true;
    await this.host.connectingSettled();
    return this.knownToSubscribe();
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

  /** The server that listed `uri` (directly or through a template), listing again if needed. */
  private async ownerName(uri: string): Promise<string> {
    const find = (): string | undefined => this.owners.get(uri) ?? this.templates.find((t) => t.template.match(uri) !== null)?.server;
    let server = find();
    if (!server) {
      await Promise.all([this.listResources(), this.listTemplates()]);
      server = find();
    }
    if (!server) throw new McpError(-32002, `resource not found: no downstream server lists ${uri}`, { uri });
    return server;
  }

  /** The client of the server that listed `uri`. */
  async ownerOf(uri: string): Promise<Client> {
    return this.clientOf(await this.ownerName(uri));
  }

  /** Subscribes one session to `uri` on the server that lists it (one downstream subscription per URI). */
  async subscribe(session: Subscriber, uri: string): Promise<void> {
    this.subscriptions.checkUri(uri);
    const server = await this.ownerName(uri);
    const client = await this.clientOf(server);
    if (!client.getServerCapabilities()?.resources?.subscribe) {
      throw new McpError(ErrorCode.InvalidParams, `cannot subscribe to ${uri}: its server "${server}" does not support resources/subscribe`, { uri, server });
    }
    await this.subscriptions.subscribe(session, uri, server, client);
  }

  /** Unsubscribes one session; the downstream subscription ends with its last subscriber. */
  async unsubscribe(session: Subscriber, uri: string): Promise<void> {
    await this.release(this.subscriptions.unsubscribe(session, uri));
  }

  /** Releases everything a closed session held. */
  async dropSession(session: Subscriber): Promise<void> {
    await Promise.all(this.subscriptions.drop(session).map((gone) => this.release(gone)));
  }

  private async release(gone: { server: string; uri: string } | undefined): Promise<void> {
    // A server that is not connected holds no subscription any more: nothing to undo there.
    await (gone && this.host.connected(gone.server)?.unsubscribeResource({ uri: gone.uri }).catch(() => undefined));
  }

  async clientOf(server: string): Promise<Client> {
    const found = (await this.host.reachable()).find((r) => r.server === server);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `server "${server}" is not connected`);
    return found.client;
  }
}

/**
 * Registers resources, templates, subscriptions, prompts, completions, logging and the forwarded
 * list_changed notifications on one proxy MCP Server (one session).
 * @example
 *   registerPassthrough(server, core.passthrough, core, { subscribe: true });
 */
export function registerPassthrough(server: Server, passthrough: Passthrough, host: PassthroughHost, options: { subscribe?: boolean } = {}): void {
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
  const session: Subscriber = { notify: (params) => void server.sendResourceUpdated(params).catch(() => undefined) };
  if (options.subscribe) {
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      await passthrough.subscribe(session, request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      await passthrough.unsubscribe(session, request.params.uri);
      return {};
    });
  }
  let level: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    level = request.params.level;
    await host.setLogLevel(level);
    return {};
  });
  const unsubscribe = host.onEvent((from, event) => {
    const sent = (() => {
      switch (event.kind) {
        case 'log': {
          const { params } = event;
          // Only what this session asked for: at or above its level (all of it until it sets one).
          if (level && LEVELS.indexOf(params.level) < LEVELS.indexOf(level)) return undefined;
          return server.sendLoggingMessage({ ...params, logger: params.logger ? `${from}/${params.logger}` : from });
        }
        case 'resources-changed': return server.sendResourceListChanged();
        case 'prompts-changed': return server.sendPromptListChanged();
        case 'tools-changed': return server.sendToolListChanged();
        default: return undefined;
      }
    })();
    // A session whose transport is closing must not disturb the others.
    void sent?.catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    void passthrough.dropSession(session);
    previous?.();
  };
}
