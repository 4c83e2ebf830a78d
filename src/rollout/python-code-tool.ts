import { z } from 'zod';
import type { Tool, ToolActionResult } from './env.ts';
import { runPython } from './python-runner.ts';
import { pyStrip } from './roll-messages.ts';

/**
 * ROLL's instruction for its `python_code` tool (roll/pipeline/agentic/tools/python_code_tool.py),
 * word for word, missing spaces included: a policy trained on ROLL read exactly this.
 */
export const ROLL_PYTHON_INSTRUCTION =
  'Initially, when solving a question, you would need to think step by step, without the ability to use code for calculation. ' +
  'Now, you have the capability to write code to use the code interpreter for calculation. ' +
  'The code will be executed by a sandbox, and the result can be returned to enhance your reasoning process. your calculation while still maintaining the reasoning process.' +
  'The thinking process can have multiple code snippets. Each code snippet is wrapped with: <code>...</code>, and should be executable.' +
  'Details:' +
  '1. Identify sections where code execution could speed up the reasoning process or make the calculation more accurate.' +
  "2. Replace the manual calculation steps with code snippets and the corresponding interpreter's execution results." +
  '3. Keep the logical flow of the reasoning process intact, including any failed exploration attempts that were part of the initial process.' +
  '4. The code snippets should be complete scripts, including necessary imports, and should not contain markdown symbols like <python>...‹/python>.' +
  '5. Outputs in the code snippets must explicitly call the print function.' +
  "6. Execution results should match the model's output exactly, with no extra or missing tokens.";

/** ROLL's default patterns: `<code>…</code>` or a ```python block. */
export const ROLL_PYTHON_PATTERNS = ['<code>(.*?)</code>', '```\\n?python(.*?)```'];

// GEM refuses these when there is no sandbox (gem/utils/sandbox.py check_forbidden_imports).
const FORBIDDEN_MODULES = ['subprocess', 'multiprocessing', 'threading', 'socket', 'psutil', 'resource', 'ctypes'];
const DANGEROUS_CALLS = ['os.system', 'os.popen', 'os.spawn', 'os.fork', 'os.exec', 'sys.exit', 'os._exit', 'os.kill'];
const BLOCKED = 'Execution blocked: Code contains potentially dangerous operations or imports.';

/** The `python_code` tool's args, as written under `tool_args` (ROLL's names, then ghostwire's). */
export const PythonCodeToolArgsSchema = z.strictObject({
  timeout: z.coerce.number().positive().default(5),
  /** Only "none" (a child process) exists here; GEM's "bwrap" is refused. */
  sandbox_type: z.literal('none').default('none'),
  keep_error_last_line: z.boolean().default(false),
  tool_instruction: z.string().nullable().optional(),
  patterns: z.array(z.string()).nullable().optional(),
  /** ghostwire: the interpreter (default `python3`). */
  python: z.string().min(1).optional(),
  /** ghostwire: bytes kept of stdout and of stderr each (default 65536). */
  max_output_bytes: z.coerce.number().int().positive().default(65536),
});
export type PythonCodeToolArgs = z.input<typeof PythonCodeToolArgsSchema>;

/**
 * ROLL's `python_code` tool: finds the first code block (`<code>…</code>` or ```python …```,
 * whichever ends first), runs it with python3 in a child process of its own process group
 * (timeout, output limit, fresh temp directory, minimal environment) and answers
 * `Code execution result: <output>\n`. Empty output counts as a failure, as in ROLL.
 *
 * @example
 * const tool = new PythonCodeTool({ timeout: 5 });
 * const r = await tool.executeAction('<code>print(6 * 7)</code>');
 * // { isParsed: true, isValid: true, observation: 'Code execution result: 42\n\n', ... }
 */
export class PythonCodeTool implements Tool {
  readonly toolType = 'python_code';
  readonly options: z.output<typeof PythonCodeToolArgsSchema>;
  readonly #patterns: RegExp[];

  constructor(args: PythonCodeToolArgs = {}) {
    const parsed = PythonCodeToolArgsSchema.safeParse(args);
    if (!parsed.success) {
      throw new Error(`tool "python_code": invalid tool_args: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(args)'}: ${i.message}`).join('; ')}`);
    }
    this.options = parsed.data;
    // Python's re.DOTALL: `.` also matches newlines.
    this.#patterns = (this.options.patterns || ROLL_PYTHON_PATTERNS).map((p) => new RegExp(p, 's'));
  }

  instructionString(): string {
    return this.options.tool_instruction || ROLL_PYTHON_INSTRUCTION;
  }

  async executeAction(action: string): Promise<ToolActionResult> {
    // The first match of each pattern; the one that ends first wins (ties: the later pattern, as ROLL's <= does).
    let code: string | undefined;
    let parsedAction = action;
    let end = action.length;
    for (const pattern of this.#patterns) {
      const m = pattern.exec(action);
      if (!m) continue;
      const matchEnd = m.index + m[0].length;
      if (matchEnd <= end) {
        code = pyStrip(m[1] ?? '');
        parsedAction = action.slice(0, matchEnd);
        end = matchEnd;
      }
    }
    if (code === undefined) return { isParsed: false, isValid: false, observation: '', parsedAction: action };

    let success: boolean;
    let stdout: string;
    let stderr: string;
    if (code === '...') [success, stdout, stderr] = [false, '', 'SyntaxError: invalid syntax'];
    else if (isForbidden(code)) [success, stdout, stderr] = [false, '', BLOCKED];
    else {
      try {
        const run = await runPython(code, { python: this.options.python, timeoutSeconds: this.options.timeout, maxOutputBytes: this.options.max_output_bytes });
        [success, stdout, stderr] = run.timedOut ? [false, '', `\nExecution timed out after ${this.options.timeout} seconds.`] : [run.success, run.stdout, run.stderr];
      } catch (error) {
        // The interpreter could not be started: a failed call the policy can read, not a crashed rollout.
        [success, stdout, stderr] = [false, '', `Failed to execute program: ${(error as Error).message}`];
      }
    }
    if (stderr && this.options.keep_error_last_line) stderr = stderr.split('\n').at(-1)!;
    const result = (stderr ? `${stdout}\n${stderr}` : stdout).replace(/^[ \n]+/, '');
    const isValid = success && result.length > 0;
    return { isParsed: true, isValid, observation: `Code execution result: ${result}\n`, parsedAction };
  }
}

function isForbidden(code: string): boolean {
  return FORBIDDEN_MODULES.some((m) => code.includes(`import ${m}`) || code.includes(`from ${m}`)) || DANGEROUS_CALLS.some((p) => code.includes(p));
}
