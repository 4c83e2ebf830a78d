import { parseMCPScenario } from './load.ts';
import type {
  AfterRule,
  AnswerInput,
  ClientRequestSpec,
  CompletionSpec,
  ContentBlock,
  MCPScenario,
  MCPScenarioInput,
  PromptSpec,
  ResourceSpec,
  ResourceTemplateSpec,
  ToolInput,
  ValueMatch,
} from './schema.ts';

/**
 * The fluent MCP scenario builder. It produces exactly the plain objects an MCP scenario file
 * holds (validated at build()), so code and files are interchangeable.
 *
 * Shape: `mcpScenario(name)` → `.tool(name, spec, (t) => t.when({...}).text('...').next().crash())`
 * → `.resource(...)`, `.prompt(...)`, `.after(n, ...)` → `.build()`. Inside a tool, `when(args)`
 * and `next()` open a new answer; every other method shapes the answer that is open.
 */

type Level = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** The answers of one tool, in order. */
export class ToolAnswers {
  readonly answers: AnswerInput[] = [];

  #open(): AnswerInput {
    if (this.answers.length === 0) this.answers.push({});
    return this.answers[this.answers.length - 1];
  }

  /** Opens an answer for calls whose arguments meet these constraints (`{ q: { contains: 'bug' } }`). */
  when(args: Record<string, ValueMatch>): this {
    this.answers.push({ match: { arguments: args } });
    return this;
  }

  /** Adds a JSON-path constraint to the open answer (`'$.filter.state', 'open'`). */
  whenPath(path: string, match: ValueMatch): this {
    const a = this.#open();
    a.match = { ...a.match, jsonPath: { ...a.match?.jsonPath, [path]: match } };
    return this;
  }

  /** Opens an answer for calls whose arguments are exactly `args`. */
  whenExactly(args: Record<string, unknown>): this {
    this.answers.push({ match: { argumentsEqual: args } });
    return this;
  }

  /** Opens the next answer (any arguments). */
  next(): this {
    this.answers.push({});
    return this;
  }

  /** Adds a raw answer object (the JSON form). */
  answer(answer: AnswerInput): this {
    this.answers.push(answer);
    return this;
  }

  #set(patch: Partial<AnswerInput>): this {
    Object.assign(this.#open(), patch);
    return this;
  }

  /** Answers with a text block (`{{argument}}` placeholders are filled). */
  text(text: string): this {
    return this.#set({ text });
  }

  /** Answers with content blocks (text, image, audio, resource, resource_link). */
  content(...blocks: ContentBlock[]): this {
    const a = this.#open();
    a.content = [...(a.content ?? []), ...blocks];
    return this;
  }

  /** Answers with structured content (and its JSON as text, unless content is given). */
  structured(value: Record<string, unknown>): this {
    return this.#set({ structuredContent: value });
  }

  /** A tool error result (`isError: true`) with this text. */
  isError(text: string): this {
    return this.#set({ isError: true, text });
  }

  /** A JSON-RPC protocol error instead of a result. */
  error(code: number, message: string, data?: unknown): this {
    return this.#set({ error: data === undefined ? { code, message } : { code, message, data } });
  }

  latency(ms: number): this {
    return this.#set({ latencyMs: ms });
  }

  /** notifications/progress before the result (sent when the call carries a progress token). */
  progress(...steps: Array<{ progress: number; total?: number; message?: string; delayMs?: number }>): this {
    const a = this.#open();
    a.progress = [...(a.progress ?? []), ...steps];
    return this;
  }

  /** A notifications/message log entry before the result. */
  log(level: Level, data: unknown, logger?: string): this {
    const a = this.#open();
    a.log = [...(a.log ?? []), logger === undefined ? { level, data } : { level, data, logger }];
    return this;
  }

  /** A request to the client before answering (sampling, elicitation, roots), with checks on its answer. */
  request(method: ClientRequestSpec['method'], params: Record<string, unknown> = {}, expect?: Record<string, ValueMatch>): this {
    const a = this.#open();
    a.requests = [...(a.requests ?? []), expect ? { method, params, expect } : { method, params }];
    return this;
  }

  /** The open answer serves this many calls. */
  times(n: number): this {
    return this.#set({ times: n });
  }

  /** The open answer is never used up. */
  always(): this {
    return this.#set({ consume: false });
  }

  crash(): this {
    return this.#set({ crash: true });
  }

  hang(): this {
    return this.#set({ hang: true });
  }

  /** Streamable HTTP: close the call's SSE stream before answering. */
  closeStream(): this {
    return this.#set({ closeStream: true });
  }
}

export class MCPScenarioBuilder {
  readonly #s: MCPScenarioInput & { tools: ToolInput[] };

  constructor(name: string) {
    this.#s = { name, tools: [] };
  }

  serverInfo(info: { name: string; version: string; title?: string }): this {
    this.#s.serverInfo = info;
    return this;
  }

  instructions(text: string): this {
    this.#s.instructions = text;
    return this;
  }

  /** Merged over the capabilities derived from what is declared. */
  capabilities(caps: Record<string, unknown>): this {
    this.#s.capabilities = caps;
    return this;
  }

  /**
   * Declares a tool and, through `answers`, how it answers.
   * @example
   *   mcpScenario('gh').tool('search', { description: 'Search' }, (t) => t.when({ q: 'bug' }).text('2 issues').next().isError('rate limited'));
   */
  tool(name: string, spec: Omit<ToolInput, 'name' | 'answers'> = {}, answers?: (t: ToolAnswers) => unknown): this {
    const t = new ToolAnswers();
    answers?.(t);
    this.#s.tools.push({ name, ...spec, answers: t.answers });
    return this;
  }

  resource(spec: ResourceSpec): this {
    (this.#s.resources ??= []).push(spec);
    return this;
  }

  resourceTemplate(spec: ResourceTemplateSpec): this {
    (this.#s.resourceTemplates ??= []).push(spec);
    return this;
  }

  prompt(spec: PromptSpec): this {
    (this.#s.prompts ??= []).push(spec);
    return this;
  }

  completion(spec: CompletionSpec): this {
    (this.#s.completions ??= []).push(spec);
    return this;
  }

  /**
   * Something that happens after `calls` answered tool calls (of `rule.tool` when given): list
   * changes (tools, resources, prompts), new resource contents (`updated`), crash, hang.
   * @example
   *   mcpScenario('x').after(2, { tools: { show: ['v2_search'], hide: ['search'] } }).after(3, { updated: [{ uri: 'memo://a', text: 'v2' }] }).after(5, { crash: true });
   */
  after(calls: number, rule: Omit<AfterRule, 'calls'>): this {
    (this.#s.after ??= []).push({ calls, ...rule });
    return this;
  }

  /** The plain object, as a JSON file would hold it (not validated). */
  toJSON(): MCPScenarioInput {
    return structuredClone(this.#s);
  }

  /** The validated scenario (defaults applied); throws MCPScenarioError naming each problem. */
  build(): MCPScenario {
    return parseMCPScenario(this.toJSON());
  }
}

/**
 * Starts an MCP scenario.
 * @example
 *   const github = mcpScenario('github').tool('search_issues', {}, (t) => t.text('no issues')).build();
 *   const mock = createMockMCP(github);
 */
export function mcpScenario(name: string): MCPScenarioBuilder {
  return new MCPScenarioBuilder(name);
}
