import type { CanonicalError, CanonicalReasoning, CanonicalRequest, CanonicalResponse, CanonicalToolCall, CanonicalUsage } from './canonical.ts';
import { embedText } from './embed.ts';
import { HexIds } from './hex-ids.ts';
import { latestToolResults, matchFailures, quickMiss } from './match.ts';
import { StreamSchema, type Scenario, type ScenarioInput, type Step } from './schema.ts';
import { AuthoringError, StructuredAnswers } from './structured.ts';
import type { IdMinter, NearMiss, Selection, StepRef } from './selection.ts';
import { fillTemplate, fillTemplateDeep } from './template.ts';
import { estimateInputTokens, estimateTokens, tokensOfLength } from './tokens.ts';
import { parseScenario } from './validate.ts';

/** How many near misses a no-match error names. */
const NEAR_MISSES = 3;
const DEFAULT_EMBEDDING_DIMENSIONS = 1536;

interface StepState {
  ref: StepRef;
  step: Step;
  scenario: Scenario;
  /** Answers left; Infinity for `consume: false`. */
  remaining: number;
  answered: number;
  /** Does the step's answer hold `{{placeholders}}`? Only then are template values gathered. */
  templated: boolean;
}

const NO_VALUES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Stream options as the schema's defaults give them; steps without `stream` share this shape (copied). */
const DEFAULT_STREAM = StreamSchema.parse({});

/**
 * The scenario engine: picks the step that answers a canonical request and tracks progression.
 * Steps are tried in priority order (higher first), then in the order scenarios were given,
 * then in step order; the first unconsumed step whose `match` holds answers.
 * @example
 *   const engine = new ScenarioEngine([{ name: 'hi', steps: [{ respond: { text: 'Hello' } }] }]);
 *   const selection = engine.select(request); // { kind: 'respond', response: { text: 'Hello', ... } }
 */
export class ScenarioEngine {
  #initial: Scenario[];
  #scenarios: Scenario[] = [];
  #states: StepState[] = [];
  /** Call ids the previous response asked results for (`expectToolResults`). */
  #pendingToolResults: string[] | null = null;
  /** Response ids (and tool call ids when no API shape is given): 24 hex characters (per-engine prefix + counter). */
  readonly #ids = new HexIds();
  /** Lengths of tool call arguments as JSON, by object: a step's own arguments are encoded once, not per answer. */
  readonly #argumentLengths = new WeakMap<object, number>();
  /** Checks and generates structured answers (compiled schemas cached per engine). */
  readonly #structured = new StructuredAnswers();

  constructor(scenarios: readonly (Scenario | ScenarioInput)[] = []) {
    this.#initial = scenarios.map((s) => parseScenario(s));
    this.reset();
  }

  /** The scenarios in play, in the order they are tried within one priority. */
  get scenarios(): readonly Scenario[] {
    return this.#scenarios;
  }

  /** Back to the scenarios given at construction, nothing consumed. */
  reset(): void {
    this.#scenarios = [...this.#initial];
    this.#pendingToolResults = null;
    this.#rebuild(new Map());
  }

