/**
 * Claude on Bedrock through Anthropic's own Bedrock client (`@anthropic-ai/bedrock-sdk`), used as
 * its users call it: `new AnthropicBedrock({ awsRegion, awsAccessKey, awsSecretKey })`,
 * `messages.create()` and `messages.stream()`. The SDK rewrites `/v1/messages` to
 * `/model/{model}/invoke[-with-response-stream]`, SigV4-signs, and turns the binary event stream
 * back into Anthropic's SSE events; these tests check each step against the mock, over MSW and the real port.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import { tempRuntime } from '../../goldens/testing/runtime.ts';

const HAIKU = 'anthropic.claude-3-5-haiku-20241022-v1:0';
/** The SDK escapes the model id as a path segment: an ARN's `/` escaped, `:` left as is. */
const modelPath = (model: string) => `/model/${model.replaceAll('/', '%2F')}`;
const ask = (content: string) => ({ model: HAIKU, max_tokens: 64, messages: [{ role: 'user' as const, content }] });
const weather: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

/** What went over the wire: the SDK's own requests, seen by wrapping the global fetch (MSW still answers). */
interface Sent {
  url: string;
  headers: Headers;
  body: any;
}

function bedrock(options: { baseURL?: string; apiKey?: string; skipAuth?: boolean } = {}) {
  const sent: Sent[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    return globalThis.fetch(url, init);
  };
  const common = { awsRegion: 'eu-west-1', maxRetries: 0, fetch, baseURL: options.baseURL, skipAuth: options.skipAuth };
  const client = options.apiKey
    ? new AnthropicBedrock({ ...common, apiKey: options.apiKey })
    : new AnthropicBedrock({ ...common, awsAccessKey: 'AKIDGHOSTTEST', awsSecretKey: 'ghost-secret', awsSessionToken: 'ghost-session-token' });
  return { client, sent };
}

