import { join } from 'node:path';
import {
  BedrockRuntimeClient,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ServiceQuotaExceededException,
  ThrottlingException,
  ConverseCommand,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { FetchHttpHandler } from '@smithy/fetch-http-handler';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import { tempRuntime } from '../../goldens/testing/runtime.ts';

const credentials = { accessKeyId: 'AKIDGHOSTTEST', secretAccessKey: 'ghost-secret', sessionToken: 'ghost-session-token' };
const client = (endpoint?: string, region = 'us-east-1') =>
  new BedrockRuntimeClient({ region, credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1, ...(endpoint ? { endpoint } : {}) });
const ask = (text: string) => [{ role: 'user' as const, content: [{ text }] }];
const HAIKU = 'anthropic.claude-3-haiku-20240307-v1:0';
const mock = (server: { mock: ReturnType<typeof createMockLLM> }) => server.mock;

describe('Bedrock through @aws-sdk/client-bedrock-runtime over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());

  it('raises the SDK’s own exception classes from x-amzn-ErrorType', async () => {
    mock.use({ name: 'e', steps: [{ respond: { error: { status: 429, message: 'Too many requests, please wait before trying again.' } } }] });
    const throttled = await client().send(new ConverseCommand({ modelId: HAIKU, messages: ask('hi') })).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ThrottlingException);
    expect((throttled as ThrottlingException).message).toBe('Too many requests, please wait before trying again.');
    const invalid = await client().send(new ConverseCommand({ modelId: HAIKU, messages: [{ role: 'user', content: 'hi' as never }] })).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationException);
    mock.use({ name: 'q', steps: [{ respond: { error: { status: 400, message: 'quota', type: 'ServiceQuotaExceededException' } } }] });
    const quota = await client().send(new ConverseCommand({ modelId: HAIKU, messages: ask('hi') })).catch((e: unknown) => e);
    expect(quota).toBeInstanceOf(ServiceQuotaExceededException);
  });

  it('answers any region and an ARN model id (URL-encoded in the path), and maps toolResult back to its toolUse', async () => {
    const arn = 'arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-3-haiku-20240307-v1:0';
    mock.use({
      name: 'loop',
      steps: [
        { match: { model: arn }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
        { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny.' } },
      ],
    });
    const eu = client(undefined, 'eu-west-1');
    const toolConfig = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] };
    const first = await eu.send(new ConverseCommand({ modelId: arn, messages: ask('weather?'), toolConfig }));
    const use = first.output!.message!.content![0].toolUse!;
    expect(first.stopReason).toBe('tool_use');
    const second = await eu.send(
      new ConverseCommand({
        modelId: arn,
        toolConfig,
        messages: [...ask('weather?'), first.output!.message!, { role: 'user', content: [{ toolResult: { toolUseId: use.toolUseId, content: [{ json: { sky: 'sunny' } }] } }] }],
      }),
    );
    expect(second.output!.message!.content![0].text).toBe('Sunny.');
    expect(mock.requests.map((r) => [r.provider, r.request?.model])).toEqual([['bedrock', arn], ['bedrock', arn]]);
    // SigV4 credentials never reach the journal.
    const journaled = JSON.stringify(mock.requests);
    expect(journaled).not.toMatch(/ghost-session-token|AKIDGHOSTTEST/);
    expect(mock.requests[0].request?.headers).toHaveProperty('x-amz-security-token');
  });

  it('InvokeModel and InvokeModelWithResponseStream answer Anthropic bodies as Claude on Bedrock does', async () => {
    mock.use({ name: 't', steps: [{ respond: { text: 'Hello from Claude.', usage: { inputTokens: 5, outputTokens: 4 }, stream: { chunkSize: 5 } }, consume: false }] });
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const res = await client().send(new InvokeModelCommand({ modelId: HAIKU, body, contentType: 'application/json', accept: 'application/json' }));
    const message = JSON.parse(new TextDecoder().decode(res.body));
    expect(message).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello from Claude.' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 4 } });
    const streamed = await client().send(new InvokeModelWithResponseStreamCommand({ modelId: HAIKU, body, contentType: 'application/json' }));
    const events: any[] = [];
    for await (const part of streamed.body!) events.push(JSON.parse(new TextDecoder().decode(part.chunk!.bytes)));
    expect(events[0].type).toBe('message_start');
    expect(events.filter((e) => e.type === 'content_block_delta').map((e) => e.delta.text).join('')).toBe('Hello from Claude.');
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 5, outputTokenCount: 4 } });
  });

  it('embeds with Titan v2’s 1024 dimensions, or 256/512 when asked, and refuses other sizes', async () => {
    const titan = 'amazon.titan-embed-text-v2:0';
    const embed = async (extra: object) =>
      JSON.parse(new TextDecoder().decode((await client().send(new InvokeModelCommand({ modelId: titan, body: JSON.stringify({ inputText: 'hello world', ...extra }) }))).body));
    expect((await embed({})).embedding).toHaveLength(1024);
    expect((await embed({ dimensions: 256 })).embedding).toHaveLength(256);
    expect((await embed({ dimensions: 512 })).embedding).toHaveLength(512);
    expect((await embed({})).inputTextTokenCount).toBeGreaterThan(0);
    await expect(embed({ dimensions: 300 })).rejects.toBeInstanceOf(ValidationException);
  });
});

