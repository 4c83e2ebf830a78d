// A scenario file's problems and the error that lists them, apart from the loader: the MCP mock's loader
// reports its problems the same way, and must not load the LLM scenario format (and with it every provider)
// to do so.

/** One problem: the file, where in it (JSON path, line and column when known) and what was expected. */
export interface ScenarioIssue {
  file: string;
  /** `steps[2].respond.toolCalls[0].name`, or `(top level)`; empty for problems with the file itself. */
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * Renders one issue as `file:line:column: path: message`.
 * @example
 *   formatIssue({ file: 'a.json', line: 3, column: 5, path: 'steps[0].respond', message: 'expected an object' }) // 'a.json:3:5: steps[0].respond: expected an object'
 */
export function formatIssue(issue: ScenarioIssue): string {
  const where = issue.line !== undefined ? `${issue.file}:${issue.line}:${issue.column}` : issue.file;
  return issue.path ? `${where}: ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`;
}

/**
 * Thrown when any scenario file is missing, is not JSON, or does not match the scenario format.
 * @example
 *   try { loadScenarios('scenarios/'); } catch (e) { if (e instanceof ScenarioLoadError) console.error(e.issues.map(formatIssue).join('\n')); }
 */
export class ScenarioLoadError extends Error {
  readonly issues: ScenarioIssue[];

  constructor(issues: ScenarioIssue[]) {
    const files = new Set(issues.map((i) => i.file)).size;
    const head = `invalid scenarios: ${issues.length} problem${issues.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;
    super(`${head}\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
    this.name = 'ScenarioLoadError';
    this.issues = issues;
  }
}
