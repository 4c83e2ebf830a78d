import { ScenarioSchema, type Scenario } from './schema.ts';
import { explainIssues, formatPath, regexIssues, type PathIssue } from './issues.ts';

/**
 * A scenario object (from code, not a file) is not valid; the message names each path and what was expected.
 * @example
 *   if (error instanceof ScenarioValidationError) console.error(error.issues); // [{ path: 'steps[0].respond', message: ... }]
 */
export class ScenarioValidationError extends Error {
  readonly issues: Array<{ path: string; message: string }>;

  constructor(name: string, issues: PathIssue[]) {
    const lines = issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
    super(`scenario ${name} is not valid:\n${lines.map((l) => `  ${l.path}: ${l.message}`).join('\n')}`);
    this.name = 'ScenarioValidationError';
    this.issues = lines;
  }
}

/**
 * Validates a scenario given as an object (JSON-shaped or from the builder) and applies defaults.
 * Unlike `ScenarioSchema.parse`, the error reads like the loader's: path and expectation per problem,
 * and `match` regexes must compile.
 * @example
 *   const s = parseScenario({ name: 'hi', steps: [{ respond: { text: 'Hello' } }] });
 */
export function parseScenario(input: unknown): Scenario {
  const parsed = ScenarioSchema.safeParse(input);
  const issues = [...(parsed.success ? [] : explainIssues(ScenarioSchema, input, parsed.error.issues)), ...regexIssues(input)];
  if (parsed.success && issues.length === 0) return parsed.data;
  const name = (input as { name?: unknown } | null)?.name;
  throw new ScenarioValidationError(typeof name === 'string' ? JSON.stringify(name) : '(unnamed)', issues);
}
