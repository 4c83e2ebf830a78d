/**
 * Test-only: the conformance cases every adapter runs (as Hono runs one set of router cases over
 * every router). Wire cases go over raw HTTP, the way a client that is not the SDK would send them;
 * behaviour the SDK sees (text, streams, tool calls, finish reasons, usage, no-match errors) goes
 * through the provider's official SDK. Both over MSW (the provider's own host) and the real port.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderAdapter } from '../adapter.ts';
import type { CanonicalRequest, CanonicalResponse, FinishReason, ProviderId } from '../../scenario/canonical.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { canonicalRequest, canonicalResponse } from './canonical.ts';
import { templatesMatchRendering } from './conformance-templates.ts';
import { readsStreamErrors, streamErrorCases, type SdkStreamError, type StreamErrorExpectations } from './conformance-stream-errors.ts';

export type { SdkStreamError, StreamErrorExpectations } from './conformance-stream-errors.ts';

/** A tool call as the SDK returned it; `id` absent where the wire carries none (Ollama). */
export interface SdkToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/** What a chat SDK call returned, reduced to what every provider has. */
export interface SdkAnswer {
  text: string;
  toolCalls: SdkToolCall[];
  /** The provider's own finish reason as the SDK exposes it. */
  finishReason: string | null;
  usage: { inputTokens: number; outputTokens: number } | null;
  /** The response's (message's, completion's) id as the SDK exposes it; absent where the wire carries none. */
  id?: string;
}

/** A provider's SDK, driven the same way for every provider. */
export interface ConformanceSdk {
  /** `base`: the real port's URL (undefined over MSW: the SDK's default host). */
  text(base: string | undefined, model: string, prompt: string): Promise<SdkAnswer>;
  stream(base: string | undefined, model: string, prompt: string): Promise<SdkAnswer>;
  tools(base: string | undefined, model: string, prompt: string, stream: boolean): Promise<SdkAnswer>;
  /**
   * The next turn of a tool loop, as a client sends it with the SDK's own types: `prompt`, the
   * assistant turn that made `call` (its id as returned), and `result` as the call's result naming that id.
   */
  toolResult(base: string | undefined, model: string, prompt: string, call: SdkToolCall, result: string, stream: boolean): Promise<SdkAnswer>;
  /** The status of the SDK's error for a failed call (throws when the call did not fail). */
  errorStatus(base: string | undefined, model: string, prompt: string): Promise<number>;
  /**
   * A stream read as users read it until it fails midway: the text that arrived before, and how the
   * SDK reported the failure. Throws unless the SDK reported it in its own way (its own error class;
   * for an SDK that throws on none, the event that says so).
   */
  streamError(base: string | undefined, model: string, prompt: string): Promise<{ text: string; error: SdkStreamError }>;
}

export interface ConformanceKit {
  id: ProviderId;
  adapter: () => ProviderAdapter;
  /** The API's own origin (`https://api.openai.com`): MSW answers it. */
  origin: string;
  /** What a well-formed request looks like on the wire: path, auth and version headers, body. */
  request(model: string, prompt: string): { path: string; headers: Record<string, string>; body: unknown };
  /** The credential headers to drop for the auth case. */
  authHeaders: readonly string[];
  /** What the provider's auth error says (its own wording). */
  authMessage?: RegExp;
  /** Status of a request without credentials (Google answers 403); null for an API without credentials (Ollama). */
  authStatus: number | null;
  /** A body of the wrong shape for `request`'s path. */
  badBody: unknown;
  /** The status of a mis-shaped body (400; Mistral validates with 422). */
  badStatus?: number;
  /** Reads the provider's error body: its message, asserting the shape; near misses when present. */
  readError(status: number, body: any): { message: string; nearMisses?: unknown };
  /** The provider's finish reason for each canonical one checked (chat APIs). */
  finish?: Partial<Record<FinishReason, string>>;
  /** Chat APIs: the SDK; absent for embeddings. */
  sdk?: ConformanceSdk;
  /**
   * Chat APIs: the shape of a tool call id the API mints (written out here from the API's own
   * examples, not taken from the adapter); null for a wire without tool call ids (Ollama).
   */
  toolCallId?: RegExp | null;
  /**
   * Chat APIs: the shape of a response id the API gives (message, completion; written out here from
   * the API's own examples, not taken from the adapter); null for a wire without one (Converse, Ollama).
   */
  responseId?: RegExp | null;
  /** False for an API that refuses ids of other shapes (Mistral): a scenario's own id is sent in its shape. */
  keepsGivenToolCallIds?: boolean;
  /** Request parameters a streamed round trip needs to carry usage (OpenAI's `stream_options`). */
  streamParams?: Record<string, unknown>;
  /** Does a request no step matches get a 404 (embeddings answer default vectors instead)? */
  noMatch404: boolean;
  /** Chat APIs: how the SDK reports a mid-stream error (`respond.stream.errorAfterChunks`). */
  streamError?: StreamErrorExpectations;
}

