import {
  BedrockRuntimeClient,
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseCommandOutput,
  type ConverseStreamOutput,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { expect } from 'vitest';
import { bedrockAdapter } from './index.ts';
import { describeConformance, type SdkAnswer } from '../testing/conformance.ts';
import { bedrockErrorReader } from '../testing/kits.ts';

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
const messages = (prompt: string) => [{ role: 'user' as const, content: [{ text: prompt }] }];
const usage = (u: { inputTokens?: number; outputTokens?: number } | undefined) => (u ? { inputTokens: u.inputTokens ?? 0, outputTokens: u.outputTokens ?? 0 } : null);

function answer(res: ConverseCommandOutput): SdkAnswer {
  const content = res.output?.message?.content ?? [];
  return {
    text: content.map((b) => b.text ?? '').join(''),
    toolCalls: content.filter((b) => b.toolUse).map((b) => ({ name: b.toolUse!.name!, arguments: b.toolUse!.input })),
    finishReason: res.stopReason ?? null,
    usage: usage(res.usage),
  };
}

async function streamed(events: AsyncIterable<ConverseStreamOutput> | undefined): Promise<SdkAnswer> {
  const out: SdkAnswer = { text: '', toolCalls: [], finishReason: null, usage: null };
  const inputs: string[] = [];
  for await (const e of events ?? []) {
    if (e.contentBlockStart?.start?.toolUse) {
      out.toolCalls.push({ name: e.contentBlockStart.start.toolUse.name!, arguments: null });
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

const converse = async (base: string | undefined, model: string, prompt: string, tools: boolean) =>
  answer(await client(base).send(new ConverseCommand({ modelId: model, messages: messages(prompt), ...(tools ? { toolConfig } : {}) })));
const converseStream = async (base: string | undefined, model: string, prompt: string, tools: boolean) =>
  streamed((await client(base).send(new ConverseStreamCommand({ modelId: model, messages: messages(prompt), ...(tools ? { toolConfig } : {}) }))).stream);

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
  sdk: {
    text: (base, model, prompt) => converse(base, model, prompt, false),
    stream: (base, model, prompt) => converseStream(base, model, prompt, false),
    tools: (base, model, prompt, stream) => (stream ? converseStream(base, model, prompt, true) : converse(base, model, prompt, true)),
    errorStatus: async (base, model, prompt) => {
      const err = await converse(base, model, prompt, false).catch((e: unknown) => e);
      if (!(err instanceof BedrockRuntimeServiceException)) throw new Error(`expected a BedrockRuntimeServiceException, got ${String(err)}`);
      expect(err.name).toBe('ResourceNotFoundException');
      return err.$metadata.httpStatusCode ?? 0;
    },
  },
});
