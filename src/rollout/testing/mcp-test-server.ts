/**
 * In-process MCP servers over HTTP for the rollout tests: Streamable HTTP (one
 * session per client, like a real server) or SSE, on 127.0.0.1 and a free port.
 * They count what the tests need to see (sessions opened, calls, peak calls in
 * flight) and can misbehave on demand: hang, drop every session, restart.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** Options for {@link startTestMcpServer}. */
export interface TestMcpServerOptions {
  transport?: 'streamable-http' | 'sse';
  /** Accept HTTP requests and never answer them (a hung server). */
  hang?: boolean;
  /** A fixed port (for restarts); 0 picks a free one. */
  port?: number;
  /** Facts the `lookup` tool knows, by topic. */
  facts?: Record<string, string>;
}

/** A running test server. */
export interface TestMcpServer {
  readonly url: string;
  readonly port: number;
  /** MCP sessions initialized so far (one per client connection). */
  readonly sessionsOpened: number;
  /** HTTP requests received so far, of any kind. */
  readonly httpRequests: number;
  /** Every tool call, in order of arrival. */
  readonly calls: Array<{ name: string; args: Record<string, unknown>; session: string | undefined }>;
  /** The most tool calls that were running at once. */
  readonly peakInFlight: number;
  /**
   * Adds a tool at run time (answering `<name>: <text>`) to every session, open or future; open
   * sessions are sent `notifications/tools/list_changed`.
   */
  addTool(name: string, description: string): void;
  /** Removes a tool added with `addTool`, notifying open sessions the same way. */
  removeTool(name: string): void;
  /** Forget every session, as a server restart would; clients get 404 next time. */
  dropSessions(): Promise<void>;
  /** Stop listening and start again on the same port, losing every session. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_FACTS: Record<string, string> = {
  france: 'France is a country in Western Europe. Its capital is Paris.',
  japan: 'Japan is an island country in East Asia. Its capital is Tokyo.',
  mars: 'Mars, the fourth planet from the Sun, is called the Red Planet because of iron oxide on its surface.',
  gold: 'Gold is a chemical element with the symbol Au and atomic number 79.',
};

/**
 * Starts a test MCP server with the tools echo, add, fail, slow, hang, big, picture and lookup.
 *
 * @example
 * const server = await startTestMcpServer();
 * const tool = new MCPTool({ serverUrl: server.url });
 * // ... server.sessionsOpened, server.calls
 * await server.close();
 */
export async function startTestMcpServer(options: TestMcpServerOptions = {}): Promise<TestMcpServer> {
  const kind = options.transport ?? 'streamable-http';
  const facts = options.facts ?? DEFAULT_FACTS;
  const sessions = new Map<string, StreamableHTTPServerTransport | SSEServerTransport>();
  const hung = new Set<ServerResponse>();
  const stats = { sessionsOpened: 0, httpRequests: 0, inFlight: 0, peakInFlight: 0 };
  const calls: TestMcpServer['calls'] = [];
  const neverResolves = new Set<() => void>();

  const track = async <T>(name: string, args: Record<string, unknown>, session: string | undefined, run: () => Promise<T>): Promise<T> => {
    calls.push({ name, args, session });
    stats.inFlight++;
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
    try {
      return await run();
    } finally {
      stats.inFlight--;
    }
  };

  const added: Array<{ name: string; description: string }> = [];
  // Each open session's server, with the run-time tools registered on it (to remove them again).
  const live = new Map<McpServer, Map<string, RegisteredTool>>();
  const registerAdded = (server: McpServer, tool: { name: string; description: string }): void => {
    const registered = server.registerTool(tool.name, { description: tool.description, inputSchema: { text: z.string() } }, (args, extra) =>
      track(tool.name, args, extra.sessionId, async () => ({ content: [{ type: 'text', text: `${tool.name}: ${args.text}` }] })),
    );
    live.get(server)?.set(tool.name, registered);
  };

  const buildServer = (): McpServer => {
    const server = new McpServer({ name: 'rollout-test', version: '1.0.0' });
    live.set(server, new Map());
    for (const tool of added) registerAdded(server, tool);
    server.server.onclose = () => live.delete(server);
    server.registerTool(
      'echo',
      { description: 'Repeat the text back.', inputSchema: { text: z.string().describe('What to repeat') } },
      (args, extra) => track('echo', args, extra.sessionId, async () => ({ content: [{ type: 'text', text: args.text }] })),
    );
    server.registerTool(
      'add',
      {
        description: 'Add two numbers.',
        inputSchema: { a: z.number(), b: z.number() },
        outputSchema: { sum: z.number() },
      },
      (args, extra) =>
        track('add', args, extra.sessionId, async () => ({
          content: [{ type: 'text', text: String(args.a + args.b) }],
          structuredContent: { sum: args.a + args.b },
        })),
    );
    server.registerTool('fail', { description: 'Always reports an error.', inputSchema: {} }, (args, extra) =>
      track('fail', args, extra.sessionId, async () => ({ isError: true, content: [{ type: 'text', text: 'the database is on fire' }] })),
    );
    server.registerTool(
      'slow',
      { description: 'Wait, then answer.', inputSchema: { ms: z.number().int().min(0) } },
      (args, extra) =>
        track('slow', args, extra.sessionId, async () => {
          await new Promise((resolve) => setTimeout(resolve, args.ms));
          return { content: [{ type: 'text', text: `slept ${args.ms} ms` }] };
        }),
    );
    server.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, (args, extra) =>
      track('hang', args, extra.sessionId, () => new Promise<never>((resolve) => neverResolves.add(resolve as () => void))),
    );
    server.registerTool(
      'big',
      { description: 'A long text.', inputSchema: { size: z.number().int().min(1) } },
      (args, extra) => track('big', args, extra.sessionId, async () => ({ content: [{ type: 'text', text: 'y'.repeat(args.size) }] })),
    );
    server.registerTool('picture', { description: 'An image and a text.', inputSchema: {} }, (args, extra) =>
      track('picture', args, extra.sessionId, async () => ({
        content: [
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'text', text: 'a tiny picture' },
        ],
      })),
    );
    server.registerTool(
      'lookup',
      {
        description: 'Look up facts about a topic in the encyclopedia.',
        inputSchema: { topic: z.string().min(1).describe('A country, planet or element, e.g. "France"') },
      },
      (args, extra) =>
        track('lookup', args, extra.sessionId, async () => {
          const fact = facts[args.topic.trim().toLowerCase()];
          return fact
            ? { content: [{ type: 'text', text: fact }] }
            : { isError: true, content: [{ type: 'text', text: `no entry for "${args.topic}"` }] };
        }),
    );
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    stats.httpRequests++;
    if (options.hang) {
      hung.add(res);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (kind === 'sse') {
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        transport.onclose = () => sessions.delete(transport.sessionId);
        stats.sessionsOpened++;
        await buildServer().connect(transport);
        return;
      }
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && url.pathname === '/messages' && transport instanceof SSEServerTransport) {
        await transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(404).end('no such session');
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      await (transport as StreamableHTTPServerTransport).handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(400).end('no session');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        stats.sessionsOpened++;
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer().connect(transport);
    await transport.handleRequest(req, res);
  };

