import { argumentFailures } from './match.ts';
import type { Answer, MCPScenario, ToolSpec } from './schema.ts';

/**
 * What a mock MCP server remembers across its connections: which answers are used up, how many
 * calls were answered (for `after` rules), which tools are listed, the calls and their near misses.
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
  #tools = new Map<string, ToolSpec>();

  constructor(scenario: MCPScenario) {
    this.scenario = scenario;
    for (const t of scenario.tools) this.#tools.set(t.name, t);
    this.reset();
  }

  /** Back to the start: no answer used, no call counted, the initial tool list. */
  reset(): void {
    this.#uses.clear();
    this.#answered.clear();
    this.#visible = new Set(this.scenario.tools.filter((t) => !t.hidden).map((t) => t.name));
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
    return this.scenario.tools.filter((t) => this.#visible.has(t.name));
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

  /** Counts an answered call and applies the tool-list rules it triggers; true when the list changed. */
  onCallAnswered(tool: string): boolean {
    this.#answered.set(undefined, this.#count() + 1);
    this.#answered.set(tool, this.#count(tool) + 1);
    let changed = false;
    for (const rule of this.scenario.after) {
      if (!rule.tools || this.#count(rule.tool) !== rule.calls) continue;
      if (rule.tool !== undefined && rule.tool !== tool) continue;
      for (const name of rule.tools.show ?? []) {
        if (this.#visible.has(name)) continue;
        this.#visible.add(name);
        changed = true;
      }
      for (const name of rule.tools.hide ?? []) changed = this.#visible.delete(name) || changed;
    }
    return changed;
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
