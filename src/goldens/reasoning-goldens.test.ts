// Reasoning in goldens: streams and bodies carrying signatures and encrypted content are recorded and
// replayed byte-exact (read back by the official SDKs), and request matching leaves out the fields
// each provider mints anew per answer, so a re-recording (new signatures, same conversation) still matches.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReasoningSeal } from '../providers/common/reasoning-seal.ts';
import { GeminiThoughts } from '../providers/gemini/thoughts.ts';
import { GoldenMismatchError } from './errors.ts';
import { Recorder } from './recorder.ts';
import { Redactor } from './redact.ts';
import { Replayer } from './replayer.ts';
import { readGolden, writeGolden } from './store.ts';
import { sampleGolden, sampleInteraction } from './testing/golden.ts';
import type { Interaction } from './schema.ts';

const redactor = new Redactor();
const seal = new ReasoningSeal();
const encoder = new TextEncoder();
const dir = mkdtempSync(join(tmpdir(), 'gw-reasoning-goldens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const THINKING = 'The user wants Paris — Météo first, then answer. 🌦';
const SIGNATURE = seal.sign('thinking', THINKING);
const sse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** An Anthropic thinking stream as the API sends it: thinking_delta, signature_delta, then a tool_use. */
const anthropicFrames = [
  sse('message_start', { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } } }),
  sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: THINKING } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 1 }),
  sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }),
  sse('message_stop', { type: 'message_stop' }),
];

/** A body split into network chunks at awkward places: inside frames and inside multi-byte characters. */
function chunked(text: string, size: number): Response {
  const bytes = encoder.encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const messagesRequest = (body: unknown): Request =>
  new Request('https://api.anthropic.com/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test' }, body: JSON.stringify(body) });

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

describe('reasoning is recorded and replayed byte-exact', () => {
  it('an Anthropic thinking stream: the frames, the signature and multi-byte thinking survive recording, the file and replay', async () => {
    const recorder = new Recorder(redactor);
    const request = { model: 'claude-sonnet-4-6', max_tokens: 2048, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Weather in Paris?' }] };
    const passed = await bytesOf(await recorder.handle(messagesRequest(request), async () => chunked(anthropicFrames.join(''), 7)));
    expect(new TextDecoder().decode(passed)).toBe(anthropicFrames.join(''));
    const [interaction] = await recorder.settled();
    expect(interaction.response.events!.map((e) => e.data)).toEqual(anthropicFrames);

    // Through the golden file (leak scanner included: a signature is not a secret) and back.
    const file = join(dir, 'anthropic-thinking.json');
    await writeGolden(file, sampleGolden({ provider: 'anthropic', interactions: [interaction] }));
    const stored = (await readGolden(file))!;
    expect(stored.interactions[0].response.events!.map((e) => e.data)).toEqual(anthropicFrames);

    const replayer = new Replayer(stored.interactions, { file, redactor });
    const client = new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0, fetch: (url, init) => replayer.serve(new Request(url, init)) });
    const message = await client.messages.stream(request as Anthropic.MessageCreateParamsStreaming).finalMessage();
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: THINKING, signature: SIGNATURE });
    // The signature the SDK assembled is the one the mock minted: it still verifies.
    expect(seal.verify('thinking', THINKING, (message.content[0] as Anthropic.ThinkingBlock).signature)).toBe(true);
    expect(message.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
  });

  it('a Responses body with encrypted reasoning: the SDK reads back the exact encrypted_content, which still opens', async () => {
    const encrypted = seal.encrypt('chain of thought about Paris');
    const body = {
      id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'o4-mini', output_text: undefined,
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Checked the weather.' }], encrypted_content: encrypted },
        { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
      ],
      usage: { input_tokens: 10, output_tokens: 30, output_tokens_details: { reasoning_tokens: 24 }, input_tokens_details: { cached_tokens: 0 }, total_tokens: 40 },
    };
    const recorder = new Recorder(redactor);
    const request = new Request('https://api.openai.com/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'o4-mini', input: 'Weather?', store: false, include: ['reasoning.encrypted_content'] }) });
    await (await recorder.handle(request, async () => Response.json(body))).text();
    const [interaction] = await recorder.settled();
    const file = join(dir, 'responses-encrypted.json');
    await writeGolden(file, sampleGolden({ interactions: [interaction] }));
    const replayer = new Replayer((await readGolden(file))!.interactions, { file, redactor });
    const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0, fetch: (url, init) => replayer.serve(new Request(url, init)) });
    const response = await client.responses.create({ model: 'o4-mini', input: 'Weather?', store: false, include: ['reasoning.encrypted_content'] });
    const reasoning = response.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.encrypted_content).toBe(encrypted);
    expect(seal.open(reasoning.encrypted_content)).toBe('chain of thought about Paris');
  });
});

