/**
 * Claude's reasoning tool loops on Amazon Bedrock as users write them with the official SDKs: Converse
 * and ConverseStream, InvokeModel and InvokeModelWithResponseStream (Anthropic bodies) through
 * `@aws-sdk/client-bedrock-runtime`, and the Mantle endpoint through `@anthropic-ai/bedrock-sdk`. Two
 * loops in one conversation (Paris, then Lyon), each able to pass its minted value (a thinking
 * signature, or the redacted content) back kept, altered, swapped for another recording's, or
 * altered only once its loop is over (where the live API no longer checks it). Shared by the goldens'
 * Bedrock strict replay tests.
 */
import { AnthropicBedrockMantle } from '@anthropic-ai/bedrock-sdk';
import type Anthropic from '@anthropic-ai/sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  type ContentBlock,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { expect } from 'vitest';
import type { ScenarioInput } from '../../scenario/schema.ts';

/** How the code passes the first loop's minted value back: as served, altered, another recording's, left out, or altered once that loop is closed. */
export type Tamper = { kind: 'keep' } | { kind: 'alter' } | { kind: 'swap'; value: string } | { kind: 'drop' } | { kind: 'stale' };

/** Two reasoning tool loops; `redacted` serves the reasoning redacted (Converse's `redactedContent`, Anthropic's `redacted_thinking`). */
export const bedrockLoop = (redacted = false): ScenarioInput => {
  const reasoning = (text: string) => (redacted ? { text, redacted: true } : text);
  return {
    name: 'bedrock-think-loop',
    steps: [
      { respond: { reasoning: reasoning('The user wants the weather: call get_weather.'), toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
      { respond: { text: 'Sunny in Paris.' } },
      { respond: { reasoning: reasoning('Again the weather: call get_weather for Lyon.'), toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] } },
      { respond: { text: 'Rainy in Lyon.' } },
    ],
  };
};

/** The value with one character changed (still base64): what a careless copy or a hand edit does. */
export const altered = (value: string): string => `${value[0] === 'A' ? 'B' : 'A'}${value.slice(1)}`;

/** One API's messages: send a conversation, read and replace the minted value of an assistant turn. */
interface Wire<M> {
  send(messages: M[], base?: string): Promise<M>;
  user(text: string): M;
  /** The user turn answering the assistant turn's tool uses. */
  results(assistant: M): M;
  minted(assistant: M): string;
  withMinted(assistant: M, value: string): M;
  /** The assistant turn with its reasoning block's signature left out. */
  withoutSignature(assistant: M): M;
  text(assistant: M): string;
  /** The SDK's error as [status, message the API sent]. */
  failure(error: unknown): [number, string];
}

/** A user's reasoning tool loops against one API: `base` points the client at a server (else the API's host). */
export interface Loop {
  agent(tamper: Tamper, base?: string): Promise<{ answer: string; minted: string[] }>;
  failure(error: unknown): [number, string];
}

function loopOf<M>(wire: Wire<M>): Loop {
  return {
    failure: wire.failure,
    async agent(tamper, base) {
      const messages = [wire.user('Weather in Paris?')];
      const first = await wire.send(messages, base);
      const minted = [wire.minted(first)];
      const passed =
        tamper.kind === 'alter' ? wire.withMinted(first, altered(minted[0]))
        : tamper.kind === 'swap' ? wire.withMinted(first, tamper.value)
        : tamper.kind === 'drop' ? wire.withoutSignature(first)
        : first;
      messages.push(passed, wire.results(first));
      const paris = await wire.send(messages, base);
      messages.push(paris, wire.user('And in Lyon?'));
      // The Paris loop is over: the API checks only the loop the conversation ends in.
      if (tamper.kind === 'stale') messages[1] = wire.withMinted(first, altered(minted[0]));
      const third = await wire.send(messages, base);
      minted.push(wire.minted(third));
      messages.push(third, wire.results(third));
      const lyon = await wire.send(messages, base);
      return { answer: `${wire.text(paris)} ${wire.text(lyon)}`, minted };
    },
  };
}

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const credentials = { accessKeyId: 'AKIDSTRICTREPLAY', secretAccessKey: 'strict-replay-secret' };
// HTTP/1.1: the goldens' interceptor (MSW) sees node:http, not the SDK's default HTTP/2 for streams.
const runtime = (base?: string) => new BedrockRuntimeClient({ region: 'us-east-1', credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1, ...(base ? { endpoint: base } : {}) });
const schema = { type: 'object' as const, properties: { city: { type: 'string' } } };

/** The AWS SDK's exception as [status, message]: Bedrock's ValidationException. */
function awsFailure(error: unknown): [number, string] {
  expect(error).toMatchObject({ name: 'ValidationException', $fault: 'client' });
  const e = error as Error & { $metadata: { httpStatusCode: number } };
  return [e.$metadata.httpStatusCode, e.message];
}

/** Anthropic's error shape, as the SDK keeps it. */
function anthropicFailure(error: unknown): [number, string] {
  expect(error).toMatchObject({ status: expect.any(Number), error: { type: 'error', error: { type: 'invalid_request_error' } } });
  const e = error as { status: number; error: { error: { message: string } } };
  return [e.status, e.error.error.message];
}

/** Converse's messages (shared by Converse and ConverseStream); the minted value is the reasoning block's signature or redacted bytes. */
const converseMessages = (send: (messages: Message[], base?: string) => Promise<Message>): Wire<Message> => ({
  send,
  user: (text) => ({ role: 'user', content: [{ text }] }),
  results: (a) => ({ role: 'user', content: a.content!.filter((b) => b.toolUse).map((b) => ({ toolResult: { toolUseId: b.toolUse!.toolUseId!, content: [{ text: '21C' }] } })) }),
  minted(a) {
    const reasoning = a.content![0].reasoningContent!;
    return reasoning.redactedContent ? Buffer.from(reasoning.redactedContent).toString('base64') : reasoning.reasoningText!.signature!;
  },
  withMinted(a, value) {
    const [block, ...rest] = a.content!;
    const reasoning = block.reasoningContent!;
    const replaced: ContentBlock = reasoning.redactedContent
      ? { reasoningContent: { redactedContent: new Uint8Array(Buffer.from(value, 'base64')) } }
      : { reasoningContent: { reasoningText: { ...reasoning.reasoningText!, signature: value } } };
    return { ...a, content: [replaced, ...rest] };
  },
  withoutSignature(a) {
    const [block, ...rest] = a.content!;
    const { signature: _dropped, ...text } = block.reasoningContent!.reasoningText!;
    return { ...a, content: [{ reasoningContent: { reasoningText: text } } as ContentBlock, ...rest] };
  },
  text: (a) => a.content!.flatMap((b) => (b.text === undefined ? [] : [b.text])).join(''),
  failure: awsFailure,
});

const converseRequest = (messages: Message[]) => ({
  modelId: MODEL,
  messages,
  toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: schema } } }] },
  additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
});