  /**
   * Adds scenarios at run time. Like MSW's `server.use`, they are tried before the existing
   * scenarios of the same priority; a scenario with the name of an existing one replaces it.
   */
  use(...scenarios: (Scenario | ScenarioInput)[]): void {
    const added = scenarios.map((s) => parseScenario(s));
    const names = new Set(added.map((s) => s.name));
    const keep = new Map(this.#states.filter((s) => !names.has(s.ref.scenario)).map((s) => [key(s.ref), s]));
    this.#scenarios = [...added, ...this.#scenarios.filter((s) => !names.has(s.name))];
    this.#rebuild(keep);
  }

  #rebuild(previous: Map<string, StepState>): void {
    const ordered = this.#scenarios
      .map((scenario, order) => ({ scenario, order }))
      .sort((a, b) => b.scenario.priority - a.scenario.priority || a.order - b.order);
    this.#states = ordered.flatMap(({ scenario }) =>
      scenario.steps.map((step, index) => {
        const ref = { scenario: scenario.name, index };
        return (
          previous.get(key(ref)) ?? {
            ref,
            step,
            scenario,
            remaining: step.consume === false ? Infinity : (step.times ?? 1),
            answered: 0,
            templated: JSON.stringify(step.respond).includes('{{'),
          }
        );
      }),
    );
  }

  /** Steps that still expect to be asked for (persistent `consume: false` steps never do). */
  unconsumed(): StepRef[] {
    return this.#states.filter((s) => s.remaining > 0 && s.remaining !== Infinity).map((s) => s.ref);
  }

  /** A one-line description of a step, for assertion messages. */
  describe(ref: StepRef): string {
    const state = this.#states.find((s) => key(s.ref) === key(ref));
    if (!state) return `${ref.scenario}#${ref.index}`;
    const { match, respond } = state.step;
    const what = respond.error
      ? `error ${respond.error.status}`
      : respond.json !== undefined
        ? `json ${JSON.stringify(respond.json).slice(0, 40)}`
        : respond.toolCalls?.length
        ? `tool calls ${respond.toolCalls.map((c) => c.name).join(', ')}`
        : `text ${JSON.stringify((respond.text ?? '').slice(0, 40))}`;
    return `${ref.scenario}#${ref.index} (match ${JSON.stringify(match ?? {})} → ${what}; answered ${state.answered}x)`;
  }

  /**
   * Picks the answer to `request` and advances progression. The response, and a tool call the step
   * gives no id, get their ids from `ids` (the API's own shapes; the transport core passes the
   * adapter's), else bare 24-hex ids: the engine knows no provider's shape.
   */
  select(request: CanonicalRequest, ids?: IdMinter): Selection {
    const violation = this.#checkPendingToolResults(request);
    if (violation) return { kind: 'error', step: null, error: violation, latencyMs: 0 };

    for (const state of this.#states) {
      if (state.remaining <= 0) continue;
      // Why a step did not match is said only when none does: most requests pass steps by on their model.
      if (quickMiss(state.step.match, request) || matchFailures(state.step.match, request).length > 0) continue;
      state.remaining -= 1;
      state.answered += 1;
      return this.#answer(state, request, ids);
    }
    if (request.provider === 'embeddings') return this.#defaultEmbeddings(request, ids);
    const misses: NearMiss[] = [];
    for (const state of this.#states) {
      if (state.remaining > 0) misses.push({ step: state.ref, failed: matchFailures(state.step.match, request) });
    }
    return noMatch(request, misses, this.#states.length === 0);
  }

  #checkPendingToolResults(request: CanonicalRequest): CanonicalError | null {
    const pending = this.#pendingToolResults;
    if (!pending || request.provider === 'embeddings') return null;
    this.#pendingToolResults = null;
    const carried = latestToolResults(request).map((m) => m.toolCallId);
    const missing = pending.filter((id) => !carried.includes(id));
    if (missing.length === 0) return null;
    return {
      status: 400,
      message:
        `ghostwire: the previous response asked for tool results (expectToolResults) for call ids ` +
        `${JSON.stringify(pending)}, but this request carries no result for ${JSON.stringify(missing)}` +
        ` (results carried: ${JSON.stringify(carried)})`,
      type: 'invalid_request_error',
      headers: {},
    };
  }

  #answer(state: StepState, request: CanonicalRequest, ids: IdMinter | undefined): Selection {
    const { respond } = state.step;
    const latencyMs = respond.latencyMs ?? 0;
    if (respond.error) {
      const values = state.templated ? templateValues(state.scenario, request) : NO_VALUES;
      const { status, message, type, code, headers } = respond.error;
      const error: CanonicalError = { status, message: fillTemplate(message, values), type, code, headers };
      return { kind: 'error', step: state.ref, error, latencyMs };
    }
    try {
      return { kind: 'respond', step: state.ref, response: this.#response(state, request, ids), latencyMs };
    } catch (err) {
      if (!(err instanceof AuthoringError)) throw err;
      // Not the API's error: the scenario's. A 400 (an SDK retries no 400), flagged so the in-process layer fails the test.
      const error: CanonicalError = {
        status: 400,
        message: `ghostwire: scenario error: ${err.message}`,
        type: 'invalid_request_error',
        code: 'scenario_authoring_error',
        headers: {},
      };
      return { kind: 'error', step: state.ref, error, latencyMs: 0, authoring: true };
    }
  }

  #response(state: StepState, request: CanonicalRequest, ids: IdMinter | undefined): CanonicalResponse {
    const { respond } = state.step;
    const label = `${state.ref.scenario}#${state.ref.index}`;
    const values = state.templated ? templateValues(state.scenario, request) : NO_VALUES;
    const mintId = (name: string): string => (ids ? ids.toolCallId(name) : this.#ids.next(24));
    let text = fillTemplate(respond.text ?? '', values);
    let toolCalls: CanonicalToolCall[] = (respond.toolCalls ?? []).map((call) => ({
      id: call.id ?? mintId(call.name),
      name: call.name,
      // The step's own value when it has no `{{…}}` (nothing downstream changes an answer's arguments).
      arguments: state.templated ? fillTemplateDeep(call.arguments, values) : call.arguments,
    }));
    this.#structured.checkToolCalls(toolCalls, request, label);
    let json: unknown;
    if (respond.json !== undefined) {
      json = this.#structured.answer(fillTemplateDeep(respond.json, values), request, label);
      // A forced tool is how some SDKs ask for an object (LangChain's withStructuredOutput on tool-calling
      // models, Anthropic's tool trick): the value is that call's arguments. Otherwise it is the text.
      if (request.forcedTool && !request.responseFormat) toolCalls = [{ id: mintId(request.forcedTool), name: request.forcedTool, arguments: json }];
      else text = JSON.stringify(json);
    }
    if (respond.expectToolResults && toolCalls.length > 0) this.#pendingToolResults = toolCalls.map((c) => c.id);
    const stream = respond.stream ? { ...respond.stream } : { ...DEFAULT_STREAM };
    if (stream.chunks) stream.chunks = stream.chunks.map((c) => fillTemplate(c, values));
    if (stream.error) stream.error = { ...stream.error, message: fillTemplate(stream.error.message, values) };
    const reasoning = reasoningOf(respond.reasoning, values);
    const refusal = respond.refusal === undefined ? undefined : fillTemplate(respond.refusal, values);
    const response: CanonicalResponse = {
      id: ids?.responseId() ?? this.#ids.next(24),
      model: request.model,
      created: Math.floor(Date.now() / 1000),
      text,
      toolCalls,
      usage: usageOf(respond.usage, request, text + (refusal ?? ''), toolCalls, reasoning, (args) => this.#argumentLength(args)),
      finishReason: respond.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      stream,
      headers: responseHeaders(respond.headers, respond.echoHeaders, request),
    };
    if (reasoning) response.reasoning = reasoning;
    if (refusal !== undefined) response.refusal = refusal;
    if (json !== undefined) response.json = json;
    if (request.provider === 'embeddings') response.embeddings = embeddingsFor(request, respond.embeddings);
    // Everything but ids, `created`, model and usage is the step's own: said, so answer templates key on the step.
    else if (!state.templated && json === undefined && !respond.echoHeaders?.length) response.source = respond;
    if (state.step.inputTranscript !== undefined) response.inputTranscript = fillTemplate(state.step.inputTranscript, values);
    if (respond.goAway !== undefined) response.goAway = respond.goAway;
    return response;
  }

  #argumentLength(args: unknown): number {
    if (typeof args !== 'object' || args === null) return (JSON.stringify(args) ?? '').length;
    let length = this.#argumentLengths.get(args);
    if (length === undefined) this.#argumentLengths.set(args, (length = (JSON.stringify(args) ?? '').length));
    return length;
  }

  /**
   * False when a scenario in play turns the providers' protocol rules off (`protocolRules: false`):
   * the transport core then answers requests that break them instead of refusing them.
   */
  protocolRules(): boolean {
    return !this.#scenarios.some((s) => s.protocolRules === false);
  }

  #defaultEmbeddings(request: CanonicalRequest, ids: IdMinter | undefined): Selection {
    const response: CanonicalResponse = {
      id: ids?.responseId() ?? this.#ids.next(24),
      model: request.model,
      created: Math.floor(Date.now() / 1000),
      text: '',
      toolCalls: [],
      usage: { inputTokens: estimateTokens((request.input ?? []).join(' ')), outputTokens: 0 },
      finishReason: 'stop',
      stream: { ...DEFAULT_STREAM },
      headers: {},
      embeddings: embeddingsFor(request, undefined),
    };
    return { kind: 'respond', step: { scenario: '(default embeddings)', index: 0 }, response, latencyMs: 0 };
  }
}

