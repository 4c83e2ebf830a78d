import { readFileSync } from 'node:fs';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { explainIssues, formatPath, type PathIssue } from '../../scenario/issues.ts';
import { scanJson } from '../../scenario/json-locate.ts';
import { ScenarioLoadError, type ScenarioIssue } from '../../scenario/load-error.ts';
import { parseJsonPath } from './match.ts';
import { ContentBlockSchema, MCPScenarioSchema, type MCPScenario } from './schema.ts';

/**
 * Reading and validating MCP scenarios, with errors that name the file, line, column and JSON
 * path (the LLM scenario loader's machinery: json-locate, issues, ScenarioLoadError).
 */

/**
 * A scenario given as an object is not valid; the message names each path and what was expected.
 * @example
 *   try { parseMCPScenario({ name: 'x', tools: [{}] }); } catch (e) { e.issues; } // [{ path: 'tools[0].name', ... }]
 */
export class MCPScenarioError extends Error {
  readonly issues: Array<{ path: string; message: string }>;

  constructor(name: string, issues: PathIssue[]) {
    const lines = issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
    super(`MCP scenario ${name} is not valid:\n${lines.map((l) => `  ${l.path}: ${l.message}`).join('\n')}`);
    this.name = 'MCPScenarioError';
    this.issues = lines;
  }
}

function compiles(pattern: string, flags: string | undefined): string | null {
  try {
    new RegExp(pattern, flags);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Regexes that do not compile and JSON paths that do not parse, below `match`/`expect` objects. */
function matcherIssues(node: unknown, path: Array<string | number>, out: PathIssue[], inPaths = false): void {
  if (Array.isArray(node)) return node.forEach((n, i) => matcherIssues(n, [...path, i], out));
  if (node === null || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  if (typeof obj.regex === 'string') {
    const problem = compiles(obj.regex, typeof obj.flags === 'string' ? obj.flags : undefined);
    if (problem) out.push({ path: [...path, 'regex'], message: `expected a valid regular expression: ${problem}` });
  }
  for (const [k, v] of Object.entries(obj)) {
    if (inPaths && !parseJsonPath(k)) out.push({ path: [...path, k], message: 'expected a JSON path such as $.key, $.list[0] or $[\'odd key\']' });
    if (k !== 'regex' && v && typeof v === 'object') matcherIssues(v, [...path, k], out, k === 'jsonPath' || k === 'expect');
  }
}

/** What zod cannot see: names that must refer to something, duplicates, templates that must parse. */
function crossIssues(s: MCPScenario): PathIssue[] {
  const out: PathIssue[] = [];
  const names = new Map<string, number>();
  s.tools.forEach((t, i) => {
    const first = names.get(t.name);
    if (first !== undefined) out.push({ path: ['tools', i, 'name'], message: `duplicate tool name ${JSON.stringify(t.name)} (also tools[${first}])` });
    else names.set(t.name, i);
    for (const key of ['inputSchema', 'outputSchema'] as const) {
      const schema = t[key];
      // MCP clients refuse a tool whose schemas are not object schemas (the SDK's Tool type says so).
      if (schema && schema.type !== 'object') out.push({ path: ['tools', i, key, 'type'], message: `expected "object" (MCP tool ${key === 'inputSchema' ? 'arguments' : 'results'} are objects), got ${JSON.stringify(schema.type) ?? 'nothing'}` });
    }
    t.answers.forEach((a, j) => {
      if (a.error && (a.content || a.text !== undefined || a.structuredContent || a.isError)) {
        out.push({ path: ['tools', i, 'answers', j, 'error'], message: 'an answer is either a protocol error or a result (content, text, structuredContent, isError), not both' });
      }
      matcherIssues(a.match, ['tools', i, 'answers', j, 'match'], out);
      a.requests?.forEach((r, k) => matcherIssues(r.expect, ['tools', i, 'answers', j, 'requests', k, 'expect'], out, true));
    });
  });
  const uris = new Set(s.resources.map((r) => r.uri));
  const prompts = new Set(s.prompts.map((p) => p.name));
  s.after.forEach((rule, i) => {
    if (rule.tool !== undefined && !names.has(rule.tool)) out.push({ path: ['after', i, 'tool'], message: `no tool named ${JSON.stringify(rule.tool)} in tools` });
    const lists = [['tools', names, 'tool named', 'name'], ['resources', uris, 'resource with URI', 'uri'], ['prompts', prompts, 'prompt named', 'name']] as const;
    for (const [list, known, what, field] of lists) {
      const unknown = (n: string, path: Array<string | number>) => {
        if (!known.has(n)) out.push({ path: ['after', i, list, ...path], message: `no ${what} ${JSON.stringify(n)} in ${list}` });
      };
      for (const key of ['show', 'hide'] as const) rule[list]?.[key]?.forEach((n, k) => unknown(n, [key, k]));
      rule[list]?.change?.forEach((d, k) => unknown((d as Record<typeof field, string>)[field], ['change', k, field]));
    }
    rule.tools?.change?.forEach((d, k) => {
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const schema = d[key];
        if (schema && schema.type !== 'object') out.push({ path: ['after', i, 'tools', 'change', k, key, 'type'], message: `expected "object", got ${JSON.stringify(schema.type) ?? 'nothing'}` });
      }
    });
    rule.updated?.forEach((u, k) => {
      if (u.text !== undefined && u.blob !== undefined) out.push({ path: ['after', i, 'updated', k, 'blob'], message: 'new contents are either text or blob, not both' });
    });
  });
  s.resourceTemplates.forEach((t, i) => {
    try {
      new UriTemplate(t.uriTemplate);
    } catch (err) {
      out.push({ path: ['resourceTemplates', i, 'uriTemplate'], message: `expected an RFC 6570 URI template: ${(err as Error).message}` });
    }
  });
  return out;
}

const CONTENT_TYPES = ContentBlockSchema.options.map((o) => o.shape.type.value);

/** zod's discriminated unions say only "a different value" for an unknown `type`: name the allowed ones. */
function contentTypeIssue(issue: PathIssue): PathIssue {
  if (issue.path.at(-1) !== 'type' || !issue.message.startsWith('expected a different value')) return issue;
  const got = /got (.*)$/.exec(issue.message)?.[1] ?? 'something else';
  return { path: issue.path, message: `expected one of ${CONTENT_TYPES.map((t) => JSON.stringify(t)).join(', ')}, got ${got}` };
}

function validate(input: unknown): { scenario?: MCPScenario; issues: PathIssue[] } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { issues: [{ path: [], message: `expected an MCP scenario object { name, tools?, resources?, ... }, got ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}` }] };
  }
  const r = MCPScenarioSchema.safeParse(input);
  if (!r.success) return { issues: explainIssues(MCPScenarioSchema, input, r.error.issues).map(contentTypeIssue) };
  const issues = crossIssues(r.data);
  const { $schema: _drop, ...scenario } = r.data;
  return issues.length ? { issues } : { scenario, issues };
}

