// The loop alone, with a scripted provider and a fake tool invoker: no processes, no HTTP.
import { describe, expect, it } from 'vitest';
import { runLoop, type LoopInput } from './loop.ts';
import type { Completion, GhostMessage, LLMProvider, ProviderTool } from './provider.ts';
import { ToolExecutor, type ToolInvoker } from './tool-executor.ts';
import { ToolNameMap } from './tool-names.ts';
import type { ToolOutcome } from './mcp-manager.ts';

type Turn = Partial<Completion> | Error;

/** A provider that answers from a script and remembers what it was sent. */
function scripted(turns: Turn[]): LLMProvider & { seen: Array<{ messages: GhostMessage[]; tools: readonly ProviderTool[] }> } {
  const seen: Array<{ messages: GhostMessage[]; tools: readonly ProviderTool[] }> = [];
  return {
    name: 'openai',
    defaultModel: 'm',
    seen,
    async createCompletion(messages, tools) {
      seen.push({ messages: messages.map((m) => ({ ...m })), tools });
      const turn = turns.shift();
      if (!turn) throw new Error('script exhausted');
      if (turn instanceof Error) throw turn;
      return { text: '', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, finishReason: 'stop', model: 'm', retries: 0, ...turn };
    },
  };
}

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({ id, name, arguments: args, rawArguments: JSON.stringify(args) });

const TOOLS = [
  { server: 's', name: 'ok', description: 'works', inputSchema: { type: 'object', properties: {} } },
  { server: 's', name: 'bad', description: 'fails', inputSchema: { type: 'object', properties: {} } },
];

function setup(turns: Turn[], over: Partial<LoopInput> = {}, invoke?: ToolInvoker['callTool']) {
  const names = new ToolNameMap('openai', TOOLS.map((t) => ({ server: t.server, tool: t.name })));
  const invoker: ToolInvoker = {
    callTool: invoke ?? (async (_server, tool): Promise<ToolOutcome> => (tool === 'ok' ? { ok: true, text: '"fine"', value: null } : { ok: false, text: '', value: null, error: 'nope' })),
  };
  const executor = new ToolExecutor(invoker, names, TOOLS, { maxToolResultChars: 1000, maxIdenticalCalls: 3, circuitBreakerThreshold: 3, stripNulls: false });
  const llm = scripted(turns);
  const input: LoopInput = {
    llm,
    executor,
    tools: TOOLS.map((t) => ({ name: names.toProvider(t.server, t.name), description: t.description, parameters: t.inputSchema })),
    systemPrompt: 'sys',
    userPrompt: 'go',
    maxIterations: 5,
    enableBacktracking: true,
    conversationMemory: true,
    memoryTokenBudget: 100_000,
    ...over,
  };
  return { llm, run: () => runLoop(input) };
}

describe('runLoop', () => {
  it('answers directly when the model calls no tool', async () => {
    const { run } = setup([{ text: 'hello' }]);
    const out = await run();
    expect(out).toMatchObject({ success: true, finalResult: 'hello', summary: 'hello', iterations: 1, stopReason: 'answered' });
  });

  it('parses a JSON final answer into finalResult', async () => {
    const { run } = setup([{ text: '{"count": 5}' }]);
    expect((await run()).finalResult).toEqual({ count: 5 });
  });

  it('reports success false when every tool call failed, even if the model then answered', async () => {
    const { run } = setup([{ toolCalls: [call('1', 's_bad')] }, { text: 'I could not.' }]);
    const out = await run();
    expect(out.success).toBe(false);
    expect(out.summary).toMatch(/^Every tool call failed\. Final answer: I could not\./);
  });

  it('sends one recovery prompt naming every failed call of a turn', async () => {
    const { run, llm } = setup([{ toolCalls: [call('1', 's_bad'), call('2', 's_ok'), call('3', 's_bad', { a: 1 })] }, { text: 'done' }]);
    const out = await run();
    const sent = llm.seen[1].messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'tool', 'user']);
    expect(sent.at(-1)!.content.match(/Tool s_bad failed: nope/g)).toHaveLength(2);
    expect(out.backtrackCount).toBe(2);
    expect(out.toolChain.map((t) => t.retryAttempt)).toEqual([0, 0, 0]);
  });

  it('ignores tool calls in the final no-tools turn', async () => {
    const { run, llm } = setup([{ toolCalls: [call('1', 's_ok')] }, { text: 'final', toolCalls: [call('2', 's_ok')] }], { maxIterations: 1 });
    const out = await run();
    expect(llm.seen[1].tools).toEqual([]);
    expect(out.toolChain).toHaveLength(1);
    expect(out.finalResult).toBe('final');
    expect(out.stopReason).toBe('max_iterations');
  });

  it('turns a provider error into an llm_error result', async () => {
    const { run } = setup([{ toolCalls: [call('1', 's_ok')] }, new Error('openai HTTP 401: bad key')]);
    const out = await run();
    expect(out).toMatchObject({ success: false, stopReason: 'llm_error', iterations: 1 });
    expect(out.errors.at(-1)).toEqual({ iteration: 2, toolName: null, error: 'openai HTTP 401: bad key', recoveryAction: null });
  });

  it('offers no tools and answers when no server provided any', async () => {
    const { run, llm } = setup([{ text: 'no tools here' }], { tools: [] });
    const out = await run();
    expect(llm.seen[0].tools).toEqual([]);
    expect(out.success).toBe(true);
  });

  it('stops as aborted when the signal fires during a tool call', async () => {
    const controller = new AbortController();
    const { run } = setup([{ toolCalls: [call('1', 's_ok')] }, { text: 'never' }], { signal: controller.signal }, async () => {
      controller.abort();
      return { ok: false, text: '', value: null, error: 'aborted' };
    });
    const out = await run();
    expect(out.stopReason).toBe('aborted');
    expect(out.success).toBe(false);
  });

  it('sums token usage over every turn', async () => {
    const usage = (n: number) => ({ promptTokens: n, completionTokens: 1, totalTokens: n + 1 });
    const { run } = setup([{ toolCalls: [call('1', 's_ok')], usage: usage(10) }, { text: 'x', usage: usage(20) }]);
    expect((await run()).usage).toEqual({ promptTokens: 30, completionTokens: 2, totalTokens: 32 });
  });
});
