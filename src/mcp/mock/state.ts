import { argumentFailures } from './match.ts';
import type { Answer, MCPScenario, PromptSpec, ResourceSpec, ResourceUpdate, ToolSpec } from './schema.ts';

/**
 * What a mock MCP server remembers across its connections: which answers are used up, how many
 * calls were answered (for `after` rules), which tools, resources and prompts are listed (and as what),
 * the calls and their near misses.
 * One instance per mock, shared by every transport, so a test sees one server whichever way it connects.
 */

export interface MCPNearMiss {
  /** Index in the tool's `answers`. */
  answer: number;
  /** The constraints it failed, or why it could not answer (`consumed`). */
  failed: string[];
}

export interface MCPToolCall {
  connection: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The answer that was given (index in the tool's answers); null when none matched. */
  answer: number | null;
  /** When no answer matched: each answer and why it did not. */
  nearMisses: MCPNearMiss[];
}

/** `calls` keeps at most this many bytes of arguments and near misses; the oldest calls go first. */
const CALLS_LIMIT_BYTES = 8 * 1024 * 1024;
const FAILURES_LIMIT = 1000;

/** A notification an `after` rule sends: to every client, or to those subscribed to `uri`. */
export interface RuleNotification {
  method: 'notifications/tools/list_changed' | 'notifications/resources/list_changed' | 'notifications/prompts/list_changed' | 'notifications/resources/updated';
  /** notifications/resources/updated: the resource, sent only to the clients subscribed to it. */
  uri?: string;
}

/** Shows and hides names in `visible`. */
function showHide(visible: Set<string>, change: { show?: string[]; hide?: string[] }): void {
  for (const name of change.show ?? []) visible.add(name);
  for (const name of change.hide ?? []) visible.delete(name);
}

/**
 * Gives items in `items` new listed definitions (by `key`), keeping what a listing does not show
 * (answers, contents, messages, whether hidden); definitions for unknown items are ignored.
 */
function redefine<T, D>(items: Map<string, T>, definitions: D[] | undefined, key: (d: D) => string, kept: (current: T) => Partial<T>): void {
  for (const d of definitions ?? []) {
    const current = items.get(key(d));
    if (current) items.set(key(d), { ...d, ...kept(current) } as T);
  }
}

export type Selection = { index: number; answer: Answer } | { index: null; nearMisses: MCPNearMiss[] };

export class ScenarioState {
  readonly scenario: MCPScenario;
  readonly calls: MCPToolCall[] = [];
  /** Checks on the client's answers (sampling, elicitation) that failed (the first 1000). */
  readonly failures: string[] = [];
  #callSizes: number[] = [];
  #callBytes = 0;
  readonly subscriptions = new Set<string>();
  logLevel: string | undefined;
  #uses = new Map<string, number[]>();
  #answered = new Map<string | undefined, number>();
  #visible = new Set<string>();
  /** Tools by name, with the definition an `after` rule changed to. */
  #tools = new Map<string, ToolSpec>();
  #visibleResources = new Set<string>();
  #visiblePrompts = new Set<string>();
  /** Resources by URI and prompts by name, with the definitions `after` rules changed to. */
  #resources = new Map<string, ResourceSpec>();
  #prompts = new Map<string, PromptSpec>();
  /** Resource contents an `after` rule updated, by URI. */
  #contents = new Map<string, ResourceUpdate>();

  constructor(scenario: MCPScenario) {
    this.scenario = scenario;
    this.reset();
  }

  /** Back to the start: no answer used, no call counted, the initial lists and contents. */
  reset(): void {
    this.#uses.clear();
    this.#answered.clear();
    const { tools, resources, prompts } = this.scenario;
    this.#tools = new Map(tools.map((t) => [t.name, t]));
    this.#visible = new Set(tools.filter((t) => !t.hidden).map((t) => t.name));
    this.#resources = new Map(resources.map((r) => [r.uri, r]));
    this.#prompts = new Map(prompts.map((p) => [p.name, p]));
    this.#visibleResources = new Set(resources.filter((r) => !r.hidden).map((r) => r.uri));
    this.#visiblePrompts = new Set(prompts.filter((p) => !p.hidden).map((p) => p.name));
    this.#contents.clear();
    this.calls.length = 0;
    this.#callSizes = [];
    this.#callBytes = 0;
    this.failures.length = 0;
    this.subscriptions.clear();
    this.logLevel = undefined;
  }