/**
 * Validates an MCP scenario given as an object (JSON-shaped or from the builder) and applies defaults.
 * @example
 *   const s = parseMCPScenario({ name: 'github', tools: [{ name: 'search', answers: [{ text: 'none' }] }] });
 */
export function parseMCPScenario(input: unknown): MCPScenario {
  const { scenario, issues } = validate(input);
  if (scenario) return scenario;
  const name = (input as { name?: unknown } | null)?.name;
  throw new MCPScenarioError(typeof name === 'string' ? JSON.stringify(name) : '(unnamed)', issues);
}

/**
 * Validates one file's text without throwing; issues carry line and column.
 * @example
 *   const { scenario, issues } = parseMCPScenarioText(text, 'github.json');
 */
export function parseMCPScenarioText(text: string, file: string): { scenario?: MCPScenario; issues: ScenarioIssue[] } {
  const scan = scanJson(text);
  if (!scan.ok) {
    const { line, column, message } = scan.error;
    return { issues: [{ file, path: '', line, column, message: `invalid JSON: ${message}` }] };
  }
  const { scenario, issues } = validate(scan.value);
  const located = issues.map((p) => ({ file, path: formatPath(p.path), message: p.message, ...scan.locate(p.path) }));
  located.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { scenario, issues: located };
}

/**
 * Loads one MCP scenario file; throws ScenarioLoadError (`file:line:col: path: message` per problem).
 * @example
 *   const mock = createMockMCP(loadMCPScenario('fixtures/mcp/github.json'));
 */
export function loadMCPScenario(file: string): MCPScenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ScenarioLoadError([{ file, path: '', message: code === 'ENOENT' ? 'no such file' : `cannot read: ${code ?? (err as Error).message}` }]);
  }
  const { scenario, issues } = parseMCPScenarioText(text, file);
  if (!scenario) throw new ScenarioLoadError(issues);
  return scenario;
}