  let http: Server = await listen(options.port ?? 0, handle);
  const port = (http.address() as AddressInfo).port;
  const url = kind === 'sse' ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;

  const dropSessions = async (): Promise<void> => {
    const all = [...sessions.values()];
    sessions.clear();
    await Promise.all(all.map((t) => t.close().catch(() => undefined)));
  };
  const stop = async (): Promise<void> => {
    await dropSessions();
    for (const res of hung) res.destroy();
    hung.clear();
    neverResolves.clear();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };

  return {
    url,
    port,
    get sessionsOpened() {
      return stats.sessionsOpened;
    },
    get httpRequests() {
      return stats.httpRequests;
    },
    get peakInFlight() {
      return stats.peakInFlight;
    },
    calls,
    addTool(name, description) {
      const tool = { name, description };
      added.push(tool);
      // registerTool on a connected server sends notifications/tools/list_changed itself.
      for (const server of live.keys()) registerAdded(server, tool);
    },
    removeTool(name) {
      const index = added.findIndex((t) => t.name === name);
      if (index < 0) throw new Error(`removeTool: "${name}" was not added with addTool`);
      added.splice(index, 1);
      // RegisteredTool.remove() sends notifications/tools/list_changed too.
      for (const tools of live.values()) {
        tools.get(name)?.remove();
        tools.delete(name);
      }
    },
    dropSessions,
    async restart() {
      await stop();
      http = await listen(port, handle);
    },
    close: stop,
  };
}

function listen(port: number, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<Server> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