/** A recorded exchange whose request passes reasoning back, answered with "ok". */
function recorded(url: string, provider: string, body: unknown): Interaction {
  return sampleInteraction({ provider, request: { method: 'POST', url, headers: { 'content-type': 'application/json' }, body } });
}

const post = (url: string, body: unknown): Request => new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The same conversation as passed back after two recordings: everything equal but the minted fields; `answer` served them. */
const cases: Array<{ api: string; url: string; provider: string; make: (minted: string, text: string) => unknown; answer: (minted: string, text: string) => unknown }> = [
  {
    api: 'Anthropic thinking signature and redacted_thinking data',
    url: 'https://api.anthropic.com/v1/messages',
    provider: 'anthropic',
    make: (minted, text) => ({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: text, signature: minted }, { type: 'redacted_thinking', data: `R${minted}` }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    }),
    answer: (minted, text) => ({
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 9 },
      content: [{ type: 'thinking', thinking: text, signature: minted }, { type: 'redacted_thinking', data: `R${minted}` }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
    }),
  },
  {
    api: 'Responses encrypted_content',
    url: 'https://api.openai.com/v1/responses',
    provider: 'openai-responses',
    make: (minted, text) => ({
      model: 'o4-mini',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text }], encrypted_content: minted },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    }),
    answer: (minted, text) => ({
      id: 'resp_1', object: 'response', status: 'completed', model: 'o4-mini',
      output: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text }], encrypted_content: minted }, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' }],
    }),
  },
  {
    api: 'Gemini thoughtSignature',
    url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent',
    provider: 'gemini',
    make: (minted, text) => ({
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ text, thought: true }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: minted }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }] },
      ],
    }),
    answer: (minted, text) => ({
      candidates: [{ content: { role: 'model', parts: [{ text, thought: true }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: minted }] }, finishReason: 'STOP', index: 0 }],
    }),
  },
  {
    api: 'Bedrock Converse reasoningText signature and redactedContent',
    url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-6-v1%3A0/converse',
    provider: 'bedrock',
    make: (minted, text) => ({
      messages: [
        { role: 'user', content: [{ text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text, signature: minted } } },
            { reasoningContent: { redactedContent: `R${minted}` } },
            { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
          ],
        },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'sunny' }] } }] },
      ],
    }),
    answer: (minted, text) => ({
      output: { message: { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text, signature: minted } } }, { reasoningContent: { redactedContent: `R${minted}` } }, { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] } },
      stopReason: 'tool_use', usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 },
    }),
  },
];