describe('Claude on Bedrock through @anthropic-ai/bedrock-sdk over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());

  it('answers create() at /model/{model}/invoke, SigV4-signed, with a Claude-on-Bedrock message', async () => {
    mock.use({ name: 't', steps: [{ match: { provider: 'bedrock', model: HAIKU }, respond: { text: 'Hello from Bedrock.', usage: { inputTokens: 9, outputTokens: 4 } } }] });
    const { client, sent } = bedrock();
    const message = await client.messages.create(ask('hi'));
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: HAIKU,
      content: [{ type: 'text', text: 'Hello from Bedrock.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 9, output_tokens: 4 },
    });
    expect(message.id).toMatch(/^msg_bdrk_[0-9A-Za-z]+$/);
    const [req] = sent;
    expect(req.url).toBe(`https://bedrock-runtime.eu-west-1.amazonaws.com${modelPath(HAIKU)}/invoke`);
    expect(req.headers.get('authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDGHOSTTEST\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/);
    expect(req.headers.get('x-amz-security-token')).toBe('ghost-session-token');
    // The model and stream flag move to the path; the version goes into the body.
    expect(req.body).not.toHaveProperty('model');
    expect(req.body).not.toHaveProperty('stream');
    expect(typeof req.body.anthropic_version).toBe('string');
    expect(mock.requests.map((r) => [r.provider, r.status, r.request?.model])).toEqual([['bedrock', 200, HAIKU]]);
    expect(JSON.stringify(mock.requests)).not.toMatch(/ghost-session-token|AKIDGHOSTTEST/);
  });

  it('streams every Anthropic event through invoke-with-response-stream; finalMessage() equals the create() message', async () => {
    const respond = { text: 'Streamed from Bedrock.', toolCalls: [{ id: 'toolu_bdrk_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 12, outputTokens: 8 } };
    mock.use({ name: 't', steps: [{ respond: { ...respond, stream: { chunkSize: 4 } }, consume: false }] });
    const { client, sent } = bedrock();
    const created = await client.messages.create({ ...ask('weather?'), tools: [weather] });
    const stream = client.messages.stream({ ...ask('weather?'), tools: [weather] });
    const events: Anthropic.MessageStreamEvent[] = [];
    stream.on('streamEvent', (event) => events.push(event));
    const final = await stream.finalMessage();
    expect(new URL(sent[1].url).pathname).toBe(`${modelPath(HAIKU)}/invoke-with-response-stream`);
    expect([...new Set(events.map((e) => e.type))]).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    const deltas = events.flatMap((e) => (e.type === 'content_block_delta' ? [e.delta.type] : []));
    expect(new Set(deltas)).toEqual(new Set(['text_delta', 'input_json_delta']));
    // Bedrock's metrics ride on message_stop, as the real service sends them.
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 12, outputTokenCount: 8 } });
    expect(final.id).toMatch(/^msg_bdrk_/);
    const { id: _a, ...createdRest } = created;
    const { id: _b, parsed_output: _p, ...finalRest } = final as typeof final & { parsed_output?: unknown };
    expect(finalRest).toEqual(createdRest);
    expect(created.content).toEqual([
      { type: 'text', text: 'Streamed from Bedrock.', citations: null },
      expect.objectContaining({ type: 'tool_use', id: 'toolu_bdrk_1', name: 'get_weather', input: { city: 'Paris' } }),
    ]);
    expect(created.stop_reason).toBe('tool_use');
  });

  it('runs a tool loop: the tool_result answers the tool_use by id', async () => {
    mock.use({
      name: 'loop',
      steps: [
        { respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
        { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' } },
      ],
    });
    const { client } = bedrock();
    const first = await client.messages.create({ ...ask('weather?'), tools: [weather] });
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    const second = await client.messages.create({
      ...ask('weather?'),
      tools: [weather],
      messages: [...ask('weather?').messages, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] }],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Sunny in Paris.', citations: null }]);
    expect(mock.unconsumed()).toEqual([]);
  });

  it('raises the SDK’s error classes from Bedrock’s error shape, the message read from its body', async () => {
    const { client } = bedrock();
    const fail = async (error: { status: number; message: string; type?: string }) => {
      mock.use({ name: 'e', steps: [{ respond: { error } }] });
      return client.messages.create(ask('hi')).catch((e: unknown) => e);
    };
    const throttled = await fail({ status: 429, message: 'Too many requests, please wait before trying again.' });
    expect(throttled).toBeInstanceOf(Anthropic.RateLimitError);
    expect((throttled as APIError).message).toBe('429 Too many requests, please wait before trying again.');
    expect((throttled as APIError).error).toEqual({ message: 'Too many requests, please wait before trying again.' });
    expect((throttled as APIError).headers?.get('x-amzn-errortype')).toMatch(/^ThrottlingException:/);
    expect(await fail({ status: 400, message: 'messages: bad' })).toBeInstanceOf(Anthropic.BadRequestError);
    expect(await fail({ status: 500, message: 'boom' })).toBeInstanceOf(Anthropic.InternalServerError);
    const quota = await fail({ status: 400, message: 'quota', type: 'ServiceQuotaExceededException' });
    expect((quota as APIError).headers?.get('x-amzn-errortype')).toMatch(/^ServiceQuotaExceededException:/);
    // No step matches: Bedrock's 404, the near misses in the body.
    mock.use({ name: 'only', steps: [{ match: { model: 'other-model' }, respond: { text: 'x' } }] });
    const missing = await client.messages.create(ask('hi')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as APIError).message).toContain('no scenario step matched');
    // Unsigned: Bedrock's 403, before any step is consumed.
    mock.reset();
    mock.use({ name: 'any', steps: [{ respond: { text: 'x' } }] });
    const unsigned = await bedrock({ skipAuth: true }).client.messages.create(ask('hi')).catch((e: unknown) => e);
    expect(unsigned).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((unsigned as APIError).message).toBe('403 Missing Authentication Token');
    expect(mock.unconsumed()).toHaveLength(1);
  });

  it('answers beta.messages, the betas carried in the body as anthropic_beta', async () => {
    mock.use({ name: 't', steps: [{ respond: { text: 'beta ok', stream: { chunkSize: 3 } }, consume: false }] });
    const { client, sent } = bedrock();
    const created = await client.beta.messages.create({ ...ask('hi'), betas: ['context-1m-2025-08-07'] });
    const streamed = await client.beta.messages.stream({ ...ask('hi'), betas: ['context-1m-2025-08-07'] }).finalMessage();
    expect(created.content).toEqual([{ type: 'text', text: 'beta ok', citations: null }]);
    expect(streamed.content).toEqual(created.content);
    expect(sent.map((r) => [new URL(r.url).pathname, r.body.anthropic_beta])).toEqual([
      [`${modelPath(HAIKU)}/invoke`, ['context-1m-2025-08-07']],
      [`${modelPath(HAIKU)}/invoke-with-response-stream`, ['context-1m-2025-08-07']],
    ]);
    expect(mock.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it('takes a Bedrock API key (Bearer) and an inference-profile ARN, URL-encoded in the path', async () => {
    const arn = 'arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-3-5-haiku-20241022-v1:0';
    mock.use({ name: 't', steps: [{ match: { model: arn }, respond: { text: 'by profile' } }] });
    const { client, sent } = bedrock({ apiKey: 'bedrock-api-key-test' });
    const message = await client.messages.create({ ...ask('hi'), model: arn });
    expect(message.content[0]).toMatchObject({ text: 'by profile' });
    expect(sent[0].headers.get('authorization')).toBe('Bearer bedrock-api-key-test');
    expect(new URL(sent[0].url).pathname).toBe(`${modelPath(arn)}/invoke`);
  });
});

describe('Claude on Bedrock through @anthropic-ai/bedrock-sdk on the real port', () => {
  it('answers create() and stream() with the SDK’s baseURL, with or without the /bedrock prefix', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'over the port', stream: { chunkSize: 3 } }, consume: false }] }] });
    try {
      for (const baseURL of [server.url, `${server.url}/bedrock`]) {
        const { client } = bedrock({ baseURL });
        const created = await client.messages.create(ask('hi'));
        const final = await client.messages.stream(ask('hi')).finalMessage();
        expect(created.content).toEqual([{ type: 'text', text: 'over the port', citations: null }]);
        expect(final.content).toEqual(created.content);
        expect(final.id).toMatch(/^msg_bdrk_/);
      }
      // API-key clients carry no SigV4 scope: the SDK's user agent names Bedrock on the shared port.
      const { client } = bedrock({ baseURL: server.url, apiKey: 'k' });
      expect((await client.messages.create(ask('hi'))).content[0]).toMatchObject({ text: 'over the port' });
      expect(server.mock.requests.map((r) => `${r.provider} ${r.status} ${r.request?.path}`)).toEqual([
        ...Array(2).fill([`bedrock 200 ${modelPath(HAIKU)}/invoke`, `bedrock 200 ${modelPath(HAIKU)}/invoke-with-response-stream`]).flat(),
        `bedrock 200 ${modelPath(HAIKU)}/invoke`,
      ]);
      // An unknown path with only the SDK's user agent gets Bedrock's 404 shape.
      const unknown = await fetch(`${server.url}/nothing/here`, { headers: { 'user-agent': 'AnthropicBedrock/JS 1.12.0' } });
      expect(unknown.status).toBe(404);
      expect(Object.keys(await unknown.json())).toEqual(['message']);
    } finally {
      await server.close();
    }
  });
});