describe('Bedrock on the real port', () => {
  it('answers Converse through the fetch-based handler too', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'hello' }, consume: false }] }] });
    try {
      const fetchClient = new BedrockRuntimeClient({ region: 'us-west-2', credentials, endpoint: server.url, requestHandler: new FetchHttpHandler(), maxAttempts: 1 });
      const res = await fetchClient.send(new ConverseCommand({ modelId: 'amazon.nova-lite-v1:0', messages: ask('hi') }));
      expect(res.output?.message?.content?.[0].text).toBe('hello');
      // The explicit provider prefix: `/bedrock` names the API outright.
      const prefixed = new BedrockRuntimeClient({ region: 'us-west-2', credentials, endpoint: `${server.url}/bedrock`, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
      const viaPrefix = await prefixed.send(new ConverseCommand({ modelId: 'amazon.nova-lite-v1:0', messages: ask('hi') }));
      expect(viaPrefix.output?.message?.content?.[0].text).toBe('hello');
      expect(server.mock.requests.map((r) => `${r.provider} ${r.request?.path}`)).toEqual(['bedrock /model/amazon.nova-lite-v1%3A0/converse', 'bedrock /model/amazon.nova-lite-v1%3A0/converse']);
    } finally {
      await server.close();
    }
  });
});

describe('Bedrock on the real port with the SDK’s default HTTP/2 handler', () => {
  it('answers Converse and ConverseStream over HTTP/2 cleartext, HTTP/1.1 still served on the same port', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'over h2', stream: { chunkSize: 2 } }, consume: false }] }] });
    const h2 = new BedrockRuntimeClient({ region: 'us-east-1', credentials, endpoint: server.url, maxAttempts: 1 });
    try {
      const res = await h2.send(new ConverseCommand({ modelId: HAIKU, messages: ask('hi') }));
      expect(res.output?.message?.content?.[0].text).toBe('over h2');
      const stream = await h2.send(new ConverseStreamCommand({ modelId: HAIKU, messages: ask('hi') }));
      let text = '';
      for await (const e of stream.stream!) text += e.contentBlockDelta?.delta?.text ?? '';
      expect(text).toBe('over h2');
      expect(mock(server).requests.map((r) => r.status)).toEqual([200, 200]);
      const h1 = await client(server.url).send(new ConverseCommand({ modelId: HAIKU, messages: ask('hi') }));
      expect(h1.output?.message?.content?.[0].text).toBe('over h2');
    } finally {
      h2.destroy();
      await server.close();
    }
  });
});

describe('Bedrock goldens', () => {
  it('records a ConverseStream and replays it byte-exact, credentials redacted', async () => {
    const scenario = {
      name: 'w',
      steps: [{ respond: { text: 'Checking.', toolCalls: [{ id: 'tooluse_w1', name: 'get_weather', arguments: { city: 'Paris' } }], stream: { chunkSize: 3 } }, consume: false }],
    };
    const server = await startMockLLMServer({ scenarios: [scenario] });
    const run = async () => {
      const res = await client().send(
        new ConverseStreamCommand({ modelId: HAIKU, messages: ask('weather?'), toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: {} } } }] } }),
      );
      const types: string[] = [];
      for await (const e of res.stream!) types.push(Object.keys(e).filter((k) => k !== '$unknown')[0]);
      return types;
    };
    const { runtime, root } = tempRuntime('record');
    const testFile = join(root, 'bedrock.test.ts');
    const recording = runtime.session(testFile, 'converse-stream');
    recording.setUpstream(server.url);
    await recording.intercept();
    const recorded = await run();
    await runtime.finish(testFile, 'converse-stream', true);
    expect(recorded).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'contentBlockStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);
    const golden = recording.golden()!;
    const [interaction] = golden.interactions;
    expect(interaction.provider).toBe('bedrock');
    expect(interaction.response.framing).toBe('binary');
    expect(interaction.summary).toMatchObject({ text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    expect(JSON.stringify(golden)).not.toMatch(/AKIDGHOSTTEST|ghost-session-token|AWS4-HMAC-SHA256 Credential/);
    const recordedBytes = Buffer.concat(interaction.response.events!.map((e) => Buffer.from(e.data, 'base64')));

    // The live bytes, asked of the server directly with the request the SDK sent.
    const requestBody = JSON.stringify(interaction.request.body);
    const path = new URL(interaction.request.url).pathname;
    const headers = { authorization: 'AWS4-HMAC-SHA256 Credential=AKIDX/20260101/us-east-1/bedrock/aws4_request', 'content-type': 'application/json' };
    const live = Buffer.from(await (await fetch(`${server.url}${path}`, { method: 'POST', headers, body: requestBody })).arrayBuffer());
    await server.close();
    expect(recordedBytes.equals(live)).toBe(true);

    // Replayed once through the SDK, once raw to compare the bytes (each replay serves the interaction once).
    const { runtime: replayRuntime } = tempRuntime('replay', {}, root);
    await replayRuntime.session(testFile, 'converse-stream').intercept();
    expect(await run()).toEqual(recorded);
    expect((await replayRuntime.finish(testFile, 'converse-stream', true))?.action).toBe('replayed');
    const { runtime: rawRuntime } = tempRuntime('replay', {}, root);
    await rawRuntime.session(testFile, 'converse-stream').intercept();
    const replayed = Buffer.from(await (await fetch(interaction.request.url, { method: 'POST', headers, body: requestBody })).arrayBuffer());
    await rawRuntime.finish(testFile, 'converse-stream', true);
    expect(replayed.toString('base64')).toBe(live.toString('base64'));
  });
});
