import { existsSync } from 'node:fs';
import { bypass } from 'msw';
import { ownMswServer, type Interceptor } from './interceptor.ts';
import { OUTPUTS, type GoldenMode, type ResolvedGoldensConfig } from './config.ts';
import { compareValues, toJsonValue, withPlaceholders } from './compare.ts';
import type { MatcherFactory } from './placeholders.ts';
import { describeDrift } from './drift.ts';
import { GoldenFormatError, GoldenMismatchError } from './errors.ts';
import type { Secret } from './leak-scanner.ts';
import type { Masker } from './masks.ts';
import { goldenPathFor, relativeTestFile } from './paths.ts';
import type { Redactor } from './redact.ts';
import { Recorder } from './recorder.ts';
import { Replayer } from './replayer.ts';
import { RealtimeRecorder } from './realtime-recorder.ts';
import { RealtimeReplayer } from './realtime-replayer.ts';
import { GOLDEN_FORMAT_VERSION, type GoldenFile, type Interaction, type RealtimeConversation } from './schema.ts';
import { readGoldenSync, writeGolden } from './store.ts';
import { isProviderPatternHost } from '../providers/origins.ts';
import { RecordedWires } from '../providers/recorded.ts';

/** What every session of a run shares. */
export interface GoldensContext {
  config: ResolvedGoldensConfig;
  secrets: Secret[];
  redactor: Redactor;
  masker: Masker;
}

export type GoldenAction = 'written' | 'updated' | 'replayed';

/** What a finished session did, for the reporter. */
export interface SessionOutcome {
  /** The golden, relative to the project root. */
  file: string;
  action: GoldenAction | null;
  drift: string[];
  /** Recorded interactions this replay never used (`3: POST /v1/chat/completions`): the code made fewer calls. */
  unusedInteractions?: string[];
}

export interface ExpectationResult {
  pass: boolean;
  message: string;
}

/**
 * One test's golden: loads it, intercepts provider traffic (replaying or recording), holds the expected
 * outputs `toMatchGolden` compares against, and writes the file atomically when the test passed.
 * @example
 *   const session = new GoldenSession(ctx, { testFile, testName });
 *   await session.intercept();
 *   // ... the test runs ...
 *   await session.finish(true);
 */
export class GoldenSession {
  readonly file: string;
  readonly relativeFile: string;
  readonly mode: Exclude<GoldenMode, 'record-missing'>;
  private readonly ctx: GoldensContext;
  private readonly testFile: string;
  private readonly testName: string;
  private previous: GoldenFile | null | undefined;
  private readonly expected: Record<string, unknown> = {};
  private readonly seen = new Set<string>();
  private inputValue: unknown = null;
  private upstreamUrl: string | null;
  private timing: 'compressed' | 'real';
  private uninstall: (() => void) | null = null;
  private readonly origins: Set<string>;
  /** Which recorded or claimed request is an LLM API call, read through the provider adapters. */
  private readonly wires = new RecordedWires();
  private recorder: Recorder | null = null;
  private replayer: Replayer | null = null;
  private realtimeRecorder: RealtimeRecorder | null = null;
  private realtimeReplayer: RealtimeReplayer | null = null;
  private readonly failures: Error[] = [];
  private expectedChanged = false;
  private intercepted = false;
  /** A request reached the session through `serve` (the real port). */
  private touched = false;

  constructor(ctx: GoldensContext, test: { testFile: string; testName: string; file?: string }) {
    this.ctx = ctx;
    const { root, goldensDir, effectiveMode } = ctx.config;
    this.testFile = relativeTestFile(root, test.testFile);
    this.testName = test.testName;
    this.file = test.file ?? goldenPathFor(root, goldensDir, test.testFile, test.testName);
    this.relativeFile = relativeTestFile(root, this.file);
    this.mode = effectiveMode === 'record-missing' ? (existsSync(this.file) ? 'replay' : 'record') : effectiveMode;
    this.upstreamUrl = ctx.config.upstream ?? process.env.GHOSTWIRE_UPSTREAM ?? null;
    this.timing = process.env.GHOSTWIRE_TIMING === 'real' ? 'real' : ctx.config.timing;
    this.origins = new Set([...ctx.config.providerOrigins, ...ctx.config.hosts].map((o) => new URL(o).origin));
  }

  /** The golden on disk (validated and leak-scanned), or null. Loaded once. */
  golden(): GoldenFile | null {
    if (this.previous === undefined) {
      const golden = readGoldenSync(this.file, this.ctx.secrets);
      // Two test names can slug to one file name; never replay (or overwrite) another test's golden.
      if (golden && golden.test.name !== this.testName) {
        throw new GoldenFormatError(
          this.relativeFile,
          '$.test.name',
          `this golden belongs to the test "${golden.test.name}", not "${this.testName}" (both names map to the same file); rename one of the tests`,
        );
      }
      this.previous = golden;
    }
    return this.previous;
  }

