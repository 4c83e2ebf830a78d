import { type ErrorSpec, type Match, type ReasoningSpec, type Respond, type Scenario, type ScenarioInput, type StreamErrorSpec, type ToolCallSpec } from './schema.ts';
import type { FinishReason } from './canonical.ts';
import {
  toMatch,
  toMessageMatch,
  toTextMatch,
  type ErrorOptions,
  type MatchLike,
  type MessageMatchLike,
  type StreamLike,
  type TextMatchLike,
  type ToolCallLike,
} from './builder-helpers.ts';

import { parseScenario } from './validate.ts';

export { openai, openaiResponses, anthropic, gemini, embeddings, azureOpenAI, vertexGemini, vertexAnthropic, anyProvider } from './builder-helpers.ts';
export { bedrock, cohere, mistral, ollama, openaiRealtime, geminiLive } from './builder-helpers.ts';
export type { TextMatchLike, MessageMatchLike, MatchLike, ToolCallLike, StreamLike, ErrorOptions } from './builder-helpers.ts';

/**
 * The fluent scenario builder. It produces exactly the plain objects a scenario JSON file holds
 * (validated by ScenarioSchema at build()), so code and files are interchangeable.
 *
 * Shape: `scenario(name)` → `.expect(provider)` opens a step and its match constraints →
 * `.then()` switches to what the step answers → `.expect(...)` opens the next step.
 * A step opened with `.otherwise()` (or a respondWith* right after `scenario(name)`) has no
 * match: a catch-all.
 */

type MutableStep = { match?: Match; respond: Respond; times?: number; consume?: boolean; inputTranscript?: string };

interface BuilderState {
  name: string;
  priority?: number;
  variables?: Record<string, string>;
  protocolRules?: boolean;
  steps: MutableStep[];
}

/** Methods shared by every stage: scenario settings, opening steps, finishing. */
abstract class Stage {
  protected readonly state: BuilderState;

  constructor(state: BuilderState) {
    this.state = state;
  }

  /** Higher priority scenarios are tried first (default 0). */
  priority(n: number): this {
    this.state.priority = n;
    return this;
  }

  /** Variables for `{{name}}` templating in produced text; merged with earlier calls. */
  variables(vars: Record<string, string>): this {
    this.state.variables = { ...this.state.variables, ...vars };
    return this;
  }

  /**
   * `false`: requests that break a provider's protocol rules (unanswered tool calls, dropped thinking
   * blocks) are answered instead of refused while this scenario is in play.
   */
  protocolRules(on: boolean): this {
    this.state.protocolRules = on;
    return this;
  }

  /** Opens a new step that answers requests meeting `match` (e.g. `openai()`). */
  expect(match: MatchLike = {}): MatchBuilder {
    const step: MutableStep = { respond: {} };
    const m = toMatch(match);
    if (Object.keys(m).length > 0) step.match = m;
    this.state.steps.push(step);
    return new MatchBuilder(this.state);
  }

  /** Opens a new catch-all step (no match constraints). */
  otherwise(): ResponseBuilder {
    this.state.steps.push({ respond: {} });
    return new ResponseBuilder(this.state);
  }

  /** The scenario as written (no defaults applied): what you would put in a JSON file. */
  toJSON(): ScenarioInput {
    const { name, priority, variables, protocolRules, steps } = this.state;
    return {
      name,
      ...(priority !== undefined ? { priority } : {}),
      ...(variables !== undefined ? { variables: { ...variables } } : {}),
      ...(protocolRules !== undefined ? { protocolRules } : {}),
      steps: steps.map((s) => structuredClone(s)),
    };
  }

  /** Validates and returns the scenario, defaults applied (same as parsing the equivalent JSON). */
  build(): Scenario {
    return parseScenario(this.toJSON());
  }
}

/**
 * The scenario level, before any step: a respondWith* here opens a catch-all first step.
 * @example
 *   scenario('greeting').respondWithText('Hello!').build();
 */
export class ScenarioBuilder extends Stage {
  /** A first step with no match (a catch-all) answering with text. */
  respondWithText(text: string): ResponseBuilder {
    return this.otherwise().respondWithText(text);
  }

  /** A first step with no match (a catch-all) answering with tool calls. */
  respondWithToolCalls(calls: ToolCallLike[]): ResponseBuilder {
    return this.otherwise().respondWithToolCalls(calls);
  }

  /** A first step with no match (a catch-all) answering with an error. */
  respondWithError(status: number, message: string, opts?: ErrorOptions): ResponseBuilder {
    return this.otherwise().respondWithError(status, message, opts);
  }

  /** A first step with no match (a catch-all) answering with embeddings. */
  respondWithEmbeddings(vectors: number[][]): ResponseBuilder {
    return this.otherwise().respondWithEmbeddings(vectors);
  }

  /** A first step with no match (a catch-all) answering with a structured value. */
  respondWithJson(value: unknown): ResponseBuilder {
    return this.otherwise().respondWithJson(value);
  }

