import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env, StepResult, Tool, ToolActionResult } from './env.ts';
import { MCPTool } from './mcp-tool.ts';
import { QAEnv } from './qa-env.ts';
import { startTestMcpServer, type TestMcpServer } from './testing/mcp-test-server.ts';
import { ToolEnvWrapper } from './tool-env-wrapper.ts';

const call = (tool_name: string, tool_params: unknown = {}): string => `<tool_call>${JSON.stringify({ tool_name, tool_params })}</tool_call>`;

/** An inner environment that records what reaches it. */
class RecordingEnv implements Env<string> {
  readonly seen: string[] = [];
  closed = 0;
  reset() {
    return { observation: 'Question: 2+2?', info: { env_instruction: 'Answer briefly.', extra: 1 } };
  }
  step(action: string): StepResult<string> {
    this.seen.push(action);
    return { observation: 'done', reward: action.includes('4') ? 1 : 0, terminated: true, truncated: false, info: { inner: true } };
  }
  close() {
    this.closed++;
  }
}

/** A tool that parses `<tag>…</tag>` and answers with a fixed outcome. */
function fakeTool(tag: string, outcome: Partial<ToolActionResult> = {}): Tool & { calls: string[]; closed: number } {
  const tool = {
    calls: [] as string[],
    closed: 0,
    instructionString: () => `Use <${tag}>.`,
    executeAction(action: string): ToolActionResult {
      tool.calls.push(action);
      if (!action.includes(`<${tag}>`)) return { isParsed: false, isValid: false, observation: '', parsedAction: action };
      return { isParsed: true, isValid: true, observation: `${tag} ok`, parsedAction: action, ...outcome };
    },
    close() {
      tool.closed++;
    },
  };
  return tool;
}

const LIMIT = 'Reached the maximum number of tool use. Please output final answer directly.';