  /** Declares the test's input; stored in the golden. */
  setInput(value: unknown): void {
    this.inputValue = toJsonValue(value);
  }

  /** Replay streams at their recorded offsets (`real`) or without delays (`compressed`). */
  setTiming(timing: 'compressed' | 'real'): void {
    this.timing = timing;
    if (this.replayer) this.replayer.timing = timing;
  }

  /** Record mode: forward to this base URL instead of the real provider. */
  setUpstream(url: string | null): void {
    this.upstreamUrl = url;
  }

  /**
   * Starts intercepting the providers' hosts (and configured ones) for this test, through the given
   * interceptor (a private MSW server by default; the Vitest fixture passes the worker's shared one).
   */
  async intercept(interceptor: Interceptor = ownMswServer()): Promise<void> {
    if (this.uninstall) return;
    this.open();
    this.uninstall = interceptor.install({
      claims: (request) => this.claims(request),
      handle: (request) => this.handle(request),
      sealsAll: this.mode !== 'record',
      realtime: this.realtimeRecorder ?? this.realtimeReplayer ?? undefined,
    });
  }

  /** Makes the recorders (record) or loads the golden into replayers (replay); once. */
  open(): void {
    if (this.recorder || this.replayer) return;
    if (this.mode === 'record') {
      this.recorder = new Recorder(this.ctx.redactor);
      this.realtimeRecorder = new RealtimeRecorder(this.ctx.redactor, () => this.upstreamUrl);
    } else {
      const golden = this.golden();
      this.replayer = new Replayer(golden?.interactions ?? [], {
        file: this.relativeFile,
        redactor: this.ctx.redactor,
        ignorePaths: this.ctx.config.ignorePaths,
        timing: this.timing,
        wires: this.wires,
      });
      this.realtimeReplayer = new RealtimeReplayer(golden?.realtime ?? [], {
        file: this.relativeFile,
        redactor: this.ctx.redactor,
        timing: () => this.timing,
        fail: (error) => this.failures.push(error),
      });
      // Replay also answers whatever the golden recorded elsewhere (a base URL, a gateway).
      for (const i of golden?.interactions ?? []) this.origins.add(new URL(i.request.url).origin);
    }
  }

  /**
   * Answers one request from outside the interceptor (the real port, `ghostwire serve --goldens`):
   * records it through `forward` (default: this session's upstream, or the request's URL) or replays it.
   * A request the golden cannot answer throws GoldenMismatchError, and the session remembers the failure.
   * @example const response = await session.serve(new Request('https://api.openai.com/v1/chat/completions', init))
   */
  async serve(request: Request, forward?: (request: Request) => Promise<Response>): Promise<Response> {
    this.open();
    this.touched = true;
    if (this.recorder) return this.recorder.handle(request, forward ?? ((r) => this.forward(r)));
    try {
      if (!existsSync(this.file) && !this.golden()) throw this.missing(request);
      return await this.replayer!.serve(request);
    } catch (error) {
      this.failures.push(error as Error);
      throw error;
    }
  }

  /**
   * Record mode: writes the golden with the interactions complete so far (atomically), so a server
   * killed mid-recording leaves a readable golden. Returns how many interactions it holds.
   * @example await session.checkpoint()
   */
  async checkpoint(): Promise<number> {
    if (!this.recorder) return 0;
    const recorded = await this.recorder.settled();
    if (recorded.length === 0) return 0;
    await writeGolden(this.file, this.build(recorded, { ...this.expected }, this.inputValue), this.ctx.secrets);
    return recorded.length;
  }

  private missing(request: Request): GoldenMismatchError {
    const url = new URL(request.url);
    return new GoldenMismatchError(this.relativeFile, `no golden recorded for "${this.testName}" (${this.relativeFile}); ${request.method} ${url.pathname} cannot be replayed.`, this.ctx.config.recordHint ?? 'Record it locally with `ghostwire test --record-goldens` (or GHOSTWIRE_RECORD=1) and commit the file.');
  }

  /**
   * Is this request the golden's? The providers' hosts and the configured ones, any request shaped like
   * an LLM API call wherever the client points (a baseURL, a local server: recorded, or answered from the
   * golden even when that server is gone), and in replay the origins the golden recorded. Everything else
   * is left to the user's handlers.
   */
  private claims(request: Request): boolean {
    const url = new URL(request.url);
    if (this.origins.has(url.origin) || isProviderPatternHost(url.host)) return true;
    return this.wires.of(request.method, request.url, request.headers).provider !== null;
  }