describe('request matching leaves out what each API mints anew per answer', () => {
  for (const c of cases) {
    it(`${c.api}: a golden whose loop-back request recorded another value matches the one this replay served; changed reasoning does not`, async () => {
      const first = new ReasoningSeal().sign('x', 'the same reasoning');
      const second = new ReasoningSeal().sign('x', 'the same reasoning');
      expect(first).not.toBe(second);
      // A golden from two recordings: its first answer served `first`, its loop-back request recorded `second`.
      const golden = (): Interaction[] => [
        { ...recorded(c.url, c.provider, { opening: true }), response: { status: 200, headers: { 'content-type': 'application/json' }, body: c.answer(first, 'Check the weather.') } },
        recorded(c.url, c.provider, c.make(second, 'Check the weather.')),
      ];
      const replayer = new Replayer(golden(), { file: 'g.json', redactor });
      await (await replayer.serve(post(c.url, { opening: true }))).text();
      expect((await replayer.serve(post(c.url, c.make(first, 'Check the weather.')))).status).toBe(200);

      // The reasoning itself is part of the conversation: code that alters it does not match.
      const strict = new Replayer(golden(), { file: 'g.json', redactor });
      await (await strict.serve(post(c.url, { opening: true }))).text();
      const error = await strict.serve(post(c.url, c.make(first, 'Something else.'))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GoldenMismatchError);
      expect((error as Error).message).toContain('Something else.');
    });
  }

  it('only where the API mints them: a field of that name elsewhere still counts', async () => {
    // `signature` on a text block is not Anthropic's thinking signature: it stays in the match.
    const body = (sig: string) => ({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', signature: sig }] }] });
    const replayer = new Replayer([recorded('https://api.anthropic.com/v1/messages', 'anthropic', body('a'))], { file: 'g.json', redactor });
    await expect(replayer.serve(post('https://api.anthropic.com/v1/messages', body('b')))).rejects.toBeInstanceOf(GoldenMismatchError);
  });
});

describe('a replay takes back only the reasoning values it served, where it served them', () => {
  const anthropicUrl = 'https://api.anthropic.com/v1/messages';
  const served = (body: unknown): Interaction => ({ ...recorded(anthropicUrl, 'anthropic', { opening: true }), response: { status: 200, headers: { 'content-type': 'application/json' }, body } });
  const loopBack = (content: unknown[]) => ({
    model: 'claude-sonnet-4-6', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] }],
  });
  const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } };
  const [S1, S2] = [seal.sign('x', 'one'), seal.sign('x', 'two')];
  const answer = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'thinking', thinking: 'First.', signature: S1 }, { type: 'thinking', thinking: 'Second.', signature: S2 }, { type: 'redacted_thinking', data: 'UkVEQUNURUQ=' }, toolUse] };

  async function replay(content: unknown[]): Promise<unknown> {
    const replayer = new Replayer([served(answer), recorded(anthropicUrl, 'anthropic', loopBack(content))], { file: 'g.json', redactor });
    await (await replayer.serve(post(anthropicUrl, { opening: true }))).text();
    return replayer.serve(post(anthropicUrl, loopBack(content))).then((r) => r.status, (e: unknown) => e);
  }

  it('an Anthropic signature verifies only on the thinking it was served with: swapped between blocks, it is refused', async () => {
    expect(await replay(answer.content)).toBe(200);
    const swapped = await replay([{ ...answer.content[0], signature: S2 }, { ...answer.content[1], signature: S1 }, answer.content[2], toolUse]);
    expect(swapped).toBeInstanceOf(GoldenMismatchError);
    expect((swapped as GoldenMismatchError).wire).toMatchObject({ status: 400, message: 'messages.1.content.0: Invalid `signature` in `thinking` block' });
  });

  it('altered redacted_thinking data is refused in the live mock\'s words', async () => {
    const altered = await replay([answer.content[0], answer.content[1], { type: 'redacted_thinking', data: 'UkVEQUNURUR=' }, toolUse]);
    expect((altered as GoldenMismatchError).wire).toMatchObject({ status: 400, message: 'messages.1.content.2: Invalid `data` in `redacted_thinking` block' });
  });

  it('values served in streams count: a Responses stream\'s completed response, Gemini\'s chunks', async () => {
    const encrypted = seal.encrypt('why');
    const responsesUrl = 'https://api.openai.com/v1/responses';
    const completed = { type: 'response.completed', response: { id: 'resp_1', object: 'response', output: [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: encrypted }, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' }] } };
    const responsesBack = (ec: string) => ({ model: 'o4-mini', store: false, input: [{ role: 'user', content: 'q' }, { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: ec }, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: 'ok' }] });
    const signature = new GeminiThoughts(seal).mint('thinking');
    const geminiUrl = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse';
    const chunk = { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: signature }] } }] };
    const geminiBack = (sig: string) => ({ contents: [{ role: 'user', parts: [{ text: 'q' }] }, { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: sig }] }, { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] });
    for (const [url, provider, frame, back, value] of [
      [responsesUrl, 'openai-responses', sse('response.completed', completed), responsesBack, encrypted],
      [geminiUrl, 'gemini', `data: ${JSON.stringify(chunk)}\r\n\r\n`, geminiBack, signature],
    ] as const) {
      const stream: Interaction = { ...recorded(url, provider, { opening: true }), response: { status: 200, headers: { 'content-type': 'text/event-stream' }, events: [{ offsetMs: 0, data: frame }] } };
      const golden = [stream, recorded(url, provider, back(value))];
      const replayer = new Replayer(golden, { file: 'g.json', redactor });
      await (await replayer.serve(post(url, { opening: true }))).text();
      expect((await replayer.serve(post(url, back(value)))).status).toBe(200);
      // The same value without having been served (a replay that did not stream it) is foreign.
      const fresh = new Replayer(golden.slice(1), { file: 'g.json', redactor });
      await expect(fresh.serve(post(url, back(value)))).rejects.toBeInstanceOf(GoldenMismatchError);
    }
  });
});
