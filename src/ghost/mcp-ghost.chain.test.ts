// The ghost's happy paths, per provider, through the mock LLM on a real port and real MCP servers.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids, settledChildPids } from '../../fixtures/servers/children.ts';
import { startHttpFixture, stdioFixture, type HttpFixture } from '../../fixtures/servers/launch.ts';
import { scenario } from '../scenario/builder.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { ghostOptionsFor, on, PROVIDERS, withMockLLM } from './testing/harness.ts';
import { ToolNameMap } from './tool-names.ts';
import { AWKWARD_NAMES } from '../../fixtures/servers/awkward-names.ts';

const SQL_COUNT = 'SELECT count(*) AS n FROM orders';
const SQL_TOP = 'SELECT c.name, sum(o.quantity) AS items FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id ORDER BY items DESC LIMIT 1';

describe.each(PROVIDERS)('%s', (p) => {
  it('runs a 6-step chain (list → describe → describe → query → query → answer) and cleans up its children', async () => {
    const chain = scenario('db-chain')
      .expect(on(p)).withLastMessage({ contains: 'busiest customer' })
      .then().respondWithToolCalls([{ id: 'c1', name: 'db_list_tables' }]).withUsage({ inputTokens: 100, outputTokens: 10 })
      .expect(on(p)).withToolResults('db_list_tables')
      .then().respondWithText('Looking at orders.').respondWithToolCalls([{ id: 'c2', name: 'db_describe_table', arguments: { table: 'orders' } }]).withUsage({ inputTokens: 200, outputTokens: 20 })
      .expect(on(p)).withToolResults('db_describe_table')
      .then().respondWithToolCalls([{ id: 'c3', name: 'db_describe_table', arguments: { table: 'customers' } }]).withUsage({ inputTokens: 300, outputTokens: 30 })
      .expect(on(p))
      .then().respondWithToolCalls([{ id: 'c4', name: 'db_query', arguments: { sql: SQL_COUNT } }]).withUsage({ inputTokens: 400, outputTokens: 40 })
      .expect(on(p)).withToolResults('db_query')
      .then().respondWithToolCalls([{ id: 'c5', name: 'db_query', arguments: { sql: SQL_TOP } }]).withUsage({ inputTokens: 500, outputTokens: 50 })
      .expect(on(p))
      .then().respondWithText('There are 5 orders. The busiest customer is Grace.\n\nDetails follow.').withUsage({ inputTokens: 600, outputTokens: 60 });
    const before = childPids();
    const { result, requests } = await withMockLLM([chain], async (server) => ({
      result: await mcpGhost(ghostOptionsFor(p, server, {
        serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
        systemPrompt: 'You analyse the shop database.',
        userPrompt: 'Who is our busiest customer?',
      })),
      requests: server.mock.requests,
    }));
    expect(await settledChildPids(before)).toEqual(before);

    expect(result.success).toBe(true);
    expect(result.toolChain.map((t) => t.toolName)).toEqual(['db.list_tables', 'db.describe_table', 'db.describe_table', 'db.query', 'db.query']);
    expect(result.toolChain.map((t) => t.iteration)).toEqual([1, 2, 3, 4, 5]);
    expect(result.toolChain.every((t) => t.success && t.retryAttempt === 0 && t.error === null)).toBe(true);
    expect(result.toolChain[0].result).toEqual(['customers', 'orders', 'products']);
    expect(result.toolChain[1].reasoning).toBe('Looking at orders.');
    expect(result.toolChain[3].result).toEqual([{ n: 5 }]);
    expect(result.toolChain[4].result).toEqual([{ name: 'Grace', items: 4 }]);
    expect(result.finalResult).toBe('There are 5 orders. The busiest customer is Grace.\n\nDetails follow.');
    expect(result.summary).toBe('There are 5 orders. The busiest customer is Grace.');
    expect(result.errors).toEqual([]);
    expect(result.executionMetadata).toMatchObject({
      totalIterations: 6,
      toolsDiscovered: 3,
      serversConnected: 1,
      backtrackCount: 0,
      successRate: 100,
      stopReason: 'answered',
      tokenUsage: { promptTokens: 2100, completionTokens: 210, totalTokens: 2310 },
    });
    // system + user + 6 assistant turns + 5 tool results
    expect(result.conversationHistory).toHaveLength(13);
    expect(result.conversationHistory[0]).toMatchObject({ role: 'system', content: expect.stringContaining('You analyse the shop database.') });
    expect(result.conversationHistory.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);

    // What the provider saw: adapted names, normalized schemas, and the whole conversation every turn.
    expect(requests).toHaveLength(6);
    expect(requests.every((r) => r.status === 200)).toBe(true);
    expect(requests[0].request!.tools.map((t) => t.name).sort()).toEqual(['db_describe_table', 'db_list_tables', 'db_query']);
    const last = requests[5].request!;
    expect(last.messages.filter((m) => m.role === 'tool')).toHaveLength(5);
    expect(last.messages.find((m) => m.role === 'system')?.content).toContain('db_query (db.query)');
  });

  it('executes parallel calls of one turn concurrently and returns results in the model\'s order', async () => {
    const parallel = scenario('parallel')
      .expect(on(p)).then().respondWithToolCalls([
        { id: 'slow', name: 'h_sleep', arguments: { ms: 400 } },
        { id: 'fast', name: 'h_sleep', arguments: { ms: 50 } },
        { id: 'db', name: 'db_list_tables' },
      ])
      .expect(on(p)).then().respondWithText('All three done.');
    const { result, requests } = await withMockLLM([parallel], async (server) => ({
      result: await mcpGhost(ghostOptionsFor(p, server, {
        serverConfig: { mcpServers: { db: stdioFixture('sqlite'), h: stdioFixture('hang') } },
        userPrompt: 'Do three things at once.',
      })),
      requests: server.mock.requests,
    }));
    expect(result.success).toBe(true);
    expect(result.toolChain.map((t) => t.arguments)).toEqual([{ ms: 400 }, { ms: 50 }, {}]);
    const [slow, fast] = result.toolChain.map((t) => t.result as { startedAt: number; endedAt: number });
    // Both sleeps were running at the same time: each started before the other ended.
    expect(fast.startedAt).toBeLessThan(slow.endedAt);
    expect(slow.startedAt).toBeLessThan(fast.endedAt);
    expect(fast.endedAt).toBeLessThan(slow.endedAt);
    const toolMessages = requests[1].request!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.toolCallId)).toEqual(['slow', 'fast', 'db']);
  });

  it('adapts awkward MCP tool names and calls the right tool back', async () => {
    const names = new ToolNameMap(p, AWKWARD_NAMES.map((tool) => ({ server: 'odd', tool })));
    const picks = ['données_📁', 'get.data', 'get_data', AWKWARD_NAMES[7]] as const;
    const calls = picks.map((tool, i) => ({ id: `a${i}`, name: names.toProvider('odd', tool), arguments: { note: `n${i}` } }));
    const s = scenario('awkward').expect(on(p)).then().respondWithToolCalls(calls).expect(on(p)).then().respondWithText('ok');
    const { result, requests } = await withMockLLM([s], async (server) => ({
      result: await mcpGhost(ghostOptionsFor(p, server, { serverConfig: { mcpServers: { odd: stdioFixture('awkward-names') } }, userPrompt: 'Call the odd tools.' })),
      requests: server.mock.requests,
    }));
    expect(result.success).toBe(true);
    expect(result.toolChain.map((t) => (t.result as { tool: string }).tool)).toEqual([...picks]);
    expect(result.toolChain.map((t) => t.toolName)).toEqual(picks.map((t) => `odd.${t}`));
    const offered = requests[0].request!.tools.map((t) => t.name);
    expect(new Set(offered).size).toBe(AWKWARD_NAMES.length);
    for (const name of offered) expect(name.length).toBeLessThanOrEqual(64);
  });
});