describe('ToolEnvWrapper with fake tools (GEM ToolEnvWrapper + ROLL subclass semantics)', () => {
  it('reset: one tool → "obs\ninstruction"; GEM prev_ep_* and use_tool keys; ROLL counters under info.metrics', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a')]);
    const { observation, info } = await env.reset({ seed: 1 });
    expect(observation).toBe('Question: 2+2?\nUse <a>.');
    expect(info).toEqual({
      env_instruction: 'Answer briefly.',
      extra: 1,
      prev_ep_tool_use_counter: 0,
      prev_ep_tool_success_counter: 0,
      use_tool: false,
      metrics: { tool_use_counter: 0, tool_success_counter: 0 },
      metrics_agg_mode: { tool_use_counter: 'last', tool_success_counter: 'last' },
    });
  });

  it('reset: several tools go under "Available tools:", one per line', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a'), fakeTool('b')]);
    expect((await env.reset()).observation).toBe('Question: 2+2?\nAvailable tools:\nUse <a>.\nUse <b>.');
  });

  it('reset reports the previous episode counters (prev_ep_*) and zeroes the current ones', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a'), fakeTool('bad', { isValid: false })]);
    await env.reset();
    await env.step('<a>');
    await env.step('<bad>');
    const { info } = await env.reset();
    expect(info).toMatchObject({ prev_ep_tool_use_counter: 2, prev_ep_tool_success_counter: 1, metrics: { tool_use_counter: 0, tool_success_counter: 0 } });
  });

  it('infoLayout "gem" keeps the counters at the top level, as GEM itself returns them', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a')], { infoLayout: 'gem' });
    const reset = await env.reset();
    expect(reset.info).toMatchObject({ tool_use_counter: 0, tool_success_counter: 0, use_tool: false });
    expect(reset.info.metrics).toBeUndefined();
    const step = await env.step('<a>');
    expect(step.info).toEqual({ parsed_action: '<a>', tool_type: 'base', use_tool: true, tool_use_counter: 1, tool_success_counter: 1 });
  });

  it('a tool step: info has parsed_action, tool_type, use_tool; inner metrics merge after the counters', async () => {
    const inner = new RecordingEnv();
    const [a, b, c] = [fakeTool('a'), { ...fakeTool('b'), toolType: 'search' }, fakeTool('b')];
    const env = new ToolEnvWrapper(inner, [a, b, c]);
    await env.reset();
    const step = await env.step('<b>x</b>');
    expect(step).toEqual({
      observation: 'b ok',
      reward: 0,
      terminated: false,
      truncated: false,
      info: {
        parsed_action: '<b>x</b>',
        tool_type: 'search',
        use_tool: true,
        metrics: { tool_use_counter: 1, tool_success_counter: 1 },
        metrics_agg_mode: { tool_use_counter: 'last', tool_success_counter: 'last' },
      },
    });
    expect([a.calls.length, c.calls.length]).toEqual([1, 0]);
    expect(inner.seen).toEqual([]);
  });

  it('an action no tool parses reaches the inner environment unchanged (use_tool false, inner metrics kept)', async () => {
    const inner = new RecordingEnv();
    inner.step = (action: string) => {
      inner.seen.push(action);
      return { observation: 'done', reward: 1, terminated: true, truncated: false, info: { inner: true, metrics: { success: 1 }, metrics_agg_mode: { success: 'sum' } } };
    };
    const env = new ToolEnvWrapper(inner, [fakeTool('a')], { toolReward: 5 });
    await env.reset();
    const action = '  The answer is 4 <tool_call without closing';
    const step = await env.step(action);
    expect(inner.seen).toEqual([action]);
    expect(step).toEqual({
      observation: 'done',
      reward: 1,
      terminated: true,
      truncated: false,
      info: {
        inner: true,
        use_tool: false,
        metrics: { tool_use_counter: 0, tool_success_counter: 0, success: 1 },
        metrics_agg_mode: { tool_use_counter: 'last', tool_success_counter: 'last', success: 'sum' },
      },
    });
  });

  it('rewards: tool_reward for every parsed call, tool_success_reward only for successful ones (the reward fix)', async () => {
    const ok = fakeTool('ok');
    const bad = fakeTool('bad', { isValid: false, observation: '[Execution Error: x]' });
    const env = new ToolEnvWrapper(new RecordingEnv(), [ok, bad], { toolReward: 0.1, toolSuccessReward: 0.5 });
    await env.reset();
    expect((await env.step('<ok>')).reward).toBeCloseTo(0.6);
    const failed = await env.step('<bad>');
    expect(failed.reward).toBeCloseTo(0.1);
    expect(failed.info.metrics).toEqual({ tool_use_counter: 2, tool_success_counter: 1 });
  });

  it('tool_execute_error_reward replaces the reward of a failed call; GEM refuses it with other rewards or when positive', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('ok'), fakeTool('bad', { isValid: false })], { toolExecuteErrorReward: -0.5 });
    await env.reset();
    expect((await env.step('<bad>')).reward).toBe(-0.5);
    expect((await env.step('<ok>')).reward).toBe(0);
    expect(() => new ToolEnvWrapper(new RecordingEnv(), [], { toolExecuteErrorReward: 0.5 })).toThrow('Error reward should be negative');
    expect(() => new ToolEnvWrapper(new RecordingEnv(), [], { toolExecuteErrorReward: -1, toolReward: 1 })).toThrow('tool reward is not compatible with tool execute error reward');
    expect(() => new ToolEnvWrapper(new RecordingEnv(), [], { toolExecuteErrorReward: -1, toolSuccessReward: 1 })).toThrow('tool success reward is not compatible with tool execute error reward');
  });

  it('max_tool_uses defaults to 10, as in GEM', async () => {
    const inner = new RecordingEnv();
    const env = new ToolEnvWrapper(inner, [fakeTool('a')]);
    await env.reset();
    for (let i = 1; i <= 10; i++) await env.step(`<a>${i}`);
    expect(env.toolUseCounter).toBe(10);
    await env.step('<a>11');
    expect(inner.seen).toEqual(['<a>11']);
    expect(new ToolEnvWrapper(inner, [], { maxToolUses: null }).maxToolUses).toBe(Infinity);
  });

  it("max_tool_uses: the call that reaches the limit carries GEM's message; later actions go to the inner env", async () => {
    const inner = new RecordingEnv();
    const tool = fakeTool('a');
    const env = new ToolEnvWrapper(inner, [tool], { maxToolUses: 2, toolSuccessReward: 1 });
    await env.reset();
    expect((await env.step('<a>1')).observation).toBe('a ok');
    expect((await env.step('<a>2')).observation).toBe(`a ok\n\n${LIMIT}`);
    const third = await env.step('<a>3');
    expect(tool.calls).toEqual(['<a>1', '<a>2']);
    expect(inner.seen).toEqual(['<a>3']);
    expect(third.info).toMatchObject({ use_tool: false, metrics: { tool_use_counter: 2, tool_success_counter: 2 } });
  });

  it('max_tool_uses 0 sends everything to the inner env; a custom limit message is used', async () => {
    const inner = new RecordingEnv();
    const env = new ToolEnvWrapper(inner, [fakeTool('a')], { maxToolUses: 0 });
    await env.reset();
    await env.step('<a>');
    expect(inner.seen).toEqual(['<a>']);
    const custom = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a')], { maxToolUses: 1, limitMessage: 'stop now' });
    await custom.reset();
    expect((await custom.step('<a>')).observation).toBe('a ok\n\nstop now');
    expect(() => new ToolEnvWrapper(inner, [], { maxToolUses: -1 })).toThrow(/maxToolUses must be 0 or more/);
  });

  it('close() closes every tool and the inner env once, even when one tool fails to close', async () => {
    const inner = new RecordingEnv();
    const good = fakeTool('a');
    const broken: Tool = { ...fakeTool('b'), close: () => Promise.reject(new Error('stuck')) };
    const env = new ToolEnvWrapper(inner, [broken, good]);
    await expect(env.close()).rejects.toThrow(/1 tool\(s\) or the environment failed to close/);
    expect(good.closed).toBe(1);
    expect(inner.closed).toBe(1);
    await env.close();
    expect(good.closed).toBe(1);
  });
});