  /** A first step with no match (a catch-all) answering with an instance generated from the request's schema. */
  respondWithGeneratedJson(options: { seed?: number } = {}): ResponseBuilder {
    return this.otherwise().respondWithGeneratedJson(options);
  }

  /** A first step with no match (a catch-all) whose model declines. */
  respondWithRefusal(text: string): ResponseBuilder {
    return this.otherwise().respondWithRefusal(text);
  }

  /** A first step with no match (a catch-all) that reasons first; add its text or tool calls next. */
  respondWithReasoning(reasoning: ReasoningSpec): ResponseBuilder {
    return this.otherwise().respondWithReasoning(reasoning);
  }
}

/**
 * The match constraints of the current step.
 * @example
 *   scenario('weather').expect(openai()).withModel(/^gpt-4/).then().respondWithText('Sunny');
 */
export class MatchBuilder extends Stage {
  private get match(): Match {
    const step = this.state.steps[this.state.steps.length - 1];
    step.match ??= {};
    return step.match;
  }

  /** The request's model: exact string, `{ contains }`, `{ regex }`, or a RegExp. */
  withModel(model: TextMatchLike): this {
    this.match.model = toTextMatch(model);
    return this;
  }

  /** Whether the request asks for a stream (default true). */
  withStream(stream = true): this {
    this.match.stream = stream;
    return this;
  }

  /** The last message: its content (`{ contains: 'weather' }`, a string, a RegExp) or `{ role, content }`. */
  withLastMessage(match: TextMatchLike | MessageMatchLike): this {
    this.match.lastMessage = toMessageMatch(match);
    return this;
  }

  /** Messages that must each be met by some message of the request (appends). */
  withMessages(messages: Array<TextMatchLike | MessageMatchLike>): this {
    this.match.messages = [...(this.match.messages ?? []), ...messages.map(toMessageMatch)];
    return this;
  }

  /** One message that some message of the request must meet (appends). */
  withMessage(message: TextMatchLike | MessageMatchLike): this {
    return this.withMessages([message]);
  }

  /** The request offers at least these tools (by name). */
  withTools(...names: Array<string | string[]>): this {
    this.match.tools = [...(this.match.tools ?? []), ...names.flat()];
    return this;
  }

  /** The request carries tool results: for these tools, or any when none are named. */
  withToolResults(...names: Array<string | string[]>): this {
    const flat = names.flat();
    this.match.toolResults = flat.length === 0 ? true : flat;
    return this;
  }

  /** A request header (name case-insensitive) must match. */
  withHeader(name: string, value: TextMatchLike): this {
    this.match.headers = { ...this.match.headers, [name.toLowerCase()]: toTextMatch(value) };
    return this;
  }

  /**
   * Realtime turns: the user spoke (the last user message came in as audio). `transcript` is what
   * the mock hears in it (`inputTranscript`): the message's text for later turns, and the
   * provider's input transcription event.
   * @example scenario('voice').expect().withAudioInput('what is the weather').then().respondWithText('Sunny.')
   */
  withAudioInput(transcript?: string): this {
    this.match.audio = true;
    if (transcript !== undefined) this.state.steps[this.state.steps.length - 1].inputTranscript = transcript;
    return this;
  }

  /** The URL path the request arrived on (after any session prefix), e.g. `/v1/chat/completions`. */
  withPath(path: string): this {
    this.match.path = path;
    return this;
  }

  /** The request asks for structured output: any (`true`), or with the schema of this name. */
  withResponseFormat(format: true | string = true): this {
    this.match.responseFormat = format;
    return this;
  }

  /** Switches from what the step matches to what it answers. */
  then(): ResponseBuilder {
    return new ResponseBuilder(this.state);
  }
}

/**
 * What the current step answers.
 * @example
 *   scenario('slow').respondWithText('ok').withLatency(200).build();
 */
export class ResponseBuilder extends Stage {
  private get step(): MutableStep {
    return this.state.steps[this.state.steps.length - 1];
  }

  private get respond(): Respond {
    return this.step.respond;
  }

  /** Answer with text (`{{variables}}`, `{{model}}`, `{{lastUserMessage}}` are filled in). */
  respondWithText(text: string): this {
    this.respond.text = text;
    return this;
  }

  /** Answer with tool calls; ids are minted when absent. */
  respondWithToolCalls(calls: ToolCallLike[]): this {
    this.respond.toolCalls = calls.map((c): ToolCallSpec => {
      const out: ToolCallSpec = { name: c.name, arguments: c.arguments ?? {} };
      return c.id !== undefined ? { id: c.id, ...out } : out;
    });
    return this;
  }

  /** Answer with an error in the provider's own shape. */
  respondWithError(status: number, message: string, opts: ErrorOptions = {}): this {
    const error: ErrorSpec = { status, message, headers: opts.headers ?? {} };
    if (opts.type !== undefined) error.type = opts.type;
    if (opts.code !== undefined) error.code = opts.code;
    this.respond.error = error;
    return this;
  }