  private async handle(request: Request): Promise<Response> {
    if (this.recorder) return this.recorder.handle(request, (r) => this.forward(r));
    if (!existsSync(this.file) && !this.golden()) return this.fail(this.missing(request), request);
    try {
      return await this.replayer!.serve(request);
    } catch (error) {
      return this.fail(error as Error, request);
    }
  }

  private async forward(request: Request): Promise<Response> {
    let target = request.url;
    if (this.upstreamUrl) {
      const original = new URL(request.url);
      const base = new URL(this.upstreamUrl);
      target = `${base.origin}${base.pathname.replace(/\/$/, '')}${original.pathname}${original.search}`;
    }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.clone().arrayBuffer();
    const headers = new Headers(request.headers);
    headers.delete('host');
    return fetch(bypass(target, { method: request.method, headers, body, signal: request.signal }));
  }

  /**
   * Remembers the failure (so the test fails even if the code swallows the error) and answers in the
   * called API's own error shape (its adapter's, as the real port does): a 400 the SDKs do not retry,
   * or the API's own refusal of a reasoning value this replay did not serve.
   */
  private fail(error: Error, request: Request): Response {
    this.failures.push(error);
    const wire = error instanceof GoldenMismatchError ? error.clientError() : { status: 400, message: error.message, type: 'invalid_request_error', headers: {} };
    return this.wires.errorResponse(request.method, request.url, request.headers, wire);
  }

  /**
   * `toMatchGolden`: compares (replay), stores (record, update, or missing locally) an expected output.
   * @example session.expect('output', run, { propertyMatchers: undefined, equals })
   */
  expect(
    name: string,
    actual: unknown,
    options: { propertyMatchers?: Record<string, unknown>; equals: (a: unknown, b: unknown) => boolean; matchers?: MatcherFactory },
  ): ExpectationResult {
    this.seen.add(name);
    const value = withPlaceholders(toJsonValue(actual), options.propertyMatchers);
    if (options.propertyMatchers) {
      const check = compareValues(value, actual, { masker: this.ctx.masker, propertyMatchers: options.propertyMatchers, equals: options.equals });
      if (!check.pass) return { pass: false, message: `${this.relativeFile} › ${name}: property matchers failed:\n${check.diff}` };
    }
    const golden = this.mode === 'record' ? null : this.golden();
    const stored = golden?.expected[name];
    if (this.mode === 'record' || this.mode === 'update' || stored === undefined) {
      if (this.mode === 'replay' && OUTPUTS[this.ctx.config.outputs].missing === 'fail') {
        return {
          pass: false,
          message: `${this.relativeFile} › ${name}: missing golden output, and this run does not write new ones (CI, or --update=none). Run the test locally (or \`ghostwire test --record-goldens\`) and commit ${this.relativeFile}.`,
        };
      }
      const same = stored !== undefined && compareValues(stored, value, { masker: this.ctx.masker }).pass;
      if (!same) this.expectedChanged = true;
      // Unchanged under the masks: keep the stored value, so masked fields (ids, durations) do not churn.
      this.expected[name] = same ? stored : value;
      return { pass: true, message: `${this.relativeFile} › ${name}: stored` };
    }
    const result = compareValues(stored, actual, { masker: this.ctx.masker, propertyMatchers: options.propertyMatchers, equals: options.equals, matchers: options.matchers });
    return {
      pass: result.pass,
      message: result.pass
        ? `${this.relativeFile} › ${name}: matches the golden`
        : `${this.relativeFile} › ${name} differs from the golden (- golden, + actual):\n${result.diff}\n\nIf the change is intended, update with \`vitest -u\` (expected outputs) or re-record with \`ghostwire test --record-goldens\`.`,
    };
  }

  /** Stops interception and waits for recordings in flight. */
  async close(): Promise<Interaction[]> {
    this.intercepted ||= this.uninstall !== null || this.touched;
    const recorded = this.recorder ? await this.recorder.settled() : [];
    this.realtimeRecorder?.close();
    this.uninstall?.();
    this.uninstall = null;
    return recorded;
  }

