import {
  BedrockRuntimeClient,
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseCommandOutput,
  type ConverseStreamOutput,
  type Message,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { expect } from 'vitest';
import { bedrockAdapter } from './index.ts';
import { describeConformance, type SdkAnswer, type SdkToolCall } from '../testing/conformance.ts';
import { bedrockErrorReader, streamUntilError } from '../testing/kits.ts';

// HTTP/1.1 handler: MSW cannot see the SDK's default HTTP/2 one (see the README's Bedrock notes).
const client = (base: string | undefined) =>
  new BedrockRuntimeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
    ...(base ? { endpoint: base } : {}),
  });
const toolConfig = { tools: ['get_weather', 'get_time'].map((name): Tool => ({ toolSpec: { name, inputSchema: { json: { type: 'object' } } } })) };
const messages = (prompt: string): Message[] => [{ role: 'user', content: [{ text: prompt }] }];
/** The tool loop's next turn as the SDK types it: the `toolUse` block, then a `toolResult` naming its `toolUseId`. */
const loop = (prompt: string, call: SdkToolCall, result: string): Message[] => [
  ...messages(prompt),
  { role: 'assistant', content: [{ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments as Record<string, never> } }] },
  { role: 'user', content: [{ toolResult: { toolUseId: call.id, content: [{ json: JSON.parse(result) as Record<string, never> }], status: 'success' } }] },
];
const usage = (u: { inputTokens?: number; outputTokens?: number } | undefined) => (u ? { inputTokens: u.inputTokens ?? 0, outputTokens: u.outputTokens ?? 0 } : null);

function answer(res: ConverseCommandOutput): SdkAnswer {
  const content = res.output?.message?.content ?? [];
  return {
    text: content.map((b) => b.text ?? '').join(''),
    toolCalls: content.filter((b) => b.toolUse).map((b) => ({ id: b.toolUse!.toolUseId, name: b.toolUse!.name!, arguments: b.toolUse!.input })),
    finishReason: res.stopReason ?? null,
    usage: usage(res.usage),
  };
}

async function streamed(events: AsyncIterable<ConverseStreamOutput> | undefined): Promise<SdkAnswer> {
  const out: SdkAnswer = { text: '', toolCalls: [], finishReason: null, usage: null };
  const inputs: string[] = [];
  for await (const e of events ?? []) {
    if (e.contentBlockStart?.start?.toolUse) {
      out.toolCalls.push({ id: e.contentBlockStart.start.toolUse.toolUseId, name: e.contentBlockStart.start.toolUse.name!, arguments: null });
      inputs.push('');
    }
    if (e.contentBlockDelta?.delta?.text) out.text += e.contentBlockDelta.delta.text;
    if (e.contentBlockDelta?.delta?.toolUse) inputs[inputs.length - 1] += e.contentBlockDelta.delta.toolUse.input ?? '';
    if (e.messageStop) out.finishReason = e.messageStop.stopReason ?? null;
    if (e.metadata) out.usage = usage(e.metadata.usage);
  }
  out.toolCalls.forEach((c, i) => (c.arguments = JSON.parse(inputs[i])));
  return out;
}

const converse = async (base: string | undefined, model: string, prompt: string | Message[], tools: boolean) =>
  answer(await client(base).send(new ConverseCommand({ modelId: model, messages: typeof prompt === 'string' ? messages(prompt) : prompt, ...(tools ? { toolConfig } : {}) })));
const converseStream = async (base: string | undefined, model: string, prompt: string | Message[], tools: boolean) =>
  streamed((await client(base).send(new ConverseStreamCommand({ modelId: model, messages: typeof prompt === 'string' ? messages(prompt) : prompt, ...(tools ? { toolConfig } : {}) }))).stream);

describeConformance({
  id: 'bedrock',
  adapter: bedrockAdapter,
  origin: 'https://bedrock-runtime.us-east-1.amazonaws.com',
  request: (model, prompt) => ({
    path: `/model/${encodeURIComponent(model)}/converse`,
    headers: { authorization: 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00' },
    body: { messages: messages(prompt) },
  }),
  authHeaders: ['authorization'],
  authStatus: 403,
  badBody: { messages: 'hi' },
  readError: bedrockErrorReader,
  finish: { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' },
  noMatch404: true,
  // Converse's own: `tooluse_hbTgdi0CSLq_hM4P8csZJA` (22 of URL-safe base64).
  toolCallId: /^tooluse_[A-Za-z0-9_-]{22}$/,
  // ConverseResponse has no id field.
  responseId: null,
  // An exception message in the event stream, thrown as the SDK's own exception class (its name is the type).
  streamError: { typeFor503: 'ServiceUnavailableException', given: { type: 'ThrottlingException', reported: 'ThrottlingException' }, status: false, message: true },
  sdk: {
    text: (base, model, prompt) => converse(base, model, prompt, false),
    stream: (base, model, prompt) => converseStream(base, model, prompt, false),
    tools: (base, model, prompt, stream) => (stream ? converseStream(base, model, prompt, true) : converse(base, model, prompt, true)),
    toolResult: (base, model, prompt, call, result, stream) =>
      stream ? converseStream(base, model, loop(prompt, call, result), true) : converse(base, model, loop(prompt, call, result), true),
    errorStatus: async (base, model, prompt) => {
      const err = await converse(base, model, prompt, false).catch((e: unknown) => e);
      if (!(err instanceof BedrockRuntimeServiceException)) throw new Error(`expected a BedrockRuntimeServiceException, got ${String(err)}`);
      expect(err.name).toBe('ResourceNotFoundException');
      return err.$metadata.httpStatusCode ?? 0;
    },
    // The SDK reads the first event in send(): an exception as the first frame rejects send() itself.
    streamError: async (base, model, prompt) =>
      streamUntilError(
        async () => (await client(base).send(new ConverseStreamCommand({ modelId: model, messages: messages(prompt) }))).stream!,
        (e) => e.contentBlockDelta?.delta?.text ?? '',
        (err) => {
          if (!(err instanceof BedrockRuntimeServiceException)) throw new Error(`expected a BedrockRuntimeServiceException, got ${String(err)}`);
          return { message: err.message, type: err.name, status: null };
        },
      ),
  },
});