describe('ToolEnvWrapper with MCPTool over HTTP', () => {
  let server: TestMcpServer;
  beforeAll(async () => {
    server = await startTestMcpServer();
  });
  afterAll(() => server.close());

  const qa = () => new QAEnv({ items: [{ id: 'q', question: 'What is 20 + 22?', answers: ['42'] }] });

  it('never gives the success reward to invalid or failed calls (the Python original does)', async () => {
    const tool = new MCPTool({ serverUrl: server.url, timeoutMs: 2000 });
    const env = new ToolEnvWrapper(qa(), [tool], { toolReward: 0.01, toolSuccessReward: 0.2 });
    await env.reset();
    const cases: Array<[string, number, string]> = [
      ['<tool_call>{oops</tool_call>', 0.01, '[Validation Error: '],
      [call('nope'), 0.01, "[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'nope'. Available tools are: ["],
      [call('add', { a: 'x', b: 1 }), 0.01, "[Validation Error: The tool call format is incorrect. Reason: 'x' is not of type 'number'"],
      [call('fail'), 0.01, '[Execution Error: the database is on fire]'],
      [call('add', { a: 20, b: 22 }), 0.21, '<information>42</information>'],
    ];
    for (const [action, reward, observation] of cases) {
      const step = await env.step(action);
      expect(step.reward, action).toBeCloseTo(reward);
      expect(step.observation.startsWith(observation), step.observation).toBe(true);
    }
    const answer = await env.step('<answer>42</answer>');
    expect(answer).toMatchObject({ reward: 1, terminated: true, info: { metrics: { tool_use_counter: 5, tool_success_counter: 1 }, correct: true } });
    await env.close();
  });

  it('structured content reaches info; close() closes the MCP tool', async () => {
    const tool = new MCPTool({ serverUrl: server.url });
    const env = new ToolEnvWrapper(qa(), [tool]);
    const { observation } = await env.reset();
    expect(observation).toContain('## AVAILABLE TOOLS\n');
    expect(observation).toContain('"name": "add",');
    const step = await env.step(call('add', { a: 1, b: 2 }));
    expect(step.info.structured_content).toEqual({ sum: 3 });
    expect(step.info).toMatchObject({ tool_name: 'add', tool_type: 'mcp', use_tool: true });
    await env.close();
    expect((await tool.executeAction(call('add', { a: 1, b: 2 }))).observation).toBe('[Execution Error: the MCP tool is closed]');
  });

  it('reset fails loudly when the server cannot be reached', async () => {
    const env = new ToolEnvWrapper(qa(), [new MCPTool({ serverUrl: 'http://127.0.0.1:9/mcp', timeoutMs: 2000 })]);
    await expect(env.reset()).rejects.toThrow(/fetch failed/);
    await env.close();
  });
});