describe('Claude on Bedrock through @anthropic-ai/bedrock-sdk in goldens', () => {
  it('records create() and stream() and replays them to the SDK, credentials redacted', async () => {
    const server = await startMockLLMServer({
      scenarios: [{ name: 'g', steps: [{ respond: { text: 'Recorded.', toolCalls: [{ id: 'toolu_bdrk_g1', name: 'get_weather', arguments: { city: 'Oslo' } }], stream: { chunkSize: 3 } }, consume: false }] }],
    });
    const run = async () => {
      const { client } = bedrock();
      const created = await client.messages.create({ ...ask('weather?'), tools: [weather] });
      const final = await client.messages.stream({ ...ask('weather?'), tools: [weather] }).finalMessage();
      return [created, final].map((m) => ({ id: m.id, content: m.content, stop_reason: m.stop_reason, usage: m.usage }));
    };
    const { runtime, root } = tempRuntime('record');
    const testFile = `${root}/anthropic-bedrock.test.ts`;
    const recording = runtime.session(testFile, 'invoke');
    recording.setUpstream(server.url);
    await recording.intercept();
    const recorded = await run();
    await runtime.finish(testFile, 'invoke', true);
    await server.close();
    expect(recorded[1].content).toEqual(recorded[0].content);
    const golden = recording.golden()!;
    expect(golden.interactions.map((i) => [i.provider, new URL(i.request.url).pathname, i.response.framing ?? null])).toEqual([
      ['bedrock', `${modelPath(HAIKU)}/invoke`, null],
      ['bedrock', `${modelPath(HAIKU)}/invoke-with-response-stream`, 'binary'],
    ]);
    expect(golden.interactions[1].summary).toMatchObject({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    expect(JSON.stringify(golden)).not.toMatch(/AKIDGHOSTTEST|ghost-session-token|ghost-secret/);

    // Replayed with the upstream gone: the SDK reads the same messages, ids included.
    const { runtime: replay } = tempRuntime('replay', {}, root);
    await replay.session(testFile, 'invoke').intercept();
    expect(await run()).toEqual(recorded);
    expect((await replay.finish(testFile, 'invoke', true))?.action).toBe('replayed');
  });
});
