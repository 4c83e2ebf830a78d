/**
 * Bedrock answers from per-answer templates (common/answer-templates.ts): event-stream messages read as
 * text and framed again (eventStreamText), InvokeModel's Anthropic bodies and streams byte for byte as
 * rendered, and through @aws-sdk/client-bedrock-runtime (which checks every message's CRCs) answer
 * after answer with fresh ids and request ids.
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelWithResponseStreamCommand,
  type ConverseStreamOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAdapters } from '../registry.ts';
import { ProviderRouter } from '../router.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { templatesMatchRendering } from '../testing/conformance-templates.ts';
import { renderConverseStream } from './converse-render.ts';
import { eventMessage, eventStreamText, exceptionMessage } from './event-stream.ts';
import { bedrockAdapter } from './index.ts';
import { renderInvokeStream } from './invoke.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const HAIKU = 'anthropic.claude-3-haiku-20240307-v1:0';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const response = (over: Partial<CanonicalResponse>): CanonicalResponse => canonicalResponse({ model: HAIKU, ...over });
const request = (path: string, stream: boolean, over: Partial<CanonicalRequest> = {}): CanonicalRequest =>
  canonicalRequest({ provider: 'bedrock', path, model: HAIKU, stream, raw: { messages: [{ role: 'user', content: 'hi' }] }, ...over });

const cases: Array<[string, Partial<CanonicalResponse>]> = [
  ['text', { text: 'Hello there, traveller.' }],
  ['a tool call', { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finishReason: 'tool_calls' }],
  ['a stop sequence', { text: 'one two', finishReason: 'stop_sequence' }],
];

describe('Bedrock event-stream messages as text (eventStreamText)', () => {
  it('reads every message of ConverseStream and InvokeModel streams as text and frames it back byte for byte', () => {
    const res = response({ text: 'Héllo — “there”.', toolCalls: [{ id: 'toolu_bdrk_01abcdefghijklmnopqrstuv', name: 'get_weather', arguments: { city: 'Zürich' } }] });
    const frames = [...renderConverseStream(res, request('/model/m/converse-stream', true)), ...renderInvokeStream(res, request('/model/m/invoke-with-response-stream', true))];
    for (const frame of frames) {
      const text = eventStreamText.text(frame);
      expect(text).not.toBeNull();
      expect(Buffer.from(eventStreamText.frame(text!)).equals(frame)).toBe(true);
    }
    // A chunk reads as the Anthropic event inside its base64 bytes: the ids are there to cut.
    const chunk = eventStreamText.text(renderInvokeStream(res, request('/model/m/invoke-with-response-stream', true))[0])!;
    expect(chunk.startsWith('chunk\n{"type":"message_start"')).toBe(true);
    expect(chunk).toContain('"id":"msg_bdrk_abc123"');
    expect(eventStreamText.text(eventMessage('messageStop', { stopReason: 'end_turn' }))).toBe('messageStop\n{"stopReason":"end_turn"}');
  });

  it('reads neither exception messages nor bytes that are not a message', () => {
    expect(eventStreamText.text(exceptionMessage('throttlingException', { message: 'slow down' }))).toBeNull();
    const frame = Buffer.from(eventMessage('messageStop', { stopReason: 'end_turn' }));
    frame[frame.length - 1] ^= 0xff;
    expect(eventStreamText.text(frame)).toBeNull();
  });
});

describe('Bedrock InvokeModel answers from templates', () => {
  // The shared case (as every adapter's conformance runs it for Converse), for InvokeModel's paths.
  const adapter = bedrockAdapter();
  templatesMatchRendering(adapter, cases, response, (stream) => request(`/model/${HAIKU}/${stream ? 'invoke-with-response-stream' : 'invoke'}`, stream, { params: { stop_sequences: ['END'] } }));

  it('keys Converse reasoning on its seal when signed, shares unsigned reasoning, and renders redacted reasoning each time', () => {
    const [a, b] = [adapter.createState!(), adapter.createState!()];
    const thinking = { messages: [{ role: 'user', content: [{ text: 'hi' }] }], additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } } };
    const converse = request(`/model/${HAIKU}/converse`, false, { raw: thinking });
    const reasoning = response({ text: 'Done.', reasoning: { text: 'Think.', redacted: false } });
    expect(adapter.templateKey!(reasoning, converse, a)).not.toBe(adapter.templateKey!(reasoning, converse, b));
    // DeepSeek-R1's reasoning carries no signature: one template for every mock.
    const r1 = { ...converse, model: 'us.deepseek.r1-v1:0' };
    expect(adapter.templateKey!(reasoning, r1, a)).toBe(adapter.templateKey!(reasoning, r1, b));
    expect(adapter.templateKey!({ ...reasoning, reasoning: { text: 'secret', redacted: true } }, converse, a)).toBeUndefined();
    // InvokeModel keys as Anthropic's Messages API does (thinking is in the body's own `thinking`).
    const invoke = request(`/model/${HAIKU}/invoke`, false, { params: { thinking: { type: 'enabled', budget_tokens: 2048 } } });
    expect(adapter.templateKey!(reasoning, invoke, a)).not.toBe(adapter.templateKey!(reasoning, invoke, b));
  });
});

describe('Bedrock answers from templates through @aws-sdk/client-bedrock-runtime', () => {
  const router = new ProviderRouter(defaultAdapters());
  const mock = createMockLLM({ router });
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDGHOSTTEST', secretAccessKey: 'ghost-secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
  const toolConfig = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] };

  it('streams ConverseStream tool calls answer after answer, each with its own toolUseId and request id, CRCs the SDK accepts', async () => {
    mock.use({ name: 't', steps: [{ respond: { text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], stream: { chunkSize: 3 } }, consume: false }] });
    const before = router.templates.hits;
    const toolIds = new Set<string>();
    const requestIds = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const out = await client.send(new ConverseStreamCommand({ modelId: HAIKU, messages: [{ role: 'user', content: [{ text: 'weather?' }] }], toolConfig }));
      const events: ConverseStreamOutput[] = [];
      for await (const e of out.stream!) events.push(e);
      const start = events.find((e) => e.contentBlockStart)!.contentBlockStart!.start!.toolUse!;
      expect(start.name).toBe('get_weather');
      expect(start.toolUseId).toMatch(/^tooluse_[A-Za-z0-9_-]{22}$/);
      expect(events.map((e) => e.contentBlockDelta?.delta?.text ?? '').join('')).toBe('Checking.');
      expect(events.map((e) => e.contentBlockDelta?.delta?.toolUse?.input ?? '').join('')).toBe('{"city":"Paris"}');
      expect(events.at(-1)!.metadata!.usage).toBeDefined();
      expect(out.$metadata.requestId).toMatch(UUID);
      toolIds.add(start.toolUseId!);
      requestIds.add(out.$metadata.requestId!);
    }
    expect([toolIds.size, requestIds.size]).toEqual([5, 5]);
    expect(router.templates.hits - before).toBe(3);
  });

  it('answers Converse and InvokeModelWithResponseStream from templates with fresh message ids', async () => {
    mock.use({ name: 'x', steps: [{ respond: { text: 'Hello from Claude.', stream: { chunkSize: 5 } }, consume: false }] });
    const before = router.templates.hits;
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const messageIds = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const converse = await client.send(new ConverseCommand({ modelId: HAIKU, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
      expect(converse.output!.message!.content).toEqual([{ text: 'Hello from Claude.' }]);
      expect(converse.$metadata.requestId).toMatch(UUID);
      const streamed = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: HAIKU, body, contentType: 'application/json' }));
      const events: any[] = [];
      for await (const part of streamed.body!) events.push(JSON.parse(new TextDecoder().decode(part.chunk!.bytes)));
      expect(events.filter((e) => e.type === 'content_block_delta').map((e) => e.delta.text).join('')).toBe('Hello from Claude.');
      expect(events.at(-1)).toMatchObject({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { outputTokenCount: expect.any(Number) } });
      messageIds.add(events[0].message.id);
    }
    expect([...messageIds].every((id) => /^msg_bdrk_01[A-Za-z0-9]{22}$/.test(id))).toBe(true);
    expect(messageIds.size).toBe(4);
    // Each of the two contents: the third and fourth answers from its template.
    expect(router.templates.hits - before).toBe(4);
  });
});
