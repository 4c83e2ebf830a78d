import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ScenarioSchema, type Scenario } from './schema.ts';
import { scanJson } from './json-locate.ts';
import { explainIssues, formatPath, regexIssues, type PathIssue } from './issues.ts';
import { lintScenario } from './lint.ts';
import { ScenarioLoadError, type ScenarioIssue } from './load-error.ts';

export { formatIssue, ScenarioLoadError, type ScenarioIssue } from './load-error.ts';

/**
 * Loading scenario files.
 *
 * - A path is a file or a directory; a directory contributes every `*.json` below it (recursively,
 *   skipping dot-entries), sorted by relative path compared code unit by code unit.
 * - A file holds one scenario or an array of scenarios. A `"$schema"` property is allowed and dropped.
 * - Merging by name, in load order: when a later scenario has the name of an earlier one it replaces
 *   it in the earlier one's position — its steps and priority replace the earlier ones wholesale,
 *   its variables are merged over the earlier variables (later keys win). Two scenarios of the same
 *   name inside one file are an error.
 * - Every file is read and validated before anything is returned; any problem in any file throws
 *   one ScenarioLoadError listing every problem found (never a half-loaded set).
 */

/** What reading a set of paths found: the files, the merged scenarios, and every problem. */
export interface ScenarioReadResult {
  files: string[];
  scenarios: Scenario[];
  /** Scenarios as they appear in each file, before merging (for counts). */
  perFile: Array<{ file: string; scenarios: Scenario[] }>;
  issues: ScenarioIssue[];
  /** Valid but suspicious (a step that can never answer, an ignored setting); loading does not fail. */
  warnings: ScenarioIssue[];
}

const errorCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

function listJsonFiles(dir: string, issues: ScenarioIssue[]): string[] {
  const found: string[] = [];
  // Real paths of directories entered, so a symlink cycle cannot recurse forever.
  const entered = new Set<string>();
  const walk = (rel: string): void => {
    const here = rel ? join(dir, rel) : dir;
    let names: string[];
    try {
      const real = realpathSync(here);
      if (entered.has(real)) return;
      entered.add(real);
      names = readdirSync(here);
    } catch (err) {
      issues.push({ file: here, path: '', message: `cannot read directory: ${errorCode(err)}` });
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const childRel = rel ? `${rel}/${name}` : name;
      let stat;
      try {
        stat = statSync(join(dir, childRel));
      } catch (err) {
        // A dangling symlink named *.json is a file that was meant to load.
        if (name.endsWith('.json')) issues.push({ file: join(dir, childRel), path: '', message: `cannot read: ${errorCode(err)}` });
        continue;
      }
      if (stat.isDirectory()) walk(childRel);
      else if (stat.isFile() && name.endsWith('.json')) found.push(childRel);
    }
  };
  walk('');
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((rel) => join(dir, rel));
}

/**
 * Expands paths (files or directories) to the scenario files, in load order.
 * @example
 *   listScenarioFiles('fixtures/scenarios').files // every scenario file under the directory, sorted
 */