  /** Answer an embeddings request with these vectors (one per input, cycled when fewer). */
  respondWithEmbeddings(vectors: number[][]): this {
    this.respond.embeddings = vectors.map((v) => [...v]);
    return this;
  }

  /**
   * Answer with a structured value: the text of the answer (or the forced tool's call), checked
   * against the schema the request sends.
   * @example scenario('extract').respondWithJson({ city: 'Paris', temperature: 21 })
   */
  respondWithJson(value: unknown): this {
    this.respond.json = structuredClone(value);
    return this;
  }

  /**
   * Answer with a deterministic instance of the request's own schema (same schema and seed, same value).
   * @example scenario('extract').respondWithGeneratedJson({ seed: 7 })
   */
  respondWithGeneratedJson(options: { seed?: number } = {}): this {
    this.respond.json = options.seed === undefined ? { $generate: true } : { $generate: true, seed: options.seed };
    return this;
  }

  /** The model declines (OpenAI's `refusal`; the parse helpers return it). */
  respondWithRefusal(text: string): this {
    this.respond.refusal = text;
    return this;
  }

  /**
   * Reasoning before the answer (a thinking block, a reasoning item, thought parts), rendered when the
   * request asks for it; `{ text, redacted: true }` for opaque reasoning.
   * @example scenario('think').respondWithReasoning('The user wants Paris weather.').respondWithToolCalls([{ name: 'get_weather' }])
   */
  respondWithReasoning(reasoning: ReasoningSpec): this {
    this.respond.reasoning = typeof reasoning === 'string' ? reasoning : { ...reasoning };
    return this;
  }

  /** Reported token usage (`reasoningTokens`: of the output tokens, the reasoning's). */
  withUsage(usage: { inputTokens: number; outputTokens: number; reasoningTokens?: number }): this {
    this.respond.usage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
    if (usage.reasoningTokens !== undefined) this.respond.usage.reasoningTokens = usage.reasoningTokens;
    return this;
  }

  /** Canonical finish reason, rendered per provider (`tool_calls` → `tool_use`, ...). */
  withFinishReason(reason: FinishReason): this {
    this.respond.finishReason = reason;
    return this;
  }

  /** How to stream the answer when the request streams: chunk size, delays, explicit chunks, a mid-stream cut. */
  asStream(opts: StreamLike = {}): this {
    this.respond.stream = { ...opts } as Respond['stream'];
    return this;
  }

  /**
   * Fail the stream midway: after `chunks` frames, the provider's own error event (Anthropic's
   * `event: error`, OpenAI's `data: {"error":…}`, a Bedrock exception message) ends it, and the SDK
   * throws its own error with `message`. Other stream options set with asStream stay.
   * @example
   *   scenario('flaky').then().respondWithText('Half an answer').failStreamAfter(3, 'Overloaded', { type: 'overloaded_error' })
   */
  failStreamAfter(chunks: number, message: string, opts: { type?: string; status?: number } = {}): this {
    const error: StreamErrorSpec = { message };
    if (opts.type !== undefined) error.type = opts.type;
    if (opts.status !== undefined) error.status = opts.status;
    this.respond.stream = { ...this.respond.stream, errorAfterChunks: chunks, error } as Respond['stream'];
    return this;
  }

  /** Wait this long before the first byte. */
  withLatency(ms: number): this {
    this.respond.latencyMs = ms;
    return this;
  }

  /**
   * Gemini Live: after this turn the server announces it will disconnect (`goAway.timeLeft`).
   * @example scenario('bye').respondWithText('Hi').withGoAway('10s')
   */
  withGoAway(timeLeft: string): this {
    this.respond.goAway = timeLeft;
    return this;
  }

  /** The next request must carry results for the tool calls this step produced. */
  expectToolResults(expect = true): this {
    this.respond.expectToolResults = expect;
    return this;
  }

  /** Extra response headers. */
  withHeaders(headers: Record<string, string>): this {
    this.respond.headers = { ...this.respond.headers, ...headers };
    return this;
  }

  /** Request headers to copy onto the response (e.g. `x-request-id`). */
  echoHeaders(...names: Array<string | string[]>): this {
    this.respond.echoHeaders = [...(this.respond.echoHeaders ?? []), ...names.flat()];
    return this;
  }

  /** Answer this many requests before the step is consumed. */
  times(n: number): this {
    this.step.times = n;
    return this;
  }

  /** Never consume this step (`consume: false`): it answers every matching request. */
  persistent(): this {
    this.step.consume = false;
    return this;
  }
}

/**
 * Starts a scenario.
 * @example
 *   const weather = scenario('weather')
 *     .expect(openai()).withModel('gpt-4o').withLastMessage({ contains: 'weather' })
 *     .then().respondWithToolCalls([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }])
 *     .expect(openai()).withToolResults('get_weather')
 *     .then().respondWithText('Sunny')
 *     .build();
 */
export function scenario(name: string): ScenarioBuilder {
  return new ScenarioBuilder({ name, steps: [] });
}
