/**
 * Extended thinking through @anthropic-ai/sdk as users call it: `messages.create` and `messages.stream`
 * with `thinking` on, tool loops that pass the thinking back (accepted) or drop, reorder or alter it
 * (refused with the API's own 400), redacted thinking, interleaved thinking, and the tool pairing rules.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { anthropicReader } from './reader.ts';

function setup(scenarios: ScenarioInput[], options: { protocolRules?: boolean; headers?: Record<string, string> } = {}) {
  const mock = createMockLLM({ scenarios, ...(options.protocolRules === false ? { protocolRules: false } : {}) });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new Anthropic({ apiKey: 'sk-ant-test', fetch, maxRetries: 0, defaultHeaders: options.headers });
  return { mock, client, exchanges };
}

const MODEL = 'claude-sonnet-4-6';
const THINKING = { type: 'enabled', budget_tokens: 2048 } as const;
const weather: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };

/** A thinking tool loop: reasoning + a call, then (after the result) an answer. */
const loop = (reasoning: ScenarioInput['steps'][number]['respond']['reasoning'] = 'The user wants Paris weather; call the tool.'): ScenarioInput => ({
  name: 'loop',
  steps: [
    { respond: { reasoning, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
    { respond: { text: 'It is 21C in Paris.' } },
  ],
});

const resultFor = (message: Anthropic.Message): Anthropic.MessageParam => {
  const use = message.content.find((b) => b.type === 'tool_use')!;
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21C' }] };
};

async function status(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
    return { status: 200, message: '' };
  } catch (err) {
    const e = err as InstanceType<typeof Anthropic.APIError>;
    return { status: e.status ?? 0, message: (e.error as any)?.error?.message ?? '' };
  }
}

describe('Anthropic extended thinking: answers', () => {
  it('opens the message with a signed thinking block when thinking is on, and the loop passing it back is accepted', async () => {
    const { mock, client } = setup([loop()]);
    const first = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    const thinking = first.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.thinking).toBe('The user wants Paris weather; call the tool.');
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(first.stop_reason).toBe('tool_use');
    // Thinking is counted inside output_tokens, and broken out in output_tokens_details.
    expect(first.usage.output_tokens_details?.thinking_tokens).toBeGreaterThan(0);
    expect(first.usage.output_tokens).toBeGreaterThan(first.usage.output_tokens_details!.thinking_tokens);
    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 4096,
      thinking: THINKING,
      tools: [weather],
      messages: [ask, { role: 'assistant', content: first.content }, resultFor(first)],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'It is 21C in Paris.', citations: null }]);
    expect(mock.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(mock.requests[0].reasoning).toEqual({ text: 'The user wants Paris weather; call the tool.', redacted: false });
  });

  it('streams thinking_delta events and a signature_delta before content_block_stop, as MessageStream accumulates them', async () => {
    const { client, exchanges } = setup([{ name: 's', steps: [{ respond: { reasoning: 'Think step by step about it.', text: 'Done.', stream: { chunkSize: 6 } } }] }]);
    const stream = client.messages.stream({ model: MODEL, max_tokens: 4096, thinking: { type: 'adaptive' }, messages: [ask] });
    const deltas: string[] = [];
    let signature = '';
    stream.on('thinking', (delta) => deltas.push(delta));
    stream.on('signature', (s) => (signature = s));
    const final = await stream.finalMessage();
    expect(deltas.join('')).toBe('Think step by step about it.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(final.content[0]).toEqual({ type: 'thinking', thinking: 'Think step by step about it.', signature });
    expect(final.content[1]).toMatchObject({ type: 'text', text: 'Done.' });
    const events = (await exchanges[0].body).split('\n\n').filter(Boolean).map((f) => JSON.parse(f.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
    const types = events.map((e) => (e.type === 'content_block_delta' ? e.delta.type : e.type));
    expect(types.slice(0, 4)).toEqual(['message_start', 'ping', 'content_block_start', 'thinking_delta']);
    expect(events[2].content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    const stop = types.indexOf('content_block_stop');
    expect(types[stop - 1]).toBe('signature_delta');
    expect(final.usage.output_tokens_details?.thinking_tokens).toBeGreaterThan(0);
    // The reader (goldens, inspect) sees the same reasoning.
    const view = anthropicReader.streamedAnswer((await exchanges[0].body).split(/(?<=\n\n)/));
    expect(view).toMatchObject({ text: 'Done.', reasoning: 'Think step by step about it.', usage: { reasoningTokens: final.usage.output_tokens_details!.thinking_tokens } });
  });

  it('renders no thinking when the request does not turn thinking on (or turns it off)', async () => {
    const { client } = setup([{ name: 'r', steps: [{ respond: { reasoning: 'hidden', text: 'Hi.' }, consume: false }] }]);
    const plain = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [ask] });
    expect(plain.content.map((b) => b.type)).toEqual(['text']);
    expect(plain.usage.output_tokens_details ?? null).toBeNull();
    const off = await client.messages.create({ model: MODEL, max_tokens: 64, thinking: { type: 'disabled' }, messages: [ask] });
    expect(off.content.map((b) => b.type)).toEqual(['text']);
  });

  it('hands redacted thinking over as opaque redacted_thinking data, streamed whole, accepted when passed back', async () => {
    const secret = 'a chain of thought the classifier redacted';
    const { client, exchanges } = setup([loop({ text: secret, redacted: true })]);
    const stream = client.messages.stream({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    const first = await stream.finalMessage();
    expect(first.content[0].type).toBe('redacted_thinking');
    const data = (first.content[0] as Anthropic.RedactedThinkingBlock).data;
    expect(data).not.toContain('chain');
    expect(await exchanges[0].body).not.toContain(secret);
    const altered = await status(
      client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask, { role: 'assistant', content: [{ type: 'redacted_thinking', data: `A${data.slice(1)}` === data ? `B${data.slice(1)}` : `A${data.slice(1)}` }, first.content[1]] }, resultFor(first)] }),
    );
    expect(altered).toEqual({ status: 400, message: 'messages.1.content.0: Invalid `data` in `redacted_thinking` block' });
    const second = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask, { role: 'assistant', content: first.content }, resultFor(first)] });
    expect(second.content[0]).toMatchObject({ type: 'text' });
  });

  it("with display 'omitted', sends an empty thinking text with a signature that round-trips", async () => {
    const { client } = setup([loop()]);
    const first = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048, display: 'omitted' }, tools: [weather], messages: [ask] });
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: '' });
    const second = await status(
      client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask, { role: 'assistant', content: first.content }, resultFor(first)] }),
    );
    expect(second.status).toBe(200);
  });

  it('thinks again after a tool result only when thinking is interleaved (the beta header, or adaptive thinking)', async () => {
    const scenario = (): ScenarioInput => ({
      name: 'i',
      steps: [
        { respond: { reasoning: 'first thought', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
        { respond: { reasoning: 'second thought', text: 'Paris is warm.' } },
      ],
    });
    const run = async (thinking: Anthropic.ThinkingConfigParam, headers?: Record<string, string>) => {
      const { client } = setup([scenario()], { headers });
      const first = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking, tools: [weather], messages: [ask] });
      const second = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking, tools: [weather], messages: [ask, { role: 'assistant', content: first.content }, resultFor(first)] });
      return second.content.map((b) => b.type);
    };
    expect(await run(THINKING)).toEqual(['text']);
    expect(await run(THINKING, { 'anthropic-beta': 'interleaved-thinking-2025-05-14' })).toEqual(['thinking', 'text']);
    expect(await run({ type: 'adaptive' })).toEqual(['thinking', 'text']);
  });
});

