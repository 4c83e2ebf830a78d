/**
 * A Bedrock stream that fails midway: an exception message in the event stream, thrown by
 * `@aws-sdk/client-bedrock-runtime` as its own exception class, for ConverseStream and
 * InvokeModelWithResponseStream, over MSW and the real port; and read back from recorded bytes.
 */
import {
  BedrockRuntimeClient,
  ConverseStreamCommand,
  InternalServerException,
  InvokeModelWithResponseStreamCommand,
  ModelStreamErrorException,
  ModelTimeoutException,
  ThrottlingException,
  type ConverseStreamOutput,
  type ResponseStream,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { eventMessage, exceptionMessage } from './event-stream.ts';
import { bedrockReader } from './reader.ts';

const HAIKU = 'anthropic.claude-3-haiku-20240307-v1:0';
const TEXT = 'Half of this answer arrives before the failure.';
const client = (endpoint?: string) =>
  new BedrockRuntimeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDSTREAMERR', secretAccessKey: 'stream-secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
    ...(endpoint ? { endpoint } : {}),
  });
const failing = (error: { message: string; type?: string; status?: number }): ScenarioInput => ({
  name: 'flaky',
  steps: [{ respond: { text: TEXT, stream: { chunkSize: 4, chunkDelayMs: 2, errorAfterChunks: 5, error } } }],
});

async function converse(endpoint: string | undefined): Promise<{ text: string; err: unknown }> {
  let text = '';
  try {
    const res = await client(endpoint).send(new ConverseStreamCommand({ modelId: HAIKU, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
    for await (const event of res.stream as AsyncIterable<ConverseStreamOutput>) text += event.contentBlockDelta?.delta?.text ?? '';
  } catch (err) {
    return { text, err };
  }
  throw new Error('the stream ended without an error');
}

async function invoke(endpoint: string | undefined): Promise<{ text: string; err: unknown }> {
  let text = '';
  try {
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const res = await client(endpoint).send(new InvokeModelWithResponseStreamCommand({ modelId: HAIKU, contentType: 'application/json', body }));
    for await (const part of res.body as AsyncIterable<ResponseStream>) {
      const event = part.chunk?.bytes ? JSON.parse(new TextDecoder().decode(part.chunk.bytes)) : null;
      if (event?.type === 'content_block_delta') text += event.delta.text;
    }
  } catch (err) {
    return { text, err };
  }
  throw new Error('the stream ended without an error');
}

describe.each(['msw', 'port'] as const)('Bedrock mid-stream exceptions over %s', (transport) => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  let server: MockLLMServer | undefined;
  let endpoint: string | undefined;
  beforeAll(async () => {
    if (transport === 'msw') return msw.listen({ onUnhandledFrame: 'error' });
    server = await startMockLLMServer({ mock });
    endpoint = server.url;
  });
  afterAll(async () => {
    if (transport === 'msw') msw.close();
    await server?.close();
  });
  beforeEach(() => mock.reset());

  it('ConverseStream: the text before it, then ThrottlingException, paced like any frame', async () => {
    mock.use(failing({ message: 'Too many tokens, please wait before trying again.', status: 429 }));
    const { text, err } = await converse(endpoint);
    expect(text.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(text) && text !== TEXT).toBe(true);
    expect(err).toBeInstanceOf(ThrottlingException);
    expect((err as ThrottlingException).message).toBe('Too many tokens, please wait before trying again.');
  });

  it('ConverseStream: ModelStreamErrorException carries the status as originalStatusCode; no status is an InternalServerException', async () => {
    mock.use(failing({ message: 'The model stream failed.', type: 'ModelStreamErrorException', status: 424 }));
    const { err } = await converse(endpoint);
    expect(err).toBeInstanceOf(ModelStreamErrorException);
    expect(err).toMatchObject({ message: 'The model stream failed.', originalStatusCode: 424 });
    mock.use(failing({ message: 'Something broke.' }));
    expect((await converse(endpoint)).err).toBeInstanceOf(InternalServerException);
  });

  it('InvokeModelWithResponseStream: the chunks before it, then ModelTimeoutException (a member of its union, not of Converse’s)', async () => {
    mock.use(failing({ message: 'Model has timed out in processing the request.', status: 408 }));
    const { text, err } = await invoke(endpoint);
    expect(text.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(text) && text !== TEXT).toBe(true);
    expect(err).toBeInstanceOf(ModelTimeoutException);
    expect((err as Error).message).toBe('Model has timed out in processing the request.');
    // ConverseStream's union has no ModelTimeoutException: the same step fails it as a ModelStreamErrorException.
    mock.use(failing({ message: 'Model has timed out in processing the request.', status: 408 }));
    expect((await converse(endpoint)).err).toBeInstanceOf(ModelStreamErrorException);
  });
});

describe('recorded bytes of a Bedrock stream that failed', () => {
  it('reads the exception message into the answer: the text before it, the exception, its status', () => {
    const frames = [
      eventMessage('messageStart', { p: 'abcd', role: 'assistant' }),
      eventMessage('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Partly' }, p: 'abcdefgh' }),
      exceptionMessage('modelStreamErrorException', { message: 'Model stream error.', originalStatusCode: 500, originalMessage: 'upstream' }),
    ];
    expect(bedrockReader.streamedAnswer(frames)).toEqual({
      text: 'Partly',
      toolCalls: [],
      finishReason: null,
      usage: null,
      error: { message: 'Model stream error.', type: 'ModelStreamErrorException', status: 500 },
    });
    // Without the exception: no error.
    expect(bedrockReader.streamedAnswer(frames.slice(0, 2)).error).toBeUndefined();
  });
});