function key(ref: StepRef): string {
  return `${ref.scenario}\u0000${ref.index}`;
}

function reasoningOf(spec: Step['respond']['reasoning'], values: Record<string, string>): CanonicalReasoning | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec === 'string') return { text: fillTemplate(spec, values), redacted: false };
  return { text: fillTemplate(spec.text, values), redacted: spec.redacted };
}

/**
 * The step's usage, or an estimate: output tokens count the reasoning too (as every API counts
 * them), and the reasoning's own count is estimated from its text unless the step gives it. An
 * estimate also says the output tokens without the reasoning, for a request that does not reason.
 */
function usageOf(
  given: Step['respond']['usage'],
  request: CanonicalRequest,
  text: string,
  toolCalls: CanonicalToolCall[],
  reasoning: CanonicalReasoning | undefined,
  argumentLength: (args: unknown) => number,
): CanonicalUsage {
  const reasoningTokens = given?.reasoningTokens ?? (reasoning ? Math.max(1, estimateTokens(reasoning.text)) : undefined);
  if (given) return reasoningTokens === undefined ? { ...given } : { ...given, reasoningTokens };
  // The produced text is the answer's text and each call's name and arguments as JSON; only its length counts.
  let produced = text.length;
  for (const c of toolCalls) produced += c.name.length + argumentLength(c.arguments);
  const answerTokens = tokensOfLength(produced);
  const usage: CanonicalUsage = { inputTokens: estimateInputTokens(request), outputTokens: answerTokens + (reasoningTokens ?? 0) };
  if (reasoningTokens !== undefined) {
    usage.reasoningTokens = reasoningTokens;
    // Whether the request reasons is the provider's to say: its adapter reports this count where it does not.
    usage.outputTokensWithoutReasoning = answerTokens;
  }
  return usage;
}