describe('Anthropic protocol rules (thinking on)', () => {
  it('refuses a tool loop whose assistant turn lost its thinking block, with the API 400; accepts it with rules off', async () => {
    const { mock, client } = setup([loop()]);
    const first = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    const withoutThinking = first.content.filter((b) => b.type !== 'thinking');
    const refused = await status(
      client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask, { role: 'assistant', content: withoutThinking }, resultFor(first)] }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block/);
    expect(mock.requests[1]).toMatchObject({ status: 400, violation: { rule: 'anthropic.thinking-block-first' } });
    // The same conversation is fine with thinking off: the rule applies only with thinking on.
    const off = await status(client.messages.create({ model: MODEL, max_tokens: 4096, tools: [weather], messages: [ask, { role: 'assistant', content: withoutThinking }, resultFor(first)] }));
    expect(off.status).toBe(200);
    const lenient = setup([loop()], { protocolRules: false });
    const again = await lenient.client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    const accepted = await status(
      lenient.client.messages.create({
        model: MODEL,
        max_tokens: 4096,
        thinking: THINKING,
        tools: [weather],
        messages: [ask, { role: 'assistant', content: again.content.filter((b) => b.type !== 'thinking') }, resultFor(again)],
      }),
    );
    expect(accepted.status).toBe(200);
  });

  it('refuses a thinking block whose text or signature was altered, or that this mock never signed', async () => {
    const { client } = setup([{ ...loop(), steps: [loop().steps[0], { respond: { text: 'ok' }, consume: false }] }]);
    const first = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    const thinking = first.content[0] as Anthropic.ThinkingBlock;
    const send = (block: Anthropic.ThinkingBlockParam) =>
      status(
        client.messages.create({
          model: MODEL,
          max_tokens: 4096,
          thinking: THINKING,
          tools: [weather],
          messages: [ask, { role: 'assistant', content: [block, first.content[1] as Anthropic.ToolUseBlockParam] }, resultFor(first)],
        }),
      );
    const edited = await send({ type: 'thinking', thinking: thinking.thinking + ' (edited)', signature: thinking.signature });
    expect(edited).toEqual({ status: 400, message: 'messages.1.content.0: Invalid `signature` in `thinking` block' });
    const forged = await send({ type: 'thinking', thinking: thinking.thinking, signature: Buffer.from('forged signature bytes').toString('base64') });
    expect(forged.status).toBe(400);
    const foreign = await setup([loop()]).client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    expect((await send(foreign.content[0] as Anthropic.ThinkingBlockParam)).status).toBe(400);
    expect((await send(thinking)).status).toBe(200);
  });

  it('accepts a new turn whose earlier turns dropped their thinking (the API strips it), and earlier loops without it', async () => {
    const { client } = setup([loop(), { name: 'next', steps: [{ respond: { text: 'You are welcome.' } }] }]);
    const first = await client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: [ask] });
    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 4096,
      thinking: THINKING,
      tools: [weather],
      messages: [ask, { role: 'assistant', content: first.content }, resultFor(first)],
    });
    const history: Anthropic.MessageParam[] = [
      ask,
      { role: 'assistant', content: first.content.filter((b) => b.type !== 'thinking') },
      resultFor(first),
      { role: 'assistant', content: second.content },
      { role: 'user', content: 'Thanks!' },
    ];
    const third = await status(client.messages.create({ model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather], messages: history }));
    expect(third.status).toBe(200);
  });
});