/** ConverseStream's events assembled into the message, as a user's loop does. */
async function converseStream(messages: Message[], base?: string): Promise<Message> {
  const out = await runtime(base).send(new ConverseStreamCommand(converseRequest(messages)));
  const blocks = new Map<number, { text?: string; signature?: string; redacted?: Uint8Array[]; reasoning?: string; toolUse?: { toolUseId: string; name: string; input: string } }>();
  const at = (i: number) => blocks.get(i) ?? (blocks.set(i, {}), blocks.get(i)!);
  for await (const e of out.stream!) {
    if (e.contentBlockStart?.start?.toolUse) {
      const { toolUseId, name } = e.contentBlockStart.start.toolUse;
      at(e.contentBlockStart.contentBlockIndex!).toolUse = { toolUseId: toolUseId!, name: name!, input: '' };
    }
    const delta = e.contentBlockDelta?.delta;
    if (!delta) continue;
    const block = at(e.contentBlockDelta!.contentBlockIndex!);
    if (delta.text !== undefined) block.text = (block.text ?? '') + delta.text;
    if (delta.toolUse?.input !== undefined) block.toolUse!.input += delta.toolUse.input;
    if (delta.reasoningContent?.text !== undefined) block.reasoning = (block.reasoning ?? '') + delta.reasoningContent.text;
    if (delta.reasoningContent?.signature !== undefined) block.signature = delta.reasoningContent.signature;
    if (delta.reasoningContent?.redactedContent !== undefined) (block.redacted ??= []).push(delta.reasoningContent.redactedContent);
  }
  const content = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, b]): ContentBlock => {
      if (b.redacted) return { reasoningContent: { redactedContent: new Uint8Array(Buffer.concat(b.redacted)) } };
      if (b.reasoning !== undefined) return { reasoningContent: { reasoningText: { text: b.reasoning, signature: b.signature } } };
      if (b.toolUse) return { toolUse: { ...b.toolUse, input: JSON.parse(b.toolUse.input || '{}') } };
      return { text: b.text ?? '' };
    });
  return { role: 'assistant', content };
}

