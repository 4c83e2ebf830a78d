/**
 * Reasoning and structured outputs on Bedrock as users call it: Converse and ConverseStream through
 * @aws-sdk/client-bedrock-runtime (`reasoningContent` when `additionalModelRequestFields.thinking` is on,
 * `outputConfig.textFormat`, `toolChoice.tool`), and Claude's thinking through InvokeModel with
 * @anthropic-ai/bedrock-sdk; tool loops passing reasoning back intact (accepted) or not (refused).
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import type Anthropic from '@anthropic-ai/sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  ValidationException,
  type ContentBlock,
  type Message,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { FetchHttpHandler } from '@smithy/fetch-http-handler';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import { bedrockReader } from './reader.ts';

const credentials = { accessKeyId: 'AKIDGHOSTTEST', secretAccessKey: 'ghost-secret' };
const client = () => new BedrockRuntimeClient({ region: 'us-east-1', credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const ask: Message = { role: 'user', content: [{ text: 'Weather in Paris?' }] };
const toolConfig = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } }] as Tool[] };
const thinking = { thinking: { type: 'enabled', budget_tokens: 2048 } };
const resultFor = (content: ContentBlock[]): Message => ({
  role: 'user',
  content: content.filter((b) => b.toolUse).map((b) => ({ toolResult: { toolUseId: b.toolUse!.toolUseId!, content: [{ text: '21C' }] } })),
});
const loop = (reasoning: string | { text: string; redacted: boolean } = 'Paris weather: call the tool.') => ({
  name: 'loop',
  steps: [{ respond: { reasoning, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } }, { respond: { text: 'It is 21C.' } }],
});
const failure = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as Error);

describe('Bedrock Converse reasoning through @aws-sdk/client-bedrock-runtime over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());

  it("opens Claude's answer with signed reasoningContent when thinking is on; the loop passing it back is accepted", async () => {
    mock.use(loop());
    const first = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig, additionalModelRequestFields: thinking }));
    const content = first.output!.message!.content!;
    expect(content[0].reasoningContent?.reasoningText).toEqual({ text: 'Paris weather: call the tool.', signature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
    expect(content[1].toolUse).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const second = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask, first.output!.message!, resultFor(content)], toolConfig, additionalModelRequestFields: thinking }));
    expect(second.output!.message!.content).toEqual([{ text: 'It is 21C.' }]);
    expect(bedrockReader.answer({ output: first.output, stopReason: first.stopReason, usage: first.usage })).toMatchObject({ reasoning: 'Paris weather: call the tool.' });
  });

  it('streams reasoningContent text deltas then its signature; the message rebuilt from them is accepted', async () => {
    mock.use({ ...loop(), steps: [{ respond: { ...loop().steps[0].respond, stream: { chunkSize: 6 } } }, loop().steps[1]] });
    const stream = await client().send(new ConverseStreamCommand({ modelId: SONNET, messages: [ask], toolConfig, additionalModelRequestFields: thinking }));
    let text = '';
    let signature = '';
    const deltas: number[] = [];
    let use = { toolUseId: '', name: '', input: '' };
    for await (const e of stream.stream!) {
      const reasoning = e.contentBlockDelta?.delta?.reasoningContent;
      if (reasoning?.text !== undefined) {
        text += reasoning.text;
        deltas.push(e.contentBlockDelta!.contentBlockIndex!);
      }
      if (reasoning?.signature !== undefined) signature = reasoning.signature;
      if (e.contentBlockStart?.start?.toolUse) use = { ...use, toolUseId: e.contentBlockStart.start.toolUse.toolUseId!, name: e.contentBlockStart.start.toolUse.name! };
      if (e.contentBlockDelta?.delta?.toolUse) use.input += e.contentBlockDelta.delta.toolUse.input;
    }
    expect(text).toBe('Paris weather: call the tool.');
    expect(new Set(deltas)).toEqual(new Set([0]));
    expect(deltas.length).toBeGreaterThan(1);
    const rebuilt: Message = {
      role: 'assistant',
      content: [{ reasoningContent: { reasoningText: { text, signature } } }, { toolUse: { toolUseId: use.toolUseId, name: use.name, input: JSON.parse(use.input) } }],
    };
    const second = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask, rebuilt, resultFor(rebuilt.content!)], toolConfig, additionalModelRequestFields: thinking }));
    expect(second.output!.message!.content![0].text).toBe('It is 21C.');
  });

  it('renders no reasoning for Claude without thinking; other reasoning models reason unasked, unsigned', async () => {
    mock.use({ name: 'r', steps: [{ respond: { reasoning: 'hmm', text: 'ok' }, consume: false }] });
    const plain = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask] }));
    expect(plain.output!.message!.content).toEqual([{ text: 'ok' }]);
    const r1 = await client().send(new ConverseCommand({ modelId: 'us.deepseek.r1-v1:0', messages: [ask] }));
    expect(r1.output!.message!.content).toEqual([{ reasoningContent: { reasoningText: { text: 'hmm' } } }, { text: 'ok' }]);
  });

  it('hands redacted reasoning over as redactedContent bytes that round-trip', async () => {
    mock.use(loop({ text: 'secret chain of thought', redacted: true }));
    const first = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig, additionalModelRequestFields: thinking }));
    const redacted = first.output!.message!.content![0].reasoningContent?.redactedContent;
    expect(redacted).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(redacted!).toString('latin1')).not.toContain('secret');
    const second = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask, first.output!.message!, resultFor(first.output!.message!.content!)], toolConfig, additionalModelRequestFields: thinking }));
    expect(second.output!.message!.content![0].text).toBe('It is 21C.');
  });

  it("refuses altered redactedContent with Claude's redacted_thinking error; intact or without thinking it is accepted", async () => {
    mock.use({ ...loop({ text: 'secret chain of thought', redacted: true }), steps: [...loop({ text: 'secret chain of thought', redacted: true }).steps, loop().steps[1]] });
    const first = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig, additionalModelRequestFields: thinking }));
    const content = first.output!.message!.content!;
    const bytes = content[0].reasoningContent!.redactedContent!;
    const tampered = new Uint8Array(bytes);
    tampered[tampered.length - 1] ^= 1;
    const withRedacted = (redactedContent: Uint8Array, fields: Record<string, unknown> = { additionalModelRequestFields: thinking }) =>
      client().send(new ConverseCommand({ modelId: SONNET, messages: [ask, { role: 'assistant', content: [{ reasoningContent: { redactedContent } }, content[1]] }, resultFor(content)], toolConfig, ...fields }));
    const refused = await failure(withRedacted(tampered));
    expect(refused).toBeInstanceOf(ValidationException);
    expect(refused!.message).toBe('The model returned the following errors: messages.1.content.0: Invalid `data` in `redacted_thinking` block');
    expect(mock.requests.at(-1)?.violation?.rule).toBe('bedrock.redacted-thinking-data');
    // Without thinking Claude checks no reasoning: the same altered bytes pass.
    expect((await withRedacted(tampered, {})).output!.message!.content![0].text).toBe('It is 21C.');
    expect((await withRedacted(bytes)).output!.message!.content![0].text).toBe('It is 21C.');
  });

  it("refuses a Claude loop that dropped or altered its reasoning with the model's 400, as a ValidationException", async () => {
    mock.use(loop());
    const first = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig, additionalModelRequestFields: thinking }));
    const content = first.output!.message!.content!;
    const send = (assistant: ContentBlock[]) =>
      failure(client().send(new ConverseCommand({ modelId: SONNET, messages: [ask, { role: 'assistant', content: assistant }, resultFor(content)], toolConfig, additionalModelRequestFields: thinking })));
    const dropped = await send(content.slice(1));
    expect(dropped).toBeInstanceOf(ValidationException);
    expect(dropped!.message).toMatch(/^The model returned the following errors: messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\./);
    const edited = await send([{ reasoningContent: { reasoningText: { text: 'something else', signature: content[0].reasoningContent!.reasoningText!.signature } } }, content[1]]);
    expect(edited!.message).toBe('The model returned the following errors: messages.1.content.0: Invalid `signature` in `thinking` block');
    expect(mock.requests.map((r) => r.violation?.rule ?? null)).toEqual([null, 'bedrock.thinking-block-first', 'bedrock.thinking-signature']);
    // Without thinking the same dropped loop is accepted: the rule is thinking's.
    const off = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask, { role: 'assistant', content: content.slice(1) }, resultFor(content)], toolConfig }));
    expect(off.output!.message!.content![0].text).toBe('It is 21C.');
  });

  it('refuses a toolUse the next message does not answer, and more toolResults than the previous turn made', async () => {
    mock.use({ name: 'any', steps: [{ respond: { text: 'ok' }, consume: false }] });
    const use: ContentBlock = { toolUse: { toolUseId: 'tooluse_hbTgdi0CSLq_hM4P8csZJA', name: 'get_weather', input: { city: 'Paris' } } };
    const unanswered = await failure(client().send(new ConverseCommand({ modelId: 'amazon.nova-pro-v1:0', toolConfig, messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: [{ text: 'skip it' }] }] })));
    expect(unanswered).toBeInstanceOf(ValidationException);
    expect(unanswered!.message).toBe('Expected toolResult blocks at messages.2.content for the following Ids: tooluse_hbTgdi0CSLq_hM4P8csZJA');
    const extra = (id: string): ContentBlock => ({ toolResult: { toolUseId: id, content: [{ text: 'x' }] } });
    const tooMany = await failure(
      client().send(new ConverseCommand({ modelId: 'amazon.nova-pro-v1:0', toolConfig, messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: [extra(use.toolUse!.toolUseId!), extra('tooluse_other')] }] })),
    );
    expect(tooMany!.message).toBe('The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.');
    const answered = await client().send(new ConverseCommand({ modelId: 'amazon.nova-pro-v1:0', toolConfig, messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: [extra(use.toolUse!.toolUseId!)] }] }));
    expect(answered.output!.message!.content![0].text).toBe('ok');
  });
});

describe('Bedrock Converse structured outputs over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());
  const schema = { type: 'object', properties: { city: { type: 'string' }, temperature: { type: 'number' } }, required: ['city', 'temperature'], additionalProperties: false };
  const outputConfig = { textFormat: { type: 'json_schema' as const, structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'weather' } } } };

  it('answers outputConfig.textFormat with the scripted object as the text, matched by the schema name', async () => {
    mock.use({ name: 'w', steps: [{ match: { responseFormat: 'weather' }, respond: { json: { city: 'Paris', temperature: 21 } } }] });
    const res = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], outputConfig }));
    expect(JSON.parse(res.output!.message!.content![0].text!)).toEqual({ city: 'Paris', temperature: 21 });
    expect(mock.requests[0].request?.responseFormat).toEqual({ name: 'weather', schema });
  });

  it('reports a mismatch as a scenario error, and generates from the schema for $generate (streamed)', async () => {
    mock.use({ name: 'w', steps: [{ respond: { json: { city: 'Paris' } } }, { respond: { json: { $generate: true } } }] });
    const bad = await failure(client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], outputConfig })));
    expect(bad).toBeInstanceOf(ValidationException);
    expect(bad!.message).toContain('w#0: respond.json.temperature: is required by the schema');
    const stream = await client().send(new ConverseStreamCommand({ modelId: SONNET, messages: [ask], outputConfig }));
    let text = '';
    for await (const e of stream.stream!) text += e.contentBlockDelta?.delta?.text ?? '';
    const value = JSON.parse(text);
    expect(Object.keys(value).sort()).toEqual(['city', 'temperature']);
    expect(typeof value.temperature).toBe('number');
  });

  it('checks scripted calls of strict toolSpecs against their inputSchema', async () => {
    mock.use({ name: 'strict', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { town: 'Paris' } }] }, consume: false }] });
    const spec = (strict: boolean) => ({
      tools: [{ toolSpec: { name: 'get_weather', strict, inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } } }] as Tool[],
    });
    const bad = await failure(client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig: spec(true) })));
    expect(bad!.message).toContain('strict#0: respond.toolCalls[0].arguments.city: is required by the schema');
    const loose = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig: spec(false) }));
    expect(loose.output!.message!.content![0].toolUse?.input).toEqual({ town: 'Paris' });
  });

  it('stops a refusal as content_filtered, Converse having no refusal field, streamed too', async () => {
    mock.use({ name: 'no', steps: [{ respond: { refusal: 'I can not help with that.' }, consume: false }] });
    const res = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], outputConfig }));
    expect(res.stopReason).toBe('content_filtered');
    const stream = await client().send(new ConverseStreamCommand({ modelId: SONNET, messages: [ask] }));
    let stop: string | undefined;
    for await (const e of stream.stream!) stop = e.messageStop?.stopReason ?? stop;
    expect(stop).toBe('content_filtered');
  });

  it('answers a forced tool (toolChoice.tool) with the object as its toolUse input', async () => {
    mock.use({ name: 'f', steps: [{ respond: { json: { city: 'Rome' } } }] });
    const forced = { tools: toolConfig.tools, toolChoice: { tool: { name: 'get_weather' } } };
    const res = await client().send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig: forced }));
    expect(res.output!.message!.content![0].toolUse).toMatchObject({ name: 'get_weather', input: { city: 'Rome' } });
    expect(res.stopReason).toBe('tool_use');
  });
});

describe('Claude thinking through InvokeModel with @anthropic-ai/bedrock-sdk over MSW', () => {
  const mock = createMockLLM();
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());
  beforeEach(() => mock.reset());
  const bedrock = () => new AnthropicBedrock({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDGHOSTTEST', awsSecretKey: 'ghost-secret', maxRetries: 0 });
  const weather: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
  const user: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };

  it('streams a signed thinking block; passing it back is accepted, dropping it is refused with the API message', async () => {
    mock.use(loop());
    const params = { model: SONNET, max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 2048 }, tools: [weather] };
    const first = await bedrock().messages.stream({ ...params, messages: [user] }).finalMessage();
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: 'Paris weather: call the tool.', signature: expect.any(String) });
    expect(first.usage.output_tokens_details?.thinking_tokens).toBeGreaterThan(0);
    const use = first.content.find((b) => b.type === 'tool_use')!;
    const result: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21C' }] };
    const dropped = await failure(bedrock().messages.create({ ...params, messages: [user, { role: 'assistant', content: [use] }, result] }));
    expect((dropped as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    expect(dropped!.message).toContain('messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`');
    const second = await bedrock().messages.create({ ...params, messages: [user, { role: 'assistant', content: first.content }, result] });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'It is 21C.' });
  });
});

describe('Bedrock reasoning on the real port', () => {
  it('serves a Converse thinking loop through the fetch handler', async () => {
    const server = await startMockLLMServer({ scenarios: [loop()] });
    try {
      const c = new BedrockRuntimeClient({ region: 'us-west-2', credentials, endpoint: server.url, requestHandler: new FetchHttpHandler(), maxAttempts: 1 });
      const first = await c.send(new ConverseCommand({ modelId: SONNET, messages: [ask], toolConfig, additionalModelRequestFields: thinking }));
      expect(first.output!.message!.content![0].reasoningContent?.reasoningText?.text).toBe('Paris weather: call the tool.');
      const second = await c.send(new ConverseCommand({ modelId: SONNET, messages: [ask, first.output!.message!, resultFor(first.output!.message!.content!)], toolConfig, additionalModelRequestFields: thinking }));
      expect(second.output!.message!.content![0].text).toBe('It is 21C.');
    } finally {
      await server.close();
    }
  });
});
