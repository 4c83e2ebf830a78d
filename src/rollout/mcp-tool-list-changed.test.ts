// MCPTool follows the server's tool list: after `notifications/tools/list_changed` the next use lists
// the tools again, so instructions and validation know a tool added at run time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClientPool } from './mcp-pool.ts';
import { MCPTool } from './mcp-tool.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';

const call = (tool_name: string, tool_params: unknown): string => `<tool_call>${JSON.stringify({ tool_name, tool_params })}</tool_call>`;

describe.each(['streamable-http', 'sse'] as const)('MCPTool and tools/list_changed over %s', (transport) => {
  let server: TestMcpServer | undefined;
  let pool: McpClientPool | undefined;
  afterEach(async () => {
    await pool?.close();
    await server?.close();
  });

  it('rejects a tool as unknown before the server adds it, and accepts it on the next use after the notification', async () => {
    server = await startTestMcpServer({ transport });
    pool = new McpClientPool();
    const tool = new MCPTool({ serverUrl: server.url, transport, pool, timeoutMs: 5000 });

    const before = await tool.executeAction(call('shout', { text: 'hi' }));
    expect(before).toMatchObject({ isParsed: true, isValid: false, toolName: 'shout' });
    expect(before.observation).toMatch(/^\[Validation Error: The tool call format is incorrect\. Reason: Unknown tool_name: 'shout'\. Available tools are: \['echo', 'add', /);
    expect(await tool.instructionString()).not.toContain('shout');
    // Nothing announced yet.
    expect(pool.stats().toolListChanges).toBe(0);

    server.addTool('shout', 'Shout the text back.');
    await vi.waitFor(() => expect(pool!.stats().toolListChanges).toBe(1), { timeout: 3000, interval: 10 });

    const after = await tool.executeAction(call('shout', { text: 'hi' }));
    expect(after).toMatchObject({ isParsed: true, isValid: true, observation: '<information>shout: hi</information>', toolName: 'shout' });
    expect(await tool.instructionString()).toContain('shout');
    // Validation uses the new tool's schema too.
    const bad = await tool.executeAction(call('shout', { text: 3 }));
    expect(bad.isValid).toBe(false);
    expect(bad.observation).toMatch(/^\[Validation Error: The tool call format is incorrect\. Reason: .* is not of type 'string'\n/);
    expect(server.calls.filter((c) => c.name === 'shout')).toEqual([{ name: 'shout', args: { text: 'hi' }, session: expect.any(String) }]);
    // The same connection all along: the list was refreshed, not the session.
    expect(pool.stats().connects).toBe(1);
    await tool.close();
  });

  it('every tool sharing the pooled connection follows the change, removals included', async () => {
    server = await startTestMcpServer({ transport });
    pool = new McpClientPool();
    const a = new MCPTool({ serverUrl: server.url, transport, pool, timeoutMs: 5000 });
    const b = new MCPTool({ serverUrl: server.url, transport, pool, timeoutMs: 5000 });
    server.addTool('whisper', 'Whisper the text back.');
    // Nothing connected yet: the first use lists the tools, the added one included.
    expect((await a.executeAction(call('whisper', { text: 'a' }))).observation).toBe('<information>whisper: a</information>');
    expect((await b.executeAction(call('whisper', { text: 'b' }))).observation).toBe('<information>whisper: b</information>');

    const changes = pool.stats().toolListChanges;
    server.removeTool('whisper');
    await vi.waitFor(() => expect(pool!.stats().toolListChanges).toBe(changes + 1), { timeout: 3000, interval: 10 });
    for (const tool of [a, b]) {
      const gone = await tool.executeAction(call('whisper', { text: 'x' }));
      expect(gone.isValid).toBe(false);
      expect(gone.observation).toMatch(/^\[Validation Error: The tool call format is incorrect\. Reason: Unknown tool_name: 'whisper'/);
      expect(await tool.instructionString()).not.toContain('whisper');
    }
    expect(server.calls.filter((c) => c.name === 'whisper')).toHaveLength(2);
    expect(pool.stats().connects).toBe(1);
    await a.close();
    await b.close();
  });
});
