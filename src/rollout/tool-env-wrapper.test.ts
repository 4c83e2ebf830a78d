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

describe('ToolEnvWrapper with fake tools', () => {
  it('reset appends every instruction to the observation and info.env_instruction, keeping inner info', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a'), fakeTool('b')]);
    const { observation, info } = await env.reset({ seed: 1 });
    expect(observation).toBe('Question: 2+2?\n\nUse <a>.\n\nUse <b>.');
    expect(info).toEqual({ env_instruction: 'Answer briefly.\n\nUse <a>.\n\nUse <b>.', extra: 1, tool_use_counter: 0, tool_success_counter: 0 });
  });

  it('the first tool that parses handles the action; later tools and the inner env never see it', async () => {
    const inner = new RecordingEnv();
    const [a, b, c] = [fakeTool('a'), fakeTool('b'), fakeTool('b')];
    const env = new ToolEnvWrapper(inner, [a, b, c]);
    await env.reset();
    const step = await env.step('<b>x</b>');
    expect(step).toMatchObject({ observation: 'b ok', terminated: false, truncated: false, info: { tool_handled: true, tool_index: 1 } });
    expect([a.calls.length, b.calls.length, c.calls.length]).toEqual([1, 1, 0]);
    expect(inner.seen).toEqual([]);
  });

  it('an action no tool parses reaches the inner environment unchanged', async () => {
    const inner = new RecordingEnv();
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
      info: { inner: true, tool_handled: false, tool_limit_reached: false, tool_use_counter: 0, tool_success_counter: 0 },
    });
  });

  it('rewards: tool_reward for every parsed call, tool_success_reward only for successful ones', async () => {
    const ok = fakeTool('ok');
    const bad = fakeTool('bad', { isValid: false, observation: '[Execution Error: x]' });
    const env = new ToolEnvWrapper(new RecordingEnv(), [ok, bad], { toolReward: 0.1, toolSuccessReward: 0.5 });
    await env.reset();
    const good = await env.step('<ok>');
    const failed = await env.step('<bad>');
    expect(good.reward).toBeCloseTo(0.6);
    expect(failed.reward).toBeCloseTo(0.1);
    expect(failed.info).toMatchObject({ tool_use_counter: 2, tool_success_counter: 1, tool_valid: false });
  });

  it('counters reset with the episode', async () => {
    const env = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a')]);
    await env.reset();
    await env.step('<a>');
    expect(env.toolUseCounter).toBe(1);
    const { info } = await env.reset();
    expect(info).toMatchObject({ tool_use_counter: 0, tool_success_counter: 0 });
  });

  it('max_tool_uses: the call that reaches the limit says so; later actions go to the inner env', async () => {
    const inner = new RecordingEnv();
    const tool = fakeTool('a');
    const env = new ToolEnvWrapper(inner, [tool], { maxToolUses: 2, toolSuccessReward: 1 });
    await env.reset();
    const first = await env.step('<a>1');
    expect(first.observation).toBe('a ok');
    expect(first.info.tool_limit_reached).toBe(false);
    const second = await env.step('<a>2');
    expect(second.observation).toBe('a ok\n\nYou have reached the maximum number of tool uses (2). Do not call tools any more; give your final answer directly.');
    expect(second.info).toMatchObject({ tool_limit_reached: true, tool_use_counter: 2 });
    const third = await env.step('<a>3');
    expect(tool.calls).toEqual(['<a>1', '<a>2']);
    expect(inner.seen).toEqual(['<a>3']);
    expect(third.info).toMatchObject({ tool_handled: false, tool_limit_reached: true, tool_use_counter: 2, tool_success_counter: 2 });
  });

  it('max_tool_uses 0 sends everything to the inner env; a custom limit message is used', async () => {
    const inner = new RecordingEnv();
    const env = new ToolEnvWrapper(inner, [fakeTool('a')], { maxToolUses: 0 });
    await env.reset();
    await env.step('<a>');
    expect(inner.seen).toEqual(['<a>']);
    const custom = new ToolEnvWrapper(new RecordingEnv(), [fakeTool('a')], { maxToolUses: 1, limitMessage: (n) => `stop after ${n}` });
    await custom.reset();
    expect((await custom.step('<a>')).observation).toBe('a ok\n\nstop after 1');
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
      [call('nope'), 0.01, '[Validation Error: unknown tool'],
      [call('add', { a: 'x', b: 1 }), 0.01, '[Validation Error: invalid params'],
      [call('fail'), 0.01, '[Execution Error: the database is on fire]'],
      [call('add', { a: 20, b: 22 }), 0.21, '<information>42</information>'],
    ];
    for (const [action, reward, observation] of cases) {
      const step = await env.step(action);
      expect(step.reward, action).toBeCloseTo(reward);
      expect(step.observation.startsWith(observation), step.observation).toBe(true);
    }
    const answer = await env.step('<answer>42</answer>');
    expect(answer).toMatchObject({ reward: 1, terminated: true, info: { tool_use_counter: 5, tool_success_counter: 1, correct: true } });
    await env.close();
  });

  it('structured content reaches info; close() closes the MCP tool', async () => {
    const tool = new MCPTool({ serverUrl: server.url });
    const env = new ToolEnvWrapper(qa(), [tool]);
    const { observation } = await env.reset();
    expect(observation).toContain('### add');
    const step = await env.step(call('add', { a: 1, b: 2 }));
    expect(step.info.structured_content).toEqual({ sum: 3 });
    expect(step.info.tool_name).toBe('add');
    await env.close();
    expect((await tool.executeAction(call('add', { a: 1, b: 2 }))).observation).toBe('[Execution Error: the MCP tool is closed]');
  });

  it('reset fails loudly when the server cannot be reached', async () => {
    const env = new ToolEnvWrapper(qa(), [new MCPTool({ serverUrl: 'http://127.0.0.1:9/mcp', timeoutMs: 2000 })]);
    await expect(env.reset()).rejects.toThrow(/fetch failed/);
    await env.close();
  });
});