export function listScenarioFiles(paths: string | string[]): { files: string[]; issues: ScenarioIssue[] } {
  const files: string[] = [];
  const issues: ScenarioIssue[] = [];
  for (const p of Array.isArray(paths) ? paths : [paths]) {
    let stat;
    try {
      stat = statSync(p);
    } catch (err) {
      const code = errorCode(err);
      issues.push({ file: p, path: '', message: code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${code}` });
      continue;
    }
    if (stat.isDirectory()) {
      const before = issues.length;
      const inDir = listJsonFiles(p, issues);
      if (inDir.length === 0 && issues.length === before) issues.push({ file: p, path: '', message: 'no *.json scenario files in this directory' });
      files.push(...inDir);
    } else if (stat.isFile()) {
      files.push(p);
    } else {
      // Reading a FIFO or a device could block forever.
      issues.push({ file: p, path: '', message: 'not a regular file or directory' });
    }
  }
  return { files, issues };
}

/**
 * Validates one file's text; never throws. `file` is only used in the issues.
 * @example
 *   const { scenarios, issues } = parseScenarioText('{"name":"a","steps":[]}', 'a.json');
 */
export function parseScenarioText(
  text: string,
  file: string,
): { scenarios: Scenario[]; issues: ScenarioIssue[]; warnings: ScenarioIssue[] } {
  const scan = scanJson(text);
  if (!scan.ok) {
    const { line, column, message } = scan.error;
    return { scenarios: [], issues: [{ file, path: '', line, column, message: `invalid JSON: ${message}` }], warnings: [] };
  }
  const located = (p: PathIssue): ScenarioIssue => ({ file, path: formatPath(p.path), message: p.message, ...scan.locate(p.path) });
  const json = scan.value;
  const isArray = Array.isArray(json);
  const items: unknown[] = isArray ? json : [json];
  const pathIssues: PathIssue[] = [];
  const pathWarnings: PathIssue[] = [];
  const scenarios: Scenario[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const prefix = isArray ? [i] : [];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      pathIssues.push({ path: prefix, message: `expected a scenario object${isArray ? '' : ' or an array of scenarios'}, got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item}` });
      return;
    }
    const before = pathIssues.length;
    const r = ScenarioSchema.safeParse(item);
    if (!r.success) pathIssues.push(...explainIssues(ScenarioSchema, item, r.error.issues, prefix));
    pathIssues.push(...regexIssues(item, prefix));
    if (pathIssues.length > before || !r.success) return;
    const { $schema: _drop, ...scenario } = r.data;
    const first = seen.get(scenario.name);
    if (first !== undefined) {
      pathIssues.push({ path: [...prefix, 'name'], message: `duplicate scenario name ${JSON.stringify(scenario.name)} (also at [${first}]); merge them or rename one` });
      return;
    }
    seen.set(scenario.name, i);
    scenarios.push(scenario);
    pathWarnings.push(...lintScenario(scenario).map((w) => ({ ...w, path: [...prefix, ...w.path] })));
  });
  // Reported in file order, so the list reads top to bottom like the file.
  const byPosition = (a: ScenarioIssue, b: ScenarioIssue): number => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
  const issues = pathIssues.map(located).sort(byPosition);
  const warnings = pathWarnings.map(located).sort(byPosition);
  return { scenarios: pathIssues.length ? [] : scenarios, issues, warnings };
}

/**
 * Merges scenarios by name in order (see the module comment).
 * @example
 *   mergeScenarios([baseScenarios, overrides]) // later steps of a same-named scenario win
 */
export function mergeScenarios(lists: Scenario[][]): Scenario[] {
  const out: Scenario[] = [];
  const at = new Map<string, number>();
  for (const s of lists.flat()) {
    const i = at.get(s.name);
    if (i === undefined) {
      at.set(s.name, out.length);
      out.push(s);
    } else {
      out[i] = { ...s, variables: { ...out[i].variables, ...s.variables } };
    }
  }
  return out;
}

/**
 * Reads and validates files and directories without throwing; the CLI's `scenario check` uses it.
 * @example
 *   const { files, scenarios, issues } = readScenarioFiles('fixtures/scenarios');
 */
export function readScenarioFiles(paths: string | string[]): ScenarioReadResult {
  const { files, issues } = listScenarioFiles(paths);
  const perFile: ScenarioReadResult['perFile'] = [];
  const warnings: ScenarioIssue[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      issues.push({ file, path: '', message: `cannot read: ${errorCode(err)}` });
      continue;
    }
    const parsed = parseScenarioText(text, file);
    issues.push(...parsed.issues);
    warnings.push(...parsed.warnings);
    perFile.push({ file, scenarios: parsed.scenarios });
  }
  const scenarios = issues.length ? [] : mergeScenarios(perFile.map((f) => f.scenarios));
  return { files, scenarios, perFile, issues, warnings };
}

/**
 * Loads scenarios from a file, a directory, or several of them (merged by name in order).
 * Throws ScenarioLoadError listing every problem of every file.
 * @example
 *   const scenarios = loadScenarios('fixtures/scenarios');
 *   const mock = createMockLLM({ scenarios });
 */
export function loadScenarios(fileOrDir: string | string[]): Scenario[] {
  const { scenarios, issues } = readScenarioFiles(fileOrDir);
  if (issues.length) throw new ScenarioLoadError(issues);
  return scenarios;
}

/**
 * Loads the scenarios named by `MOCKLLM_SCENARIOS` (a file or directory; several joined by the
 * platform's path delimiter, `:` on POSIX). Returns [] when it is unset or empty.
 * @example
 *   const scenarios = loadScenariosFromEnv(); // MOCKLLM_SCENARIOS=fixtures/scenarios
 */
export function loadScenariosFromEnv(env: Record<string, string | undefined> = process.env): Scenario[] {
  const value = env.MOCKLLM_SCENARIOS?.trim();
  if (!value) return [];
  return loadScenarios(value.split(delimiter).filter(Boolean));
}