function templateValues(scenario: Scenario, request: CanonicalRequest): Record<string, string> {
  const lastUser = request.messages.findLast((m) => m.role === 'user');
  return { ...scenario.variables, model: request.model, lastUserMessage: lastUser?.content ?? '' };
}

function responseHeaders(
  fixed: Record<string, string> | undefined,
  echo: string[] | undefined,
  request: CanonicalRequest,
): Record<string, string> {
  const headers: Record<string, string> = { ...fixed };
  for (const name of echo ?? []) {
    const value = request.headers[name.toLowerCase()];
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
}

function embeddingsFor(request: CanonicalRequest, fixed: number[][] | undefined): number[][] {
  const inputs = request.input ?? [];
  if (fixed && fixed.length > 0) return inputs.map((_, i) => fixed[i % fixed.length]);
  return inputs.map((text) => embedText(text, request.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS));
}

/**
 * What a mock with no steps at all says: how to give it some. The engine does not know where it runs, so
 * each way is labelled with where it applies (a reader on a server session was sent to in-test calls).
 */
const NO_SCENARIOS =
  ' This mock has no scenarios at all. In a test: `useMockLLM(scenario(…))`, `mockLLM.use(scenario(…))` on the fixture,' +
  " or the plugin's `scenarios` option (a folder every `mockLLM` fixture starts with). On `ghostwire serve`:" +
  ' `--scenarios <dir>`, or `POST /__ghostwire/sessions/{id}/scenarios` for a session created empty.';

function noMatch(request: CanonicalRequest, misses: NearMiss[], empty: boolean): Selection {
  const nearMisses = [...misses].sort((a, b) => a.failed.length - b.failed.length).slice(0, NEAR_MISSES);
  const lines = nearMisses.map((m) => `  ${m.step.scenario}#${m.step.index}: ${m.failed.join('; ')}`);
  const message =
    `ghostwire: no scenario step matched this ${request.provider} request (model "${request.model}").` +
    (nearMisses.length > 0 ? `\nClosest steps:\n${lines.join('\n')}` : empty ? NO_SCENARIOS : ' No unconsumed steps are left.');
  return {
    kind: 'no-match',
    nearMisses,
    // No type: each adapter names its own 404 type (OpenAI invalid_request_error, Anthropic not_found_error, ...).
    error: { status: 404, message, code: 'no_matching_step', headers: {}, details: { nearMisses } },
  };
}
