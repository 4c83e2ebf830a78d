import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from './env.ts';
import { McpClientPool } from './mcp-pool.ts';
import { MCPTool } from './mcp-tool.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';
import { createToolRegistry, makeTool, registerTool, ToolRegistry } from './tool-registry.ts';
import { toolWrapper } from './tool-wrapper.ts';
import { QAEnv } from './qa-env.ts';

const echoTool = (args: Record<string, unknown>): Tool & { args: Record<string, unknown> } => ({
  args,
  instructionString: () => `echo with prefix ${String(args.prefix)}`,
  executeAction: (action) => ({ isParsed: true, isValid: true, observation: `${String(args.prefix)}${action}`, parsedAction: action }),
});

describe('registry', () => {
  it('has python_code, search and mcp out of the box, as ROLL registers them', () => {
    expect(createToolRegistry().ids()).toEqual(['python_code', 'search', 'mcp']);
    expect(makeTool('mcp', { server_url: 'http://127.0.0.1:1/mcp' })).toBeInstanceOf(MCPTool);
    expect(createToolRegistry({ builtins: false }).ids()).toEqual([]);
  });

  it('a duplicate id is an error, mcp included', () => {
    const registry = registerTool('echo', echoTool);
    expect(() => registerTool('echo', echoTool, { registry })).toThrow('tool "echo" is already registered; ids must be unique (registered: python_code, search, mcp, echo)');
    expect(() => registerTool('mcp', echoTool)).toThrow('tool "mcp" is already registered');
  });

  it('merges registered defaults with call args (call args win)', () => {
    const registry = registerTool('echo', echoTool, { defaults: { prefix: '> ', keep: 1 } });
    const tool = makeTool('echo', { prefix: '$ ' }, { registry }) as ReturnType<typeof echoTool>;
    expect(tool.args).toEqual({ prefix: '$ ', keep: 1 });
    expect((registry.make('echo') as ReturnType<typeof echoTool>).args).toEqual({ prefix: '> ', keep: 1 });
  });

  it('registries are independent: nothing registered in one shows in another', () => {
    const a = new ToolRegistry();
    a.register('only-in-a', echoTool);
    expect(createToolRegistry().has('only-in-a')).toBe(false);
    expect(() => makeTool('only-in-a')).toThrow('unknown tool "only-in-a"; registered: python_code, search, mcp');
  });

  it('mcp tool_args are validated with their names', () => {
    expect(() => makeTool('mcp', {})).toThrow("MCPTool: either 'client' or 'serverUrl' must be provided");
    expect(() => makeTool('mcp', { serverUrl: 'http://x/mcp' })).toThrow(/tool "mcp": invalid tool_args: \(args\): Unrecognized key: "serverUrl"/);
    expect(() => makeTool('mcp', { server_url: 'http://x/mcp', transport: 'ws' })).toThrow(/transport: Invalid option/);
    expect(() => makeTool('mcp', { server_url: 'http://x/mcp', timeout_ms: -5 })).toThrow(/timeout_ms: Too small/);
  });

  it('toolWrapper names the failing tool config and the bad wrapper arg', () => {
    const env = new QAEnv({ items: [{ id: 'a', question: 'q', answers: ['a'] }] });
    expect(() => toolWrapper(env, { tool_configs: [{ tool_id: 'mcp', tool_args: {} }] })).toThrow(/^tool_wrapper\.tool_configs\.0 \(mcp\): MCPTool: either/);
    expect(() => toolWrapper(env, { tool_configs: [{ tool_id: 'calculator' }] })).toThrow('tool_wrapper.tool_configs.0 (calculator): unknown tool "calculator"; registered: python_code, search, mcp');
    expect(() => toolWrapper(env, { wrapper_args: { tool_reward: 'lots' as never }, tool_configs: [{ tool_id: 'mcp' }] })).toThrow(
      /tool_wrapper: invalid rollout config\n {2}wrapper_args\.tool_reward: Invalid input: expected number/,
    );
  });
});

describe('wrapper groups share one pool', () => {
  let server: TestMcpServer;
  beforeAll(async () => {
    server = await startTestMcpServer();
  });
  afterAll(() => server.close());

  it('environments wrapped from one registry open one connection to a shared server', async () => {
    const registry = createToolRegistry({ pool: new McpClientPool({ maxConcurrency: 4 }) });
    const config = { tool_configs: [{ tool_id: 'mcp', tool_args: { server_url: server.url } }] };
    const envs = Array.from({ length: 4 }, () => toolWrapper(new QAEnv({ items: [{ id: 'a', question: 'q', answers: ['a'] }] }), config, { registry }));
    const before = server.sessionsOpened;
    await Promise.all(envs.map((env) => env.reset()));
    expect(server.sessionsOpened - before).toBe(1);
    await Promise.all(envs.map((env) => env.close()));
    expect(registry.pool.stats().servers).toBe(0);
    await registry.pool.close();
  });
});

describe('mcp tool_args for reproducing ROLL', () => {
  it('max_observation_chars: null keeps results whole; ROLL-style nulls for optional args are accepted', () => {
    const tool = createToolRegistry().make('mcp', { server_url: 'http://127.0.0.1:1/sse', max_observation_chars: null, custom_prompt: null, tool_names_subset: null, num_workers: 1 }) as MCPTool;
    expect(tool.maxObservationChars).toBeNull();
    expect(tool.transport).toBe('sse');
    expect((createToolRegistry().make('mcp', { server_url: 'http://127.0.0.1:1/mcp' }) as MCPTool).maxObservationChars).toBe(8000);
  });
});