describe('Anthropic protocol rules (tool pairing, always)', () => {
  it('refuses tool_use ids the next message does not answer, and a tool_result for an id never issued', async () => {
    const { mock, client } = setup([{ name: 'any', steps: [{ respond: { text: 'ok' }, consume: false }] }]);
    const use: Anthropic.ToolUseBlockParam = { type: 'tool_use', id: 'toolu_01AbCdEfGhIjKlMnOpQrStUv', name: 'get_weather', input: { city: 'Paris' } };
    const unanswered = await status(
      client.messages.create({ model: MODEL, max_tokens: 64, tools: [weather], messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: 'never mind' }] }),
    );
    expect(unanswered).toEqual({
      status: 400,
      message:
        'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01AbCdEfGhIjKlMnOpQrStUv. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    });
    const stray = await status(
      client.messages.create({
        model: MODEL,
        max_tokens: 64,
        tools: [weather],
        messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'ok' }, { type: 'tool_result', tool_use_id: 'toolu_01Nope', content: '?' }] }],
      }),
    );
    expect(stray).toEqual({
      status: 400,
      message:
        'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01Nope. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    });
    expect(mock.requests.map((r) => r.violation?.rule)).toEqual(['anthropic.tool-use-without-result', 'anthropic.tool-result-without-use']);
    // Answered, or the assistant message last (a prefill): accepted.
    const answered = await status(
      client.messages.create({ model: MODEL, max_tokens: 64, tools: [weather], messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'ok' }] }] }),
    );
    expect(answered.status).toBe(200);
    expect((await status(client.messages.create({ model: MODEL, max_tokens: 64, tools: [weather], messages: [ask, { role: 'assistant', content: [use] }] }))).status).toBe(200);
    // A server tool's use is answered in the assistant message itself, never by a tool_result.
    const search: Anthropic.ContentBlockParam[] = [
      { type: 'server_tool_use', id: 'srvtoolu_01AbCdEfGhIjKlMnOpQrStUv', name: 'web_search', input: { query: 'paris weather' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01AbCdEfGhIjKlMnOpQrStUv', content: [] },
      { type: 'text', text: 'Sunny.' },
    ];
    expect((await status(client.messages.create({ model: MODEL, max_tokens: 64, messages: [ask, { role: 'assistant', content: search }, { role: 'user', content: 'thanks' }] }))).status).toBe(200);
  });

  it('refuses manual thinking with a tool_choice that forces tool use; adaptive thinking or auto choice pass', async () => {
    const { client } = setup([{ name: 'any', steps: [{ respond: { text: 'ok' }, consume: false }] }]);
    const body = { model: MODEL, max_tokens: 4096, tools: [weather], messages: [ask] };
    const forced = await status(client.messages.create({ ...body, thinking: THINKING, tool_choice: { type: 'tool', name: 'get_weather' } }));
    expect(forced).toEqual({ status: 400, message: 'Thinking may not be enabled when tool_choice forces tool use.' });
    expect((await status(client.messages.create({ ...body, thinking: THINKING, tool_choice: { type: 'any' } }))).status).toBe(400);
    expect((await status(client.messages.create({ ...body, thinking: THINKING, tool_choice: { type: 'auto' } }))).status).toBe(200);
    expect((await status(client.messages.create({ ...body, thinking: { type: 'adaptive' }, tool_choice: { type: 'tool', name: 'get_weather' } }))).status).toBe(200);
  });

  it("checks manual thinking's budget as the API does: at least 1024, below max_tokens", async () => {
    const { client } = setup([{ name: 'any', steps: [{ respond: { text: 'ok' }, consume: false }] }]);
    const small = await status(client.messages.create({ model: MODEL, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 512 }, messages: [ask] }));
    expect(small).toEqual({ status: 400, message: 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024' });
    const over = await status(client.messages.create({ model: MODEL, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [ask] }));
    expect(over).toEqual({ status: 400, message: '`max_tokens` must be greater than `thinking.budget_tokens`.' });
    expect((await status(client.messages.create({ model: MODEL, max_tokens: 2049, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [ask] }))).status).toBe(200);
  });

  it('names a thinking block without its signature as a missing field', async () => {
    const { client } = setup([{ name: 'any', steps: [{ respond: { text: 'ok' }, consume: false }] }]);
    const res = await status(
      client.messages.create({ model: MODEL, max_tokens: 64, messages: [ask, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' } as never, { type: 'text', text: 'hi' }] }, { role: 'user', content: 'and?' }] }),
    );
    expect(res).toEqual({ status: 400, message: 'messages.1.content.0.signature: Field required' });
  });
});

describe('Anthropic extended thinking on the real port', () => {
  it('streams signed thinking, accepts the loop that passes it back and refuses the one that alters it', async () => {
    const server = await startMockLLMServer({ scenarios: [{ ...loop(), steps: [loop().steps[0], { respond: { text: 'It is 21C in Paris.' }, consume: false }] }] });
    try {
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
      const params = { model: MODEL, max_tokens: 4096, thinking: THINKING, tools: [weather] };
      const first = await client.messages.stream({ ...params, messages: [ask] }).finalMessage();
      const thinking = first.content[0] as Anthropic.ThinkingBlock;
      const altered = await status(
        client.messages.create({ ...params, messages: [ask, { role: 'assistant', content: [{ ...thinking, thinking: 'rewritten' }, first.content[1]] }, resultFor(first)] }),
      );
      expect(altered).toEqual({ status: 400, message: 'messages.1.content.0: Invalid `signature` in `thinking` block' });
      const second = await client.messages.create({ ...params, messages: [ask, { role: 'assistant', content: first.content }, resultFor(first)] });
      expect(second.content[0]).toMatchObject({ type: 'text', text: 'It is 21C in Paris.' });
      expect(server.mock.requests.map((r) => r.violation?.rule ?? r.status)).toEqual([200, 'anthropic.thinking-signature', 200]);
    } finally {
      await server.close();
    }
  });
});