  /** Records a call, dropping the oldest beyond the byte limit. */
  recordCall(call: MCPToolCall): void {
    const size = (JSON.stringify(call)?.length ?? 0) + 64;
    this.calls.push(call);
    this.#callSizes.push(size);
    this.#callBytes += size;
    if (this.#callBytes <= CALLS_LIMIT_BYTES) return;
    // Down to 3/4 of the limit in one splice: O(1) per call on average once full.
    let drop = 0;
    while (this.#callBytes > CALLS_LIMIT_BYTES * 0.75 && drop < this.calls.length - 1) this.#callBytes -= this.#callSizes[drop++];
    this.calls.splice(0, drop);
    this.#callSizes.splice(0, drop);
  }

  /** Records a failed check on a client's answer (the first ones: later ones say nothing new). */
  recordFailure(text: string): void {
    if (this.failures.length < FAILURES_LIMIT) this.failures.push(text.length > 2000 ? `${text.slice(0, 2000)}…` : text);
  }

  /** The tools listed right now, in scenario order. */
  listedTools(): ToolSpec[] {
    return this.scenario.tools.filter((t) => this.#visible.has(t.name)).map((t) => this.#tools.get(t.name)!);
  }

  /** The resources listed right now, in scenario order. */
  listedResources(): ResourceSpec[] {
    return this.scenario.resources.filter((r) => this.#visibleResources.has(r.uri)).map((r) => this.#resources.get(r.uri)!);
  }

  /** A resource as read right now: listed (hidden ones are not there), contents as last updated. */
  resource(uri: string): ResourceSpec | undefined {
    const declared = this.#resources.get(uri);
    if (declared && !this.#visibleResources.has(uri)) return undefined;
    const updated = this.#contents.get(uri);
    if (!updated) return declared;
    const { text, blob, mimeType } = updated;
    return { ...(declared ?? { uri, name: uri }), error: undefined, text, blob, mimeType: mimeType ?? declared?.mimeType };
  }

  /** The prompts listed right now, in scenario order. */
  listedPrompts(): PromptSpec[] {
    return this.scenario.prompts.filter((p) => this.#visiblePrompts.has(p.name)).map((p) => this.#prompts.get(p.name)!);
  }

  /** A listed prompt by name. */
  prompt(name: string): PromptSpec | undefined {
    return this.#visiblePrompts.has(name) ? this.#prompts.get(name) : undefined;
  }

  /** A listed tool by name. */
  tool(name: string): ToolSpec | undefined {
    return this.#visible.has(name) ? this.#tools.get(name) : undefined;
  }

  #usesOf(tool: ToolSpec): number[] {
    let uses = this.#uses.get(tool.name);
    if (!uses) this.#uses.set(tool.name, (uses = tool.answers.map(() => 0)));
    return uses;
  }

  /** The first answer, in order, that is not used up and whose match holds; it is used once. */
  select(tool: ToolSpec, args: Record<string, unknown>): Selection {
    const uses = this.#usesOf(tool);
    const nearMisses: MCPNearMiss[] = [];
    for (let i = 0; i < tool.answers.length; i++) {
      const answer = tool.answers[i];
      const failed = argumentFailures(answer.match, args);
      const spent = answer.consume !== false && uses[i] >= (answer.times ?? 1);
      if (failed.length === 0 && !spent) {
        uses[i]++;
        return { index: i, answer };
      }
      nearMisses.push({ answer: i, failed: spent ? [`consumed (answered ${uses[i]} call${uses[i] === 1 ? '' : 's'})`, ...failed] : failed });
    }
    return { index: null, nearMisses };
  }

  #count(tool?: string): number {
    return this.#answered.get(tool) ?? 0;
  }

  /** What the `after` rules say about a call that starts now. */
  onCallStart(tool: string): { crash: boolean; hang: boolean } {
    let crash = false;
    let hang = false;
    for (const rule of this.scenario.after) {
      if (rule.tool !== undefined && rule.tool !== tool) continue;
      if (this.#count(rule.tool) < rule.calls) continue;
      crash ||= rule.crash === true;
      hang ||= rule.hang === true;
    }
    return { crash, hang };
  }

  /**
   * Counts an answered call and applies the `after` rules it triggers (list changes, new contents);
   * returns the notifications they send, in rule order. A rule with `tools`, `resources` or `prompts`
   * announces that list's change even when it shows nothing new (the server said so).
   */
  onCallAnswered(tool: string): RuleNotification[] {
    this.#answered.set(undefined, this.#count() + 1);
    this.#answered.set(tool, this.#count(tool) + 1);
    const out: RuleNotification[] = [];
    for (const rule of this.scenario.after) {
      if (this.#count(rule.tool) !== rule.calls) continue;
      if (rule.tool !== undefined && rule.tool !== tool) continue;
      if (rule.tools) {
        showHide(this.#visible, rule.tools);
        redefine(this.#tools, rule.tools.change, (d) => d.name, ({ hidden, answers }) => ({ hidden, answers }));
        out.push({ method: 'notifications/tools/list_changed' });
      }
      if (rule.resources) {
        showHide(this.#visibleResources, rule.resources);
        redefine(this.#resources, rule.resources.change, (d) => d.uri, ({ text, blob, error, hidden }) => ({ text, blob, error, hidden }));
        out.push({ method: 'notifications/resources/list_changed' });
      }
      if (rule.prompts) {
        showHide(this.#visiblePrompts, rule.prompts);
        redefine(this.#prompts, rule.prompts.change, (d) => d.name, ({ hidden, messages }) => ({ hidden, messages }));
        out.push({ method: 'notifications/prompts/list_changed' });
      }
      for (const u of rule.updated ?? []) {
        if (u.text !== undefined || u.blob !== undefined) this.#contents.set(u.uri, u);
        out.push({ method: 'notifications/resources/updated', uri: u.uri });
      }
    }
    return out;
  }

  /** Answers that still expect calls: `tool answers[i] (used u of n)`. */
  unconsumed(): string[] {
    const out: string[] = [];
    for (const tool of this.scenario.tools) {
      const uses = this.#usesOf(tool);
      tool.answers.forEach((a, i) => {
        if (a.consume === false) return;
        const times = a.times ?? 1;
        if (uses[i] < times) out.push(`tool ${JSON.stringify(tool.name)} answers[${i}] (used ${uses[i]} of ${times})`);
      });
    }
    return out;
  }
}
