/**
 * `createMockLLM`: the scenario engine, the adapters and the journal behind one `handle(request)`.
 * Transports (MSW, the node:http server, sessions) each hold a MockLLM and call its handle.
 */
import type { ProviderAdapter } from '../providers/adapter.ts';
import { AdapterStates } from '../providers/adapter-states.ts';
import type { ProviderRouter } from '../providers/router.ts';
import { Redactor, type RedactionOptions } from '../goldens/redact.ts';
import type { CanonicalError, ProviderId } from '../scenario/canonical.ts';
import { ScenarioEngine } from '../scenario/engine.ts';
import { textMatches } from '../scenario/match.ts';
import type { Scenario, ScenarioInput } from '../scenario/schema.ts';
import type { JournalEntry, StepRef } from '../scenario/selection.ts';
import { createPartsCore, fetchHandler, type HandleOptions, type Handler, type PartsCore, type RawRequest, type RawResponse } from './handle.ts';
import { Journal, type JournalBudget } from './journal.ts';
import { RequestKeeper, type ParsedFrom } from './kept-request.ts';

/** Anything with `build()` — the fluent builder, passed without calling `build()` yourself. */
export interface BuildsScenario {
  build(): Scenario;
}

/** One scenario as an object (JSON, builder output) or an unbuilt builder. */
export type ScenarioLike = Scenario | ScenarioInput | BuildsScenario;

/** Scenarios: one or many. */
export type ScenarioList = ScenarioLike | readonly ScenarioLike[];

export interface MockLLMOptions {
  scenarios?: ScenarioList;
  /** Wire APIs to serve; all built-in ones by default. One list may serve many mocks: each keeps its own adapter state. */
  adapters?: ProviderAdapter[];
  /**
   * Routing over adapters shared with other mocks (a server's sessions: one router and one list of
   * adapters for all of them); replaces `adapters`. Each mock still keeps its own adapter state.
   */
  router?: ProviderRouter;
  /** Keep only the latest N journal entries (a long-running `serve`); unlimited by default. */
  journalLimit?: number;
  /** Keep at most this many bytes of journal (2.5 times the body length + 1 KiB an entry); unlimited by default. */
  journalBytes?: number;
  /** A byte budget shared with other mocks (a server's sessions). */
  journalBudget?: JournalBudget;
  /** Secrets kept out of the journal, as goldens keep them out (auth headers and cookies always). */
  redact?: RedactionOptions;
  /**
   * `false`: answer requests that break a provider's protocol rules (a tool call left unanswered, a
   * dropped thinking block) instead of refusing them as the real API does. Default true; a scenario
   * can turn them off too (`protocolRules: false`).
   */
  protocolRules?: boolean;
}

function built(s: ScenarioLike): Scenario | ScenarioInput {
  return typeof (s as BuildsScenario).build === 'function' ? (s as BuildsScenario).build() : (s as Scenario | ScenarioInput);
}

/**
 * Normalizes a ScenarioList to an array of scenario objects.
 * @example
 *   scenarioArray(scenario('hi').respondWithText('Hello')) // [{ name: 'hi', steps: [...] }]
 */
export function scenarioArray(list: ScenarioList | undefined): (Scenario | ScenarioInput)[] {
  if (list === undefined) return [];
  return (Array.isArray(list) ? list : [list as ScenarioLike]).map(built);
}

/**
 * A fake LLM provider: answers requests from scenarios and journals every request.
 * @example
 *   const mock = createMockLLM({ scenarios: [scenario('hi').respondWithText('Hello')] });
 *   const response = await mock.handle(new Request('https://api.openai.com/v1/chat/completions', init));
 *   mock.assertAllConsumed();
 */
export class MockLLM {
  readonly engine: ScenarioEngine;
  readonly #journal: Journal;
  readonly #keeper: RequestKeeper;
  readonly #core: PartsCore;
  readonly #handler: Handler;
  /** This mock's own adapter state (stored responses, tool ids); the adapters themselves may be shared. */
  readonly #states = new AdapterStates();