describe('servers over Streamable HTTP and from npm', () => {
  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpFixture('sqlite');
  });
  afterAll(() => http.close());

  it('uses a `url` server and reports a server that fails to start without stopping the run', async () => {
    const s = scenario('http')
      .expect(on('openai')).then().respondWithToolCalls([{ id: 'q', name: 'remote_query', arguments: { sql: SQL_COUNT } }])
      .expect(on('openai')).then().respondWithText('5 orders.');
    const result = await withMockLLM([s], (server) =>
      mcpGhost(ghostOptionsFor('openai', server, {
        serverConfig: { mcpServers: { remote: { url: http.url }, broken: { command: process.execPath, args: ['-e', 'process.exit(4)'] } } },
        userPrompt: 'How many orders?',
      })));
    expect(result.success).toBe(true);
    expect(result.toolChain[0]).toMatchObject({ toolName: 'remote.query', success: true, result: [{ n: 5 }] });
    expect(result.executionMetadata.serversConnected).toBe(1);
    expect(result.errors).toEqual([
      expect.objectContaining({ iteration: 0, toolName: null, error: expect.stringContaining('server "broken" failed to connect'), recoveryAction: 'continued without server "broken"' }),
    ]);
  });

  it('drives the third-party @modelcontextprotocol/server-filesystem from npm', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'gw-npmfs-')));
    await writeFile(join(dir, 'notes.txt'), 'ghostwire was here');
    const entry = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    try {
      const s = scenario('npm-fs')
        .expect(on('openai')).withTools('fs_list_directory', 'fs_read_text_file')
        .then().respondWithToolCalls([{ id: 'l', name: 'fs_list_directory', arguments: { path: dir } }])
        .expect(on('openai')).then().respondWithToolCalls([{ id: 'r', name: 'fs_read_text_file', arguments: { path: join(dir, 'notes.txt') } }])
        .expect(on('openai')).then().respondWithText('The note says: ghostwire was here');
      const before = childPids();
      const result = await withMockLLM([s], (server) =>
        mcpGhost(ghostOptionsFor('openai', server, {
          serverConfig: { mcpServers: { fs: { command: process.execPath, args: [entry, dir] } } },
          userPrompt: 'What does the note say?',
        })));
      expect(await settledChildPids(before)).toEqual(before);
      expect(result.errors).toEqual([]);
      expect(result.success).toBe(true);
      expect(String(result.toolChain[0].result)).toContain('notes.txt');
      expect(result.toolChain[1].result).toBe('ghostwire was here');
      expect(result.executionMetadata.toolsDiscovered).toBeGreaterThan(5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
