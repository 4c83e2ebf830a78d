/**
 * A step's scripted reasoning on a Bedrock request where the model does not reason (Claude without
 * `additionalModelRequestFields.thinking` on Converse, without `thinking` on InvokeModel): no
 * reasoning block and output tokens without it, as Bedrock bills none. With thinking on, and for
 * models that always reason (DeepSeek-R1), it counts. Through @aws-sdk/client-bedrock-runtime
 * (Converse, ConverseStream, InvokeModelWithResponseStream's invocation metrics) and
 * @anthropic-ai/bedrock-sdk, over MSW.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelWithResponseStreamCommand,
  type ContentBlock,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';

const credentials = { accessKeyId: 'AKIDGHOSTTEST', secretAccessKey: 'ghost-secret' };
const client = () => new BedrockRuntimeClient({ region: 'us-east-1', credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
const bedrock = () => new AnthropicBedrock({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDGHOSTTEST', awsSecretKey: 'ghost-secret', maxRetries: 0 });
const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const DEEPSEEK = 'us.deepseek.r1-v1:0';
const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';
const thinking = { thinking: { type: 'enabled', budget_tokens: 2048 } };

describe('Bedrock: reasoning tokens on a request that does not reason, over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());

  const plain = () => scenario('plain').respondWithText('Hello there!');
  const reasoned = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');

  /** A Converse answer's content and usage (ConverseStream's blocks and metadata when streaming). */
  async function converse(step: ReturnType<typeof scenario>, modelId: string, fields: Record<string, unknown> | undefined, stream: boolean) {
    mock.reset();
    mock.use(step);
    const input = { modelId, messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }], additionalModelRequestFields: fields as never };
    if (!stream) {
      const res = await client().send(new ConverseCommand(input));
      return { content: res.output!.message!.content!, usage: res.usage! };
    }
    const res = await client().send(new ConverseStreamCommand(input));
    const content: ContentBlock[] = [];
    let usage: TokenUsage | undefined;
    for await (const e of res.stream!) {
      if (e.contentBlockDelta?.delta?.reasoningContent) content.push({ reasoningContent: { reasoningText: { text: '' } } });
      usage = e.metadata?.usage ?? usage;
    }
    return { content, usage: usage! };
  }

  it.each([false, true])('Converse: counts no reasoning for Claude without thinking; counts it with thinking on and for DeepSeek-R1 (stream: %s)', async (stream) => {
    const base = (await converse(plain(), SONNET, undefined, stream)).usage;
    for (const fields of [undefined, { thinking: { type: 'disabled' } }]) {
      const { content, usage } = await converse(reasoned(), SONNET, fields, stream);
      expect(content.some((b) => b.reasoningContent), JSON.stringify(fields)).toBe(false);
      expect(usage).toEqual(base);
      expect(mock.requests[0].reasoning).toEqual({ text: REASONING, redacted: false });
    }
    for (const [model, fields] of [[SONNET, thinking], [DEEPSEEK, undefined]] as const) {
      const { content, usage } = await converse(reasoned(), model, fields, stream);
      expect(content.some((b) => b.reasoningContent), model).toBe(true);
      expect(usage.outputTokens).toBeGreaterThan(base.outputTokens!);
      expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!);
    }
  });

  it("Converse: keeps a step's scripted output tokens for Claude without thinking", async () => {
    const step = scenario('scripted').respondWithReasoning(REASONING).respondWithText('Hi.').withUsage({ inputTokens: 3, outputTokens: 40, reasoningTokens: 32 });
    expect((await converse(step, SONNET, undefined, false)).usage).toEqual({ inputTokens: 3, outputTokens: 40, totalTokens: 43 });
  });

  it('InvokeModel (@anthropic-ai/bedrock-sdk): no thinking block nor thinking tokens without thinking; counted with it, streamed and not', async () => {
    const params = { model: SONNET, max_tokens: 4096, messages: [{ role: 'user' as const, content: 'hi' }] };
    mock.use(plain().times(2), reasoned().times(2));
    const base = await bedrock().messages.create(params);
    const baseStreamed = await bedrock().messages.stream(params).finalMessage();
    expect(baseStreamed.usage.output_tokens).toBe(base.usage.output_tokens);
    const off = await bedrock().messages.create(params);
    const offStreamed = await bedrock().messages.stream(params).finalMessage();
    for (const message of [off, offStreamed]) {
      expect(message.content.map((b) => b.type)).toEqual(['text']);
      expect(message.usage.output_tokens).toBe(base.usage.output_tokens);
      expect(message.usage.output_tokens_details?.thinking_tokens).toBeUndefined();
    }
    mock.use(reasoned());
    const on = await bedrock().messages.stream({ ...params, thinking: { type: 'enabled', budget_tokens: 2048 } }).finalMessage();
    expect(on.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(on.usage.output_tokens).toBe(base.usage.output_tokens + on.usage.output_tokens_details!.thinking_tokens);
  });

  it("InvokeModelWithResponseStream: the invocation metrics' outputTokenCount counts no thinking without thinking on", async () => {
    const metrics = async (step: ReturnType<typeof scenario>, extra: Record<string, unknown>) => {
      mock.reset();
      mock.use(step);
      const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }], ...extra });
      const res = await client().send(new InvokeModelWithResponseStreamCommand({ modelId: SONNET, contentType: 'application/json', body }));
      let last: { outputTokenCount: number } | undefined;
      for await (const e of res.body!) {
        const event = JSON.parse(Buffer.from(e.chunk!.bytes!).toString('utf8'));
        last = event['amazon-bedrock-invocationMetrics'] ?? last;
      }
      return last!.outputTokenCount;
    };
    const base = await metrics(plain(), {});
    expect(await metrics(reasoned(), {})).toBe(base);
    expect(await metrics(reasoned(), thinking)).toBeGreaterThan(base);
  });
});