/** Anthropic's messages (InvokeModel's bodies, Mantle's API); the minted value is the thinking block's signature, or the redacted block's data. */
const anthropicMessages = (send: (messages: Anthropic.MessageParam[], base?: string) => Promise<Anthropic.MessageParam>, failure: Wire<unknown>['failure']): Wire<Anthropic.MessageParam> => {
  const blocks = (m: Anthropic.MessageParam) => m.content as Anthropic.ContentBlockParam[];
  const reasoning = (m: Anthropic.MessageParam) => blocks(m).find((b) => b.type === 'thinking' || b.type === 'redacted_thinking') as Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam;
  return {
    send,
    failure,
    user: (text) => ({ role: 'user', content: text }),
    results: (a) => ({ role: 'user', content: blocks(a).flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: '21C' }] : [])) }),
    minted: (a) => {
      const block = reasoning(a);
      return block.type === 'thinking' ? block.signature : block.data;
    },
    withMinted: (a, value) =>
      ({ ...a, content: blocks(a).map((b) => (b.type === 'thinking' ? { ...b, signature: value } : b.type === 'redacted_thinking' ? { ...b, data: value } : b)) }) as Anthropic.MessageParam,
    withoutSignature: (a) =>
      ({ ...a, content: blocks(a).map((b) => (b.type === 'thinking' ? (({ signature: _dropped, ...rest }) => rest)(b) : b)) }) as Anthropic.MessageParam,
    text: (a) => blocks(a).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
  };
};

const anthropicBody = (messages: Anthropic.MessageParam[]) => ({
  anthropic_version: 'bedrock-2023-05-31',
  max_tokens: 4096,
  thinking: { type: 'enabled', budget_tokens: 1024 },
  tools: [{ name: 'get_weather', input_schema: schema }],
  messages,
});

/** InvokeModelWithResponseStream's Anthropic events (base64 in `chunk`s) assembled into the message. */
async function invokeStream(messages: Anthropic.MessageParam[], base?: string): Promise<Anthropic.MessageParam> {
  const out = await runtime(base).send(new InvokeModelWithResponseStreamCommand({ modelId: MODEL, contentType: 'application/json', body: JSON.stringify(anthropicBody(messages)) }));
  const content: Array<Record<string, any>> = [];
  const inputs = new Map<number, string>();
  for await (const e of out.body!) {
    if (!e.chunk?.bytes) continue;
    const event = JSON.parse(new TextDecoder().decode(e.chunk.bytes)) as Record<string, any>;
    if (event.type === 'content_block_start') content[event.index] = { ...event.content_block };
    if (event.type !== 'content_block_delta') continue;
    const block = content[event.index];
    const d = event.delta;
    if (d.type === 'thinking_delta') block.thinking += d.thinking;
    if (d.type === 'signature_delta') block.signature += d.signature;
    if (d.type === 'text_delta') block.text += d.text;
    if (d.type === 'input_json_delta') inputs.set(event.index, (inputs.get(event.index) ?? '') + d.partial_json);
  }
  inputs.forEach((json, i) => (content[i].input = JSON.parse(json || '{}')));
  return { role: 'assistant', content: content as Anthropic.ContentBlockParam[] };
}

const mantle = (base?: string) =>
  new AnthropicBedrockMantle({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDSTRICTREPLAY', awsSecretAccessKey: 'strict-replay-secret', maxRetries: 0, ...(base ? { baseURL: `${base}/anthropic` } : {}) });

export const BEDROCK_LOOPS: Record<'converse' | 'converse-stream' | 'invoke' | 'invoke-stream' | 'mantle', Loop> = {
  converse: loopOf(
    converseMessages(async (messages, base) => (await runtime(base).send(new ConverseCommand(converseRequest(messages)))).output!.message!),
  ),
  'converse-stream': loopOf(converseMessages(converseStream)),
  invoke: loopOf(
    anthropicMessages(async (messages, base) => {
      const out = await runtime(base).send(new InvokeModelCommand({ modelId: MODEL, contentType: 'application/json', accept: 'application/json', body: JSON.stringify(anthropicBody(messages)) }));
      return { role: 'assistant', content: (JSON.parse(new TextDecoder().decode(out.body)) as Anthropic.Message).content };
    }, awsFailure),
  ),
  'invoke-stream': loopOf(anthropicMessages(invokeStream, awsFailure)),
  mantle: loopOf(
    anthropicMessages(async (messages, base) => {
      const body = anthropicBody(messages);
      const message = await mantle(base)
        .messages.stream({ model: 'anthropic.claude-sonnet-4-5-20250929-v1:0', max_tokens: body.max_tokens, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: body.tools, messages })
        .finalMessage();
      return { role: 'assistant', content: message.content };
    }, anthropicFailure),
  ),
};

