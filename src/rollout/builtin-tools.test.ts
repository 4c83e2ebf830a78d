/**
 * The built-in `python_code` (ROLL's PythonCodeTool over GEM's sandbox runner) and `search`
 * (GEM's SearchTool, over a local BM25 backend) tools, with inputs from GEM's
 * tests/test_tool/test_python_code_tool.py and test_search_tool.py, and GEM's MCP
 * `<tool_name>…</tool_name><arguments>…</arguments>` syntax (tests/test_tool/test_mcp_tool.py).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { McpClientLike } from './mcp-tool.ts';
import { MCPTool } from './mcp-tool.ts';
import { PythonCodeTool, ROLL_PYTHON_INSTRUCTION } from './python-code-tool.ts';
import { GEM_SEARCH_INSTRUCTION, SearchTool } from './search-tool.ts';
import { createToolRegistry } from './tool-registry.ts';
import { ToolEnvWrapper } from './tool-env-wrapper.ts';
import type { Env } from './env.ts';

// The interpreter behind `python3`, resolved once: where `python3` is a version manager's shim (pyenv's is a
// bash script starting a dozen more), each run would cost ~0.3 s of CPU before Python starts. The tools below
// get the interpreter itself; the tool environment's test at the end keeps the default `python3`. Without a
// `python3`, the name stays, and only the tests that run Python fail, saying so.
const PYTHON = (() => {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
  } catch {
    return 'python3';
  }
})();

describe('python_code', () => {
  // A timeout well above a Python start on a loaded machine (a 2-second one timed out a test in a full run):
  // these tests are about the answers, the timeout test below has its own.
  const tool = new PythonCodeTool({ timeout: 15, python: PYTHON });

  it("ROLL's instruction; registered under python_code like mcp", () => {
    expect(tool.instructionString()).toBe(ROLL_PYTHON_INSTRUCTION);
    expect(tool.instructionString()).toContain('Each code snippet is wrapped with: <code>...</code>, and should be executable.Details:1. Identify');
    expect(createToolRegistry().make('python_code', { timeout: 1 })).toBeInstanceOf(PythonCodeTool);
    expect(createToolRegistry().ids()).toEqual(['python_code', 'search', 'mcp']);
  });

  it('runs the first <code> block and answers "Code execution result: …\\n"', async () => {
    const action = "let me compute <code>print('Hello from Python!')</code> then <code>print(2)</code>";
    expect(await tool.executeAction(action)).toEqual({
      isParsed: true,
      isValid: true,
      observation: 'Code execution result: Hello from Python!\n\n',
      parsedAction: "let me compute <code>print('Hello from Python!')</code>",
    });
  });

  it('takes whichever pattern ends first: a ```python block before a <code> block', async () => {
    const result = await tool.executeAction('```python\nprint(6 * 7)\n``` and <code>print(1)</code>');
    expect(result.observation).toBe('Code execution result: 42\n\n');
    expect(result.parsedAction).toBe('```python\nprint(6 * 7)\n```');
  });

  it('GEM test actions: a plain answer is not parsed; a typo fails with the traceback; no output is a failure', async () => {
    expect(await tool.executeAction('Dummy action')).toMatchObject({ isParsed: false, observation: '' });
    expect(await tool.executeAction('\\boxed{30}')).toMatchObject({ isParsed: false });
    const typo = await tool.executeAction("```<code>prnit('Hello from Python!')</code> ...");
    expect(typo.isValid).toBe(false);
    expect(typo.observation).toMatch(/^Code execution result: Traceback \(most recent call last\):\n {2}File "<string>", line 1, in <module>\n[\s\S]*NameError: name 'prnit' is not defined[\s\S]*\n$/);
    expect(await tool.executeAction('<code>x = 1</code>')).toEqual({ isParsed: true, isValid: false, observation: 'Code execution result: \n', parsedAction: '<code>x = 1</code>' });
  });

  it('keep_error_last_line keeps only the last stderr line', async () => {
    const last = new PythonCodeTool({ keep_error_last_line: true, python: PYTHON });
    expect((await last.executeAction('<code>print(1/0)</code>')).observation).toBe('Code execution result: ZeroDivisionError: division by zero\n');
  });

  it("GEM's forbidden imports are refused without running", async () => {
    expect((await tool.executeAction('<code>import subprocess\nprint(1)</code>')).observation).toBe(
      'Code execution result: Execution blocked: Code contains potentially dangerous operations or imports.\n',
    );
  });

  it('a hung snippet is killed with its whole process group at the timeout', async () => {
    const quick = new PythonCodeTool({ timeout: 0.5, python: PYTHON });
    const marker = `ghostwire-sleep-${process.pid}-${Date.now()}`;
    // The snippet starts a grandchild interpreter (importing subprocess by name, past GEM's string check), then hangs.
    const code = `import time, sys\nimport importlib\nsp = importlib.import_module('subprocess')\nsp.Popen([sys.executable, '-c', 'import time; time.sleep(30)', '${marker}'])\ntime.sleep(30)`;
    const started = Date.now();
    const result = await quick.executeAction(`<code>${code}</code>`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toMatchObject({ isParsed: true, isValid: false, observation: 'Code execution result: Execution timed out after 0.5 seconds.\n' });
    await new Promise((r) => setTimeout(r, 100));
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
    expect(left).toEqual([]);
  });

  it('a missing interpreter is a failed call, not a crash', async () => {
    const none = new PythonCodeTool({ python: '/nonexistent/python3' });
    expect(await none.executeAction('<code>print(1)</code>')).toMatchObject({ isParsed: true, isValid: false, observation: 'Code execution result: Failed to execute program: spawn /nonexistent/python3 ENOENT\n' });
  });

  it('output beyond max_output_bytes is cut, and the cut is stated', async () => {
    const small = new PythonCodeTool({ max_output_bytes: 10, python: PYTHON });
    expect((await small.executeAction("<code>print('x' * 100)</code>")).observation).toBe('Code execution result: xxxxxxxxxx\n…[output truncated: 91 more bytes]\n');
  });
});

describe('search', () => {
  const documents = [
    { contents: '"Canaan Dog"\nThe Canaan Dog is a breed of pariah dog, the national dog of Israel.' },
    { contents: '"Dutch Shepherd"\nThe Dutch Shepherd is a herding dog from the Netherlands.' },
    { title: '"Paris"', text: 'Paris is the capital of France.' },
  ];

  it("GEM's instruction and reference format; the first <search> wins", async () => {
    const tool = new SearchTool({ documents, topk: 2 });
    expect(tool.instructionString()).toBe(GEM_SEARCH_INSTRUCTION);
    const result = await tool.executeAction('<think>need facts</think><search> dog breed Israel </search> more <search>x</search>');
    expect(result).toEqual({
      isParsed: true,
      isValid: true,
      observation: 'Doc 1(Title: "Canaan Dog") The Canaan Dog is a breed of pariah dog, the national dog of Israel.\nDoc 2(Title: "Dutch Shepherd") The Dutch Shepherd is a herding dog from the Netherlands.\n',
      parsedAction: '<think>need facts</think><search> dog breed Israel </search>',
    });
    expect(await tool.executeAction('<answer>Canaan Dog</answer>')).toMatchObject({ isParsed: false, observation: '' });
  });

  it('a failing backend is GEM\'s "[SearchTool Error: …]", a failed call', async () => {
    const tool = new SearchTool({ backend: { search: () => Promise.reject(new Error('index offline')) } });
    expect(await tool.executeAction('<search>q</search>')).toMatchObject({ isParsed: true, isValid: false, observation: '[SearchTool Error: index offline]' });
  });

  it('needs a document set or a backend; says why a search_url alone is not enough', () => {
    expect(() => new SearchTool({ search_url: 'http://localhost:8000/retrieve' })).toThrow(/needs "documents", "documents_file" or a "backend" \(search_url "http:\/\/localhost:8000\/retrieve" is GEM's msgpack retrieval server/);
  });
});

describe("GEM's MCP syntax: <tool_call><tool_name>…</tool_name><arguments>…</arguments></tool_call>", () => {
  const client: McpClientLike = {
    listTools: async () => ({ tools: [{ name: 'current_time', inputSchema: { type: 'object', properties: { format: { type: 'string' }, timezone: { type: 'string' } } } }] }),
    callTool: async ({ arguments: args }) => ({ content: [{ type: 'text', text: `now in ${String((args as Record<string, unknown>).timezone)}` }] }),
  };

  it('GEM test actions: parsed, validated and called like the JSON form', async () => {
    const tool = new MCPTool({ client });
    const ok = await tool.executeAction('<tool_call><tool_name>current_time</tool_name><arguments>{"format": "YYYY-MM-DD", "timezone": "UTC"}</arguments></tool_call> ...');
    expect(ok).toMatchObject({ isParsed: true, isValid: true, observation: '<information>now in UTC</information>', toolName: 'current_time' });
    const spaced = await tool.executeAction('<tool_call>\n<tool_name>current_time</tool_name>\n<arguments>\n{"timezone": "CET"}\n</arguments>\n</tool_call>');
    expect(spaced.observation).toBe('<information>now in CET</information>');
    const unknown = await tool.executeAction('<tool_call><tool_name>non_existing_tool</tool_name><arguments>{"foo": "bar"}</arguments></tool_call> ...');
    expect(unknown.observation).toBe("[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'non_existing_tool'. Available tools are: ['current_time']]");
    expect(await tool.executeAction('Dummy action')).toMatchObject({ isParsed: false });
  });

  it('several tools: the reset lists them under "Available tools:"; each action goes to the tool that parses it', async () => {
    const inner: Env<string> = { reset: () => ({ observation: 'Q', info: {} }), step: () => ({ observation: 'done', reward: 1, terminated: true, truncated: false, info: {} }) };
    const env = new ToolEnvWrapper(inner, [new PythonCodeTool(), new SearchTool({ documents: [{ contents: 't\nbody' }] }), new MCPTool({ client })]);
    const { observation } = await env.reset();
    expect(observation.startsWith(`Q\nAvailable tools:\n${ROLL_PYTHON_INSTRUCTION}\n${GEM_SEARCH_INSTRUCTION}\nYou are a precise`)).toBe(true);
    expect((await env.step('<search>body</search>')).info).toMatchObject({ tool_type: 'search', use_tool: true });
    expect((await env.step('<code>print(1)</code>')).info).toMatchObject({ tool_type: 'python_code', use_tool: true });
    expect((await env.step('<tool_call><tool_name>current_time</tool_name><arguments>{}</arguments></tool_call>')).info).toMatchObject({ tool_type: 'mcp' });
  });
});

describe('search from a config', () => {
  it("a ROLL-style entry with the search tool: documents_file relative to the config, GEM's texts end to end", async () => {
    const { loadRolloutConfig } = await import('./config.ts');
    const { makeRolloutEnv } = await import('./make-env.ts');
    const loaded = await loadRolloutConfig(new URL('../../fixtures/rollout/qa-search.yaml', import.meta.url).pathname, { env: {} });
    const env = await makeRolloutEnv(loaded, 'QA_with_search');
    const { observation } = await env.reset({ seed: 1 });
    expect(observation).toBe(`Answer the question. When you know the answer, reply with it inside <answer>...</answer>.\n\nQuestion: What is the capital of Japan?\n${GEM_SEARCH_INSTRUCTION}`);
    const searched = await env.step('<search>capital of Japan</search>');
    expect(searched).toMatchObject({
      observation: 'Doc 1(Title: "Tokyo") Tokyo is the capital of Japan.\n\n\nReached the maximum number of tool use. Please output final answer directly.',
      reward: 0.1,
      info: { tool_type: 'search', parsed_action: '<search>capital of Japan</search>' },
    });
    expect(await env.step('<answer>Tokyo</answer>')).toMatchObject({ reward: 1, terminated: true });
    await env.close?.();
  });
});