  /**
   * Ends the session: throws the first replay failure; when the test passed, writes the golden
   * (record, new expected outputs, or `-u` changes). A failed test writes nothing.
   */
  async finish(passed: boolean): Promise<SessionOutcome> {
    const recorded = await this.close();
    const outcome: SessionOutcome = { file: this.relativeFile, action: null, drift: [] };
    if (this.failures.length > 0) {
      const [first] = this.failures;
      if (this.failures.length > 1) first.message += `\n(and ${this.failures.length - 1} more unmatched request(s))`;
      throw first;
    }
    if (!passed) return outcome;
    if (this.mode === 'record') {
      const realtime = this.realtimeRecorder?.conversations ?? [];
      if (this.intercepted && recorded.length === 0 && realtime.length === 0) {
        const hosts = [...this.origins].join(', ');
        throw new GoldenMismatchError(
          this.relativeFile,
          `record mode: the test passed but its golden recorded no interactions, so ${this.relativeFile} was not written. ` +
            `Nothing it sent reached an LLM API ghostwire recognises (the hosts ${hosts}, or a POST to a chat/completions, responses, messages, embeddings or generateContent path on any host).`,
          'If the client points elsewhere, add that origin to the plugin\'s "hosts" option; if the test makes no LLM call, it needs no golden fixture (toMatchGolden works alone).',
        );
      }
      const previous = existsSync(this.file) ? this.golden() : null;
      const next = this.build(recorded, { ...this.expected }, this.inputValue, realtime);
      await writeGolden(this.file, next, this.ctx.secrets);
      return { ...outcome, action: 'written', drift: previous ? describeDrift(previous, next) : [] };
    }
    const golden = this.golden();
    if (this.expectedChanged) {
      const base = golden ?? this.build([], {}, this.inputValue);
      const expected = this.mode === 'update' ? this.derived(base.expected) : { ...base.expected, ...this.expected };
      await writeGolden(this.file, { ...base, expected, input: this.mode === 'update' && this.inputValue !== null ? this.inputValue : base.input }, this.ctx.secrets);
      return { ...outcome, action: golden ? 'updated' : 'written' };
    }
    const unused = this.unusedInteractions();
    if (unused.length > 0 && this.ctx.config.strict) {
      throw new GoldenMismatchError(this.relativeFile, `strict: ${unused.length} recorded interaction(s) of ${this.relativeFile} were never used by this replay (the code made fewer calls):`, unused.map((u) => `  ${u}`).join('\n'));
    }
    const replayed = golden && (this.replayer?.servedCount || this.realtimeReplayer?.servedCount || this.seen.size > 0) ? { ...outcome, action: 'replayed' as const } : outcome;
    return unused.length > 0 ? { ...replayed, unusedInteractions: unused } : replayed;
  }

  /** Replay: the recorded interactions never asked for, as `index: METHOD path`. */
  private unusedInteractions(): string[] {
    const golden = this.previous;
    if (!this.replayer || !golden) return [];
    const http = this.replayer.unused().map((i) => {
      const { method, url } = golden.interactions[i].request;
      return `${i}: ${method} ${new URL(url).pathname}`;
    });
    return [...http, ...(this.realtimeReplayer?.unused() ?? [])];
  }

  /** `-u`: the outputs seen in this run replace the stored ones; names no longer asserted are dropped. */
  private derived(stored: Record<string, unknown>): Record<string, unknown> {
    return this.seen.size === 0 ? stored : Object.fromEntries([...this.seen].map((n) => [n, n in this.expected ? this.expected[n] : stored[n]]));
  }

  private build(interactions: Interaction[], expected: Record<string, unknown>, input: unknown, realtime: RealtimeConversation[] = []): GoldenFile {
    const first = interactions.find((i) => i.provider !== null);
    const reader = first ? this.wires.of(first.request.method, first.request.url, first.request.headers, first.provider).reader : null;
    const model = first && reader ? reader.model(new URL(first.request.url).pathname, first.request.body) : null;
    return {
      formatVersion: GOLDEN_FORMAT_VERSION,
      test: { file: this.testFile, name: this.testName },
      recordedAt: new Date().toISOString(),
      provider: first?.provider ?? realtime[0]?.provider ?? null,
      model: model ?? (realtime[0] ? realtimeModel(realtime[0]) : null),
      input,
      interactions,
      ...(realtime.length > 0 ? { realtime } : {}),
      expected,
    };
  }
}

/** A realtime conversation's model: OpenAI's `?model=`, else Gemini Live's `setup.model` (first client frame). */
function realtimeModel(conversation: RealtimeConversation): string | null {
  const fromUrl = new URL(conversation.url).searchParams.get('model');
  if (fromUrl) return fromUrl;
  const first = conversation.frames.find((f) => f.direction === 'client');
  try {
    const model = (JSON.parse(first?.data ?? '') as { setup?: { model?: unknown } }).setup?.model;
    return typeof model === 'string' ? model.replace(/^models\//, '') : null;
  } catch {
    return null;
  }
}