const TRANSPORTS = ['msw', 'port'] as const;

function kitRequest(id: ProviderId, stream: boolean, params: Record<string, unknown> = {}): CanonicalRequest {
  return canonicalRequest({ provider: id, stream, tools: [{ name: 'get_weather' }], params });
}

/**
 * Registers the shared cases for one adapter.
 * @example
 *   describeConformance(openAIChatKit);
 */
export function describeConformance(kit: ConformanceKit): void {
  describe(`${kit.id} conformance: read(render(x)) = x`, () => {
    const adapter = kit.adapter();
    const cases: Array<[string, Partial<CanonicalResponse>]> = [
      ['text', { text: 'Hello there, traveller.' }],
      ['a tool call', { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finishReason: 'tool_calls' }],
      [
        'parallel tool calls',
        {
          toolCalls: [
            { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'call_2', name: 'get_time', arguments: { zone: 'CET' } },
          ],
          finishReason: 'tool_calls',
        },
      ],
      ['a length stop', { text: 'cut sh', finishReason: 'length' }],
    ];
    if (!kit.sdk) {
      // Vectors are the answer: its templates hold them, and the request's texts.
      const vectors: Array<[string, Partial<CanonicalResponse>]> = [['vectors', { embeddings: [[0.125, -0.25, 0.5], [0.75, 0, -1]] }]];
      templatesMatchRendering(adapter, vectors, canonicalResponse, () => ({ ...kitRequest(kit.id, false), input: ['hi', 'there you'] }));
      return void it('is not a conversational API (nothing to round-trip)', () => expect(adapter.reader.conversational).toBe(false));
    }
    describe.each([false, true])('stream %s', (stream) => {
      it.each(cases)('%s', (_name, over) => {
        const response = canonicalResponse(over);
        const rendered = adapter.render(response, kitRequest(kit.id, stream, stream ? kit.streamParams : {}), adapter.createState?.());
        expect(rendered.status).toBe(200);
        expect(rendered.stream === undefined).toBe(!stream);
        const view = stream ? adapter.reader.streamedAnswer(rendered.stream!.frames) : adapter.reader.answer(rendered.json);
        expect(view.text).toBe(response.text);
        expect(view.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(response.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })));
        expect(view.usage).toEqual(response.usage);
        expect(view.finishReason).toBe(kit.finish?.[response.finishReason] ?? null);
        expect(view.error).toBeUndefined();
      });
    });

    templatesMatchRendering(adapter, cases, canonicalResponse, (stream) => kitRequest(kit.id, stream, stream ? kit.streamParams : {}));

    // A golden recorded from a stream that failed keeps the failure in its summary.
    readsStreamErrors(kit, adapter, canonicalResponse({}), kitRequest(kit.id, true, kit.streamParams));

  });

  describe.each(TRANSPORTS)(`${kit.id} conformance over %s`, (transport) => {
    const mock = createMockLLM();
    const msw = setupServer(...mockLLMHandlers(mock));
    let server: MockLLMServer | undefined;
    let origin = kit.origin;
    let base: string | undefined;
    beforeAll(async () => {
      if (transport === 'msw') return msw.listen({ onUnhandledFrame: 'error' });
      server = await startMockLLMServer({ mock });
      origin = server.url;
      base = server.url;
    });
    afterAll(async () => {
      if (transport === 'msw') msw.close();
      await server?.close();
    });
    beforeEach(() => mock.reset());
    const use = (...scenarios: ScenarioInput[]) => mock.use(...scenarios);

    const send = async (req: { path: string; headers: Record<string, string>; body: unknown }, method = 'POST') => {
      const res = await fetch(`${origin}${req.path}`, {
        method,
        headers: { 'content-type': 'application/json', ...req.headers },
        body: method === 'GET' ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    };

    const authStatus = kit.authStatus;
    if (authStatus !== null) it("answers a request without credentials with the provider's auth error", async () => {
      use({ name: 'any', steps: [{ respond: { text: 'x' }, times: 1 }] });
      const req = kit.request('m-1', 'hi');
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !kit.authHeaders.includes(k)));
      const res = await send({ ...req, headers });
      expect(res.status).toBe(authStatus);
      expect(kit.readError(res.status, res.body).message).toMatch(kit.authMessage ?? /./);
      // Refused before parsing: nothing canonical journaled, the step still waiting.
      expect(mock.requests.at(-1)).toMatchObject({ provider: kit.id, status: authStatus, request: null });
      expect(mock.unconsumed()).toHaveLength(1);
    });

    it("answers a mis-shaped body with the provider's 400", async () => {
      use({ name: 'any', steps: [{ respond: { text: 'x' } }] });
      const req = kit.request('m-1', 'hi');
      const status = kit.badStatus ?? 400;
      for (const body of [kit.badBody, 'not json', '[1, 2]']) {
        const res = await send({ ...req, body });
        expect(res.status).toBe(status);
        expect(kit.readError(status, res.body).message).not.toBe('');
      }
    });

    it("answers JSON nested 20,000 deep with the provider's 400, never a 500", async () => {
      use({ name: 'any', steps: [{ respond: { text: 'x' } }] });
      const req = kit.request('m-1', 'hi');
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const status = kit.badStatus ?? 400;
      const res = await send({ ...req, body: deep });
      expect(res.status).toBe(status);
      kit.readError(status, res.body);
      // Deep inside an otherwise good request: answered (the field is passed through) or refused, never a 500.
      const inner = await send({ ...req, body: `${JSON.stringify(req.body).slice(0, -1)},"deep_extra":${deep}}` });
      expect(inner.status === 200 || inner.status === status).toBe(true);
      if (inner.status !== 200) kit.readError(status, inner.body);
    });

    if (kit.noMatch404) it("answers a request no step matches with the provider's 404 and near misses", async () => {
      use({ name: 'only', steps: [{ match: { model: 'other-model' }, respond: { text: 'x' } }] });
      const res = await send(kit.request('m-1', 'hi'));
      expect(res.status).toBe(404);
      const error = kit.readError(404, res.body);
      expect(error.message).toContain('no scenario step matched');
      expect(JSON.stringify(error.nearMisses)).toContain('other-model');
    });

    it("answers an unknown route under the provider's host (or with its headers) in its own error shape", async () => {
      const req = kit.request('m-1', 'hi');
      const res = await send({ ...req, path: '/v9/nothing-here' });
      expect(res.status).toBe(404);
      expect(kit.readError(404, res.body).message).toContain('no mock API');
    });

    it("answers a malformed percent-escape under the provider's path in its own shape, never a 500", async () => {
      const req = kit.request('m-1', 'hi');
      const res = await send({ ...req, path: `${req.path.replace(/\/[^/]*$/, '')}/%E0%A4%A` });
      expect([kit.badStatus ?? 400, 404]).toContain(res.status);
      kit.readError(res.status, res.body);
    });

    if (!kit.sdk) return;
    const sdk = kit.sdk;

    it('answers text through the SDK, with finish reason and usage', async () => {
      use({ name: 't', steps: [{ respond: { text: 'Hello there, traveller.', usage: { inputTokens: 11, outputTokens: 7 } } }] });
      const answer = await sdk.text(base, 'm-1', 'hi');
      expect(answer).toMatchObject({ text: 'Hello there, traveller.', toolCalls: [], usage: { inputTokens: 11, outputTokens: 7 } });
      expect(answer.finishReason).toBe(kit.finish?.stop);
    });

    it('streams text through the SDK, with finish reason and usage', async () => {
      use({ name: 't', steps: [{ respond: { text: 'Hello there, traveller.', usage: { inputTokens: 11, outputTokens: 7 }, stream: { chunkSize: 3 } } }] });
      const answer = await sdk.stream(base, 'm-1', 'hi');
      expect(answer).toMatchObject({ text: 'Hello there, traveller.', usage: { inputTokens: 11, outputTokens: 7 } });
      expect(answer.finishReason).toBe(kit.finish?.stop);
    });

    it("gives each response its own id in the API's shape, streamed or not", async () => {
      if (kit.responseId === undefined) throw new Error(`${kit.id}: the kit names no responseId shape`);
      use({ name: 't', steps: [{ respond: { text: 'one' } }, { respond: { text: 'two', stream: { chunkSize: 2 } } }, { respond: { text: 'three' } }] });
      const answers = [await sdk.text(base, 'm-1', 'hi'), await sdk.stream(base, 'm-1', 'hi'), await sdk.text(base, 'm-1', 'hi')];
      expect(answers.map((a) => a.text)).toEqual(['one', 'two', 'three']);
      const ids = answers.map((a) => a.id);
      if (kit.responseId === null) return void expect(ids).toEqual([undefined, undefined, undefined]);
      for (const id of ids) expect(id).toMatch(kit.responseId);
      expect(new Set(ids).size).toBe(3);
    });

    it('reports a length stop as the provider does', async () => {
      use({ name: 't', steps: [{ respond: { text: 'cut sh', finishReason: 'length' } }] });
      expect((await sdk.text(base, 'm-1', 'hi')).finishReason).toBe(kit.finish?.length);
    });

    describe.each([false, true])('tool calls (stream %s)', (stream) => {
      it('makes a single tool call', async () => {
        use({ name: 't', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } }] });
        const answer = await sdk.tools(base, 'm-1', 'weather?', stream);
        expect(answer.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' } }]);
        expect(answer.finishReason).toBe(kit.finish?.tool_calls);
      });

      it('makes parallel tool calls, in order', async () => {
        use({ name: 't', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_time', arguments: { zone: 'CET' } }] } }] });
        const answer = await sdk.tools(base, 'm-1', 'weather and time?', stream);
        expect(answer.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual([
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_time', arguments: { zone: 'CET' } },
        ]);
        // Each call its own id, in the API's shape (a wire without ids has none to tell apart).
        const ids = answer.toolCalls.map((c) => c.id);
        if (kit.toolCallId) {
          for (const id of ids) expect(id).toMatch(kit.toolCallId);
          expect(new Set(ids).size).toBe(ids.length);
        }
      });

      // The tool loop: the id a call went out with comes back on its result, and the step that
      // expects results (expectToolResults) sees it answer the call, or the SDK would get a 400.
      const loop = (id?: string): ScenarioInput => ({
        name: 'loop',
        steps: [
          { respond: { toolCalls: [{ ...(id ? { id } : {}), name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
          { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' } },
        ],
      });
      const roundTrip = async (given?: string) => {
        use(loop(given));
        const first = await sdk.tools(base, 'm-1', 'weather?', stream);
        const [call] = first.toolCalls;
        const second = await sdk.toolResult(base, 'm-1', 'weather?', call, '{"sky":"sunny"}', stream);
        expect(second.text).toBe('Sunny in Paris.');
        expect(mock.unconsumed()).toEqual([]);
        const result = mock.requests.at(-1)!.request!.messages.find((m) => m.role === 'tool');
        return { call, result };
      };

      it("mints a tool call's id in the API's own shape, and the result naming it answers the call", async () => {
        const { call, result } = await roundTrip();
        if (kit.toolCallId === undefined) throw new Error(`${kit.id}: the kit names no toolCallId shape`);
        if (kit.toolCallId === null) return void expect(call.id).toBeUndefined();
        expect(call.id).toMatch(kit.toolCallId);
        // The id on the wire is the engine's own: nothing to map back.
        expect(result?.toolCallId).toBe(call.id);
      });

      it("keeps a scenario's own tool call id as given, and the result naming it answers the call", async () => {
        const { call, result } = await roundTrip('call_weather_1');
        if (kit.toolCallId === null) expect(call.id).toBeUndefined();
        else if (kit.keepsGivenToolCallIds === false) expect(call.id).toMatch(kit.toolCallId!);
        else expect(call.id).toBe('call_weather_1');
        expect(result?.toolCallId).toBe('call_weather_1');
      });
    });

    streamErrorCases(kit, sdk, { base: () => base, use, mock });

    it("raises the SDK's 404 error for a request no step matches", async () => {
      use({ name: 'only', steps: [{ match: { model: 'other-model' }, respond: { text: 'x' } }] });
      expect(await sdk.errorStatus(base, 'm-1', 'hi')).toBe(404);
    });
  });
}
