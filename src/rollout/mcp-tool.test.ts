import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClientPool } from './mcp-pool.ts';
import { MCPTool } from './mcp-tool.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';

const call = (tool_name: string, tool_params?: unknown): string =>
  `<tool_call>${JSON.stringify(tool_params === undefined ? { tool_name } : { tool_name, tool_params })}</tool_call>`;

let server: TestMcpServer;
let tool: MCPTool;

beforeAll(async () => {
  server = await startTestMcpServer();
  tool = new MCPTool({ serverUrl: server.url, timeoutMs: 5000, maxObservationChars: 100 });
});
afterAll(async () => {
  await tool.close();
  await server.close();
});

describe('MCPTool construction', () => {
  it('needs a server URL or a client', () => {
    expect(() => new MCPTool({})).toThrow("either 'client' or 'serverUrl' must be provided");
  });
  it('rejects a URL that is not http(s)', () => {
    expect(() => new MCPTool({ serverUrl: 'ftp://x/mcp' })).toThrow(/not an http\(s\) URL/);
    expect(() => new MCPTool({ serverUrl: 'xxx' })).toThrow(/"xxx" is not an http\(s\) URL/);
  });
  it('rejects a non-positive timeout', () => {
    expect(() => new MCPTool({ serverUrl: 'http://127.0.0.1:1/mcp', timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
  });
});

describe('MCPTool.executeAction', () => {
  it('does not parse an action without <tool_call>, and does no I/O for it', async () => {
    const fresh = new MCPTool({ serverUrl: server.url });
    const before = server.httpRequests;
    const result = await fresh.executeAction('The answer is <answer>Paris</answer>');
    expect(result).toEqual({ isParsed: false, isValid: false, observation: '', parsedAction: 'The answer is <answer>Paris</answer>' });
    expect(server.httpRequests).toBe(before);
    expect(fresh.connectionRequested).toBe(false);
    await fresh.close();
  });

  it('succeeds: text in <information>, parsedAction cut after the first </tool_call>', async () => {
    const action = `thinking... ${call('echo', { text: 'hello' })} and then ${call('echo', { text: 'ignored' })}`;
    const result = await tool.executeAction(action);
    expect(result).toMatchObject({ isParsed: true, isValid: true, observation: '<information>hello</information>', toolName: 'echo' });
    expect(result.parsedAction).toBe(`thinking... ${call('echo', { text: 'hello' })}`);
    expect(server.calls.filter((c) => c.name === 'echo' && c.args.text === 'ignored')).toHaveLength(0);
  });

  it('keeps structured content', async () => {
    const result = await tool.executeAction(call('add', { a: 2, b: 40 }));
    expect(result.observation).toBe('<information>42</information>');
    expect(result.structuredContent).toEqual({ sum: 42 });
  });

  it('accepts whitespace and newlines around the JSON, and a missing tool_params', async () => {
    const result = await tool.executeAction('<tool_call>\n  {"tool_name": "fail"}\n</tool_call>');
    expect(result.isParsed).toBe(true);
    expect(result.observation).toBe('[Execution Error: the database is on fire]');
  });

  it('invalid JSON is a validation error', async () => {
    const result = await tool.executeAction('<tool_call>{"tool_name": "echo", </tool_call>');
    expect(result.isParsed).toBe(true);
    expect(result.isValid).toBe(false);
    expect(result.observation).toBe('[Validation Error: The tool call format is incorrect. Reason: Expecting property name enclosed in double quotes: line 1 column 22 (char 21)]');
  });

  it.each([
    ['[1,2]', "Parsed JSON is not a dictionary, but <class 'list'>"],
    ['{"tool_params": {}}', "JSON must contain a 'tool_name' (string) and 'tool_params' (dict)."],
    ['{"tool_name": 3}', "JSON must contain a 'tool_name' (string) and 'tool_params' (dict)."],
    ['{"tool_name": "echo", "tool_params": "hi"}', "JSON must contain a 'tool_name' (string) and 'tool_params' (dict)."],
  ])('a tool call of the wrong shape is a validation error: %s', async (json, message) => {
    const result = await tool.executeAction(`<tool_call>${json}</tool_call>`);
    expect(result).toMatchObject({ isParsed: true, isValid: false });
    expect(result.observation).toBe(`[Validation Error: The tool call format is incorrect. Reason: ${message}]`);
  });

  it('an unknown tool is a validation error listing the available tools', async () => {
    const result = await tool.executeAction(call('nope', {}));
    expect(result.isValid).toBe(false);
    expect(result.observation).toBe(
      "[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'nope'. Available tools are: ['echo', 'add', 'fail', 'slow', 'hang', 'big', 'picture', 'lookup']]",
    );
  });

  it("params failing the JSON Schema get jsonschema's wording (the shallowest error first), and never reach the server", async () => {
    const before = server.calls.length;
    const roomy = new MCPTool({ serverUrl: server.url, timeoutMs: 5000 });
    const result = await roomy.executeAction(call('add', { a: 'one', c: 1 }));
    expect(result.isValid).toBe(false);
    expect(result.observation).toMatch(/^\[Validation Error: The tool call format is incorrect\. Reason: 'b' is a required property\n\nFailed validating 'required' in schema:\n    \{.*'required': \['a', 'b'\]/s);
    expect(result.observation).toMatch(/\n\nOn instance:\n    \{'a': 'one', 'c': 1\}\]$/);
    const typed = await roomy.executeAction(call('add', { a: 'one', b: 1 }));
    await roomy.close();
    // The reason is bounded like results (this tool keeps 100 characters).
    expect((await tool.executeAction(call('add', { a: 'one', c: 1 }))).observation).toMatch(/^\[Validation Error: The tool call format is incorrect\. Reason: 'b' is a required property[\s\S]{50,}…\[truncated \d+ chars\]\]$/);
    expect(typed.observation).toContain("Reason: 'one' is not of type 'number'\n\nFailed validating 'type' in schema['properties']['a']:\n    {'type': 'number'}\n\nOn instance['a']:\n    'one']");
    expect(server.calls.length).toBe(before);
  });

  it('a server isError result is an execution error', async () => {
    const result = await tool.executeAction(call('lookup', { topic: 'Atlantis' }));
    expect(result).toMatchObject({ isParsed: true, isValid: false, observation: '[Execution Error: no entry for "Atlantis"]', toolName: 'lookup' });
  });

  it('a failing call (server unreachable) is an execution error', async () => {
    const dead = await startTestMcpServer();
    const url = dead.url;
    await dead.close();
    const orphan = new MCPTool({ serverUrl: url, timeoutMs: 3000 });
    const result = await orphan.executeAction(call('echo', { text: 'x' }));
    expect(result.isParsed).toBe(true);
    expect(result.isValid).toBe(false);
    expect(result.observation).toMatch(/^\[Execution Error: could not list the tools of http:\/\/127\.0\.0\.1:\d+\/mcp: .*fetch failed.*\]$/);
    await orphan.close();
  });

  it('caps long observations with a marker', async () => {
    const result = await tool.executeAction(call('big', { size: 250 }));
    expect(result.isValid).toBe(true);
    expect(result.observation).toBe(`<information>${'y'.repeat(100)}…[truncated 150 chars]</information>`);
  });

  it('keeps only text blocks, as ROLL does', async () => {
    const result = await tool.executeAction(call('picture'));
    expect(result.observation).toBe('<information>a tiny picture</information>');
  });

  it('after close, a tool call is an execution error', async () => {
    const closed = new MCPTool({ serverUrl: server.url });
    await closed.close();
    const result = await closed.executeAction(call('echo', { text: 'x' }));
    expect(result.observation).toBe('[Execution Error: the MCP tool is closed]');
  });
});

describe('MCPTool.instructionString', () => {
  it("is ROLL's prompt: every tool as JSON, and an example call that validates", async () => {
    const text = await tool.instructionString();
    for (const name of ['echo', 'add', 'fail', 'slow', 'hang', 'big', 'picture', 'lookup']) expect(text).toContain(`"name": "${name}",`);
    expect(text).toContain('"description": "Repeat the text back.",');
    expect(text).toContain('## CRITICAL USAGE INSTRUCTIONS');
    const example = /<tool_call>\n([\s\S]*)\n<\/tool_call>$/.exec(text)?.[1];
    expect(JSON.parse(example ?? 'null')).toEqual({ tool_name: 'echo', tool_params: { text: 'example_value' } });
    const tools = await tool.tools();
    expect(new Ajv({ strict: false }).validate(tools[0].inputSchema, JSON.parse(example!).tool_params)).toBe(true);
    expect((await tool.executeAction(`<tool_call>${example}</tool_call>`)).isValid).toBe(true);
  });

  it('uses the custom prompt when given (and still connects)', async () => {
    const custom = new MCPTool({ serverUrl: server.url, customPrompt: 'Use lookup.' });
    const before = server.sessionsOpened;
    expect(await custom.instructionString()).toBe('Use lookup.');
    expect(server.sessionsOpened).toBe(before + 1);
    await custom.close();
  });

  it('narrows to toolNamesSubset, and a subset name the server lacks is an error', async () => {
    const narrow = new MCPTool({ serverUrl: server.url, toolNamesSubset: ['lookup'] });
    const text = await narrow.instructionString();
    expect(text).toContain('"name": "lookup",');
    expect(text).not.toContain('"name": "echo",');
    expect((await narrow.executeAction(call('echo', { text: 'x' }))).observation).toBe(
      "[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'echo'. Available tools are: ['lookup']]",
    );
    await narrow.close();
    const wrong = new MCPTool({ serverUrl: server.url, toolNamesSubset: ['lookup', 'search'] });
    await expect(wrong.instructionString()).rejects.toThrow('toolNamesSubset names tools the server does not have: search');
    await wrong.close();
  });
});

describe('MCPTool with a caller-owned client', () => {
  it('uses the client and leaves it open', async () => {
    const client = new Client({ name: 'mine', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const mine = new MCPTool({ client });
    expect((await mine.executeAction(call('add', { a: 1, b: 1 }))).observation).toBe('<information>2</information>');
    await mine.close();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('applies the timeout to a caller-owned client too', async () => {
    const client = new Client({ name: 'mine', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const mine = new MCPTool({ client, timeoutMs: 200 });
    expect((await mine.executeAction(call('hang'))).observation).toBe('[Execution Error: MCP server (given client) did not answer within 200 ms (while calling hang)]');
    await client.close();
  });
});

describe('pooling', () => {
  it('tools sharing a pool share one connection per server', async () => {
    const pool = new McpClientPool();
    const before = server.sessionsOpened;
    const tools = Array.from({ length: 5 }, () => new MCPTool({ serverUrl: server.url, pool }));
    await Promise.all(tools.map((t, i) => t.executeAction(call('echo', { text: `t${i}` }))));
    expect(server.sessionsOpened - before).toBe(1);
    expect(pool.stats()).toMatchObject({ servers: 1, connects: 1 });
    await Promise.all(tools.map((t) => t.close()));
    expect(pool.stats().servers).toBe(0);
    await pool.close();
  });
});