  constructor(options: MockLLMOptions = {}) {
    this.engine = new ScenarioEngine(scenarioArray(options.scenarios));
    this.#journal = new Journal({ entries: options.journalLimit, bytes: options.journalBytes, budget: options.journalBudget });
    // Sessions of one server share their budget's memo of strings.
    this.#keeper = new RequestKeeper(new Redactor(options.redact), options.journalBudget?.strings);
    this.#core = createPartsCore({
      engine: this.engine,
      adapters: options.adapters,
      router: options.router,
      states: this.#states,
      journal: { push: (entry: JournalEntry) => this.#record(entry), pushParsed: (entry, adapter, from) => this.#record(entry, adapter, from) },
      models: () => this.models(),
      answersModel: (model, providers) => this.answersModel(model, providers),
      protocolRules: options.protocolRules,
    });
    this.#handler = fetchHandler(async (request) => this.#core(request));
  }

  /** Journals an entry with its secrets redacted, the same redaction goldens get. */
  #record(entry: JournalEntry, adapter?: ProviderAdapter, from?: ParsedFrom): void {
    this.#journal.push(this.#keeper.entry(entry, adapter, from));
    if (entry.authoringError !== undefined) for (const listener of this.#authoringListeners) listener(entry.authoringError);
  }

  readonly #authoringListeners = new Set<(message: string) => void>();

  /**
   * Calls `listener` with the message of each scenario authoring error (a `respond.json` that does not
   * fit the request's schema); the in-process layer fails the running test with it. Returns an unsubscribe.
   * @example
   *   mock.onAuthoringError((message) => failures.push(new Error(message)));
   */
  onAuthoringError(listener: (message: string) => void): () => void {
    this.#authoringListeners.add(listener);
    return () => this.#authoringListeners.delete(listener);
  }

  /**
   * Journals an entry a transport built itself (a realtime frame or turn), redacted like any other.
   * @example mock.journal({ requestId, method: 'WS', path, provider, request: null, status: 101, step: null, nearMisses: [], startedAt, durationMs: 0, bodyLength: data.length, frame })
   */
  journal(entry: JournalEntry): void {
    this.#record(entry);
  }

  /**
   * Answers a request the transport refused before the core saw it (a body past the limit, a
   * foreign origin) in the routed provider's own error shape, and journals it.
   * @example
   *   await writeRawResponse(res, await mock.reject(headOnly(req, res, origin, path), { status: 413, message: 'too large', headers: {} }));
   */
  reject(request: Omit<RawRequest, 'bodyText' | 'refused'>, error: CanonicalError): Promise<RawResponse> {
    // Named, not spread: a transport's request may serve `url` through a getter.
    const { method, url, path, headers } = request;
    return this.handleRaw({ method, url, path, headers, bodyText: '', refused: error });
  }

  /**
   * Answers one Fetch request (any provider's wire API). Bound, so it can be passed around.
   * @example
   *   const res = await mock.handle(new Request('https://api.openai.com/v1/chat/completions', init));
   */
  readonly handle = (request: Request, options?: HandleOptions): Promise<Response> => this.#handler(request, options);

  /**
   * The same, over plain parts (what a transport that is not fetch-shaped has at hand).
   * @example
   *   const { status, headers, body } = await mock.handleRaw({ method, url, path, headers, bodyText });
   */
  readonly handleRaw = async (request: RawRequest): Promise<RawResponse> => this.#core(request);

  /**
   * The same, without a promise when nothing is paced (no latency): the node:http transport's hot
   * path, where a promise and a microtask hop per request are measurable. Throws where `handleRaw` rejects.
   * @example
   *   const out = mock.answerRaw(raw);
   *   const { status, headers, body } = out instanceof Promise ? await out : out;
   */
  answerRaw(request: RawRequest): RawResponse | Promise<RawResponse> {
    return this.#core(request);
  }

  /** Every request so far, in arrival order, with its canonical form and what answered it. */
  get requests(): readonly JournalEntry[] {
    return this.#journal.entries;
  }

  /** The journal's size as counted against its byte limit. */
  get journalBytes(): number {
    return this.#journal.bytes;
  }

  /** Model names the scenarios match exactly (what `GET /v1/models` lists), in first-seen order. */
  models(): string[] {
    const names = new Set<string>();
    for (const s of this.engine.scenarios) {
      for (const step of s.steps) {
        const m = step.match?.model;
        if (typeof m === 'string') names.add(m);
        else if (m && 'equals' in m) names.add(m.equals);
      }
    }
    return [...names];
  }

  /**
   * Would some step answer a request for `model` on one of `providers`: its `match.provider` (if
   * any) is one of them and its `match.model` (if any) accepts the name? A catch-all step answers
   * every model, so `models.retrieve('gpt-4o-mini')` finds what chat would answer.
   */
  answersModel(model: string, providers: readonly ProviderId[]): boolean {
    return this.engine.scenarios.some((s) =>
      s.steps.some((step) => {
        const match = step.match;
        if (match?.provider !== undefined && !providers.includes(match.provider as ProviderId)) return false;
        return match?.model === undefined || textMatches(match.model, model);
      }),
    );
  }

  /** Steps that were expected to be asked for and were not (yet). */
  unconsumed(): StepRef[] {
    return this.engine.unconsumed();
  }

  /**
   * Throws an error listing every step never asked for.
   * @example
   *   afterEach(() => mock.assertAllConsumed());
   */
  assertAllConsumed(): void {
    const left = this.unconsumed();
    if (left.length === 0) return;
    const lines = left.map((ref) => `  - ${this.engine.describe(ref)}`);
    throw new Error(`ghostwire: ${left.length} scenario step(s) were never asked for:\n${lines.join('\n')}`);
  }

  /** Back to the initial scenarios, nothing consumed, journal emptied, stored responses forgotten. */
  reset(): void {
    this.engine.reset();
    // Fresh adapter state: each adapter makes a new one when this mock next needs it.
    this.#states.clear();
    this.#journal.clear();
  }

  /** Adds scenarios at run time, tried before existing ones of the same priority (like MSW's `use`). */
  use(...scenarios: ScenarioLike[]): void {
    this.engine.use(...scenarioArray(scenarios));
  }
}

/**
 * Creates a mock LLM over scenario objects.
 * @example
 *   const mock = createMockLLM({ scenarios: [{ name: 'hi', steps: [{ respond: { text: 'Hello' } }] }] });
 *   const res = await mock.handle(request);
 */
export function createMockLLM(options: MockLLMOptions = {}): MockLLM {
  return new MockLLM(options);
}
