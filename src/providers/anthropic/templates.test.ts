/**
 * Messages answers from per-answer templates (common/answer-templates.ts): what the rendering reads of
 * the request (the stop sequence, thinking on or off, interleaved or not) is in the key, a thinking
 * block's signature is its own mock's seal's, and redacted thinking is rendered each time. Through the
 * SDK as users call it, with two mocks sharing one router as a server's sessions do.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { AnswerTemplates } from '../common/answer-templates.ts';
import { RandomBytes } from '../common/ids.ts';
import { defaultAdapters } from '../registry.ts';
import { ProviderRouter } from '../router.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { anthropicAdapter, sealOf } from './index.ts';
import { THINKING_PURPOSE } from './thinking.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const MODEL = 'claude-sonnet-4-6';
const weather: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };

/** Mocks sharing one router (and so one set of templates), as the sessions of a server do. */
function sessions(count: number, scenarios: ScenarioInput[]) {
  const router = new ProviderRouter(defaultAdapters());
  const clients = Array.from({ length: count }, () => {
    const mock = createMockLLM({ scenarios, router });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    return { mock, exchanges, client: new Anthropic({ apiKey: 'sk-ant-test', fetch, maxRetries: 0 }) };
  });
  return { router, clients };
}

let next = 0;
const response = (over: Partial<CanonicalResponse>): CanonicalResponse =>
  canonicalResponse({ id: `msg_01${String(next++).padStart(22, '0')}`, model: MODEL, text: 'Done.', usage: { inputTokens: 3, outputTokens: 5 }, ...over });
const request = (stream: boolean, over: Partial<CanonicalRequest> = {}): CanonicalRequest =>
  canonicalRequest({ provider: 'anthropic', path: '/v1/messages', model: MODEL, stream, raw: { messages: [{ role: 'user', content: 'hi' }] }, ...over });

describe('Anthropic answers from templates', () => {
  it('names each request’s own stop sequence, and answers from templates with fresh ids and request-ids', async () => {
    const { router, clients } = sessions(1, [{ name: 's', steps: [{ respond: { text: 'Counting: one two', finishReason: 'stop_sequence' }, consume: false }] }]);
    const { client, exchanges } = clients[0];
    for (let round = 0; round < 4; round++) {
      for (const stop of ['END', 'STOP']) {
        const { data, response: http } = await client.messages.create({ model: MODEL, max_tokens: 64, stop_sequences: [stop], messages: [ask] }).withResponse();
        expect(data.stop_reason).toBe('stop_sequence');
        expect(data.stop_sequence).toBe(stop);
        const stream = client.messages.stream({ model: MODEL, max_tokens: 64, stop_sequences: [stop], messages: [ask] });
        const streamed = await stream.finalMessage();
        expect(streamed.stop_sequence).toBe(stop);
        expect(streamed.content).toEqual([{ type: 'text', text: 'Counting: one two', citations: null }]);
        expect(http.headers.get('request-id')).toMatch(/^req_011C[A-Za-z0-9]{20}$/);
      }
    }
    // Two contents (JSON and stream) for each of two stop sequences, asked four times each: the third and fourth from templates.
    expect(router.templates.hits).toBe(8);
    const ids = exchanges.map((e) => e.headers.get('request-id'));
    expect(new Set(ids).size).toBe(16);
  });

  it('streams tool calls from templates, each with its own message id, tool_use id and request-id', async () => {
    const { router, clients } = sessions(1, [{ name: 't', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false }] }]);
    const { client, exchanges } = clients[0];
    const seen = { messages: new Set<string>(), tools: new Set<string>(), requests: new Set<string>() };
    for (let round = 0; round < 5; round++) {
      const message = await client.messages.stream({ model: MODEL, max_tokens: 64, tools: [weather], messages: [ask] }).finalMessage();
      const use = message.content.find((b) => b.type === 'tool_use')!;
      expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
      expect(use.id).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
      expect(message.id).toMatch(/^msg_01[A-Za-z0-9]{22}$/);
      seen.messages.add(message.id);
      seen.tools.add(use.id);
      seen.requests.add(exchanges.at(-1)!.headers.get('request-id')!);
    }
    expect([seen.messages.size, seen.tools.size, seen.requests.size]).toEqual([5, 5, 5]);
    expect(router.templates.hits).toBe(3);
  });

  it('signs each session’s thinking with its own seal: two sessions of one server, tool loops passing thinking back, all accepted', async () => {
    const scenario: ScenarioInput = {
      name: 'loop',
      steps: [
        { match: { toolResults: ['get_weather'] }, respond: { text: 'It is 21C in Paris.' }, consume: false },
        { respond: { reasoning: 'The user wants Paris weather; call the tool.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
      ],
    };
    const { router, clients } = sessions(2, [scenario]);
    for (let round = 0; round < 4; round++) {
      for (const { client } of clients) {
        const params = { model: MODEL, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } as const, tools: [weather] };
        const first = await client.messages.stream({ ...params, messages: [ask] }).finalMessage();
        expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
        const use = first.content[1] as Anthropic.ToolUseBlock;
        // The mock refuses a thinking block whose signature is not its own seal's (a 400): accepted here.
        const second = await client.messages.create({
          ...params,
          messages: [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21C' }] }],
        });
        expect(second.content).toEqual([{ type: 'text', text: 'It is 21C in Paris.', citations: null }]);
      }
    }
    expect(clients.flatMap(({ mock }) => mock.requests.map((r) => r.status))).toEqual(Array(16).fill(200));
    // The first answers of each session came from its own templates (the second answers too: they carry no thinking).
    expect(router.templates.hits).toBeGreaterThanOrEqual(4);
  });

  it('keys a thinking answer on its seal, thinking on or off, and interleaving in a tool loop', () => {
    const adapter = anthropicAdapter();
    const [a, b] = [adapter.createState!(), adapter.createState!()];
    const reasoning = { text: 'Think it over.', redacted: false };
    const thinking = { thinking: { type: 'enabled', budget_tokens: 2048 } };
    const loop = { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] }] };
    const key = (req: CanonicalRequest, state: unknown) => adapter.templateKey!(response({ reasoning }), req, state);
    const on = request(true, { params: thinking });
    expect(key(on, a)).not.toBe(key(on, b));
    expect(key(on, a)).toBe(key(on, a));
    // Thinking off: no block, nothing of the seal in the key.
    expect(key(request(true), a)).toBe(key(request(true), b));
    // In a tool loop, manual thinking thinks again only with the interleaved-thinking beta.
    const inLoop = request(true, { params: thinking, raw: loop });
    const interleaved = request(true, { params: thinking, raw: loop, headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } });
    expect(key(inLoop, a)).toBe(key(request(true), a));
    expect(key(interleaved, a)).toBe(key(on, a));
    // Redacted thinking is encrypted afresh (a random IV) each time: never from a template.
    expect(adapter.templateKey!(response({ reasoning: { text: 'secret', redacted: true } }), on, a)).toBeUndefined();
  });

  it('answers signed thinking from templates byte for byte as rendered, and redacted thinking rendered each time', () => {
    const adapter = anthropicAdapter();
    const state = adapter.createState!();
    const seal = sealOf(state)!;
    const req = request(false, { params: { thinking: { type: 'enabled', budget_tokens: 2048 } } });
    const templates = new AnswerTemplates();
    for (let i = 0; i < 4; i++) {
      const res = response({ reasoning: { text: 'Think it over.', redacted: false } });
      const random = new RandomBytes();
      const rendered = templates.render(adapter, res, req, state, random);
      const json = JSON.parse(rendered.text ?? JSON.stringify(rendered.json)) as { id: string; content: { type: string; thinking: string; signature: string }[] };
      expect(json.id).toBe(res.id);
      expect(seal.verify(THINKING_PURPOSE, json.content[0].thinking, json.content[0].signature)).toBe(true);
    }
    expect(templates.hits).toBe(2);
    const redacted = new AnswerTemplates();
    for (let i = 0; i < 4; i++) {
      const rendered = redacted.render(adapter, response({ reasoning: { text: 'secret', redacted: true } }), req, state, new RandomBytes());
      const block = (rendered.json as { content: { type: string; data: string }[] }).content[0];
      expect(block.type).toBe('redacted_thinking');
      expect(seal.open(block.data)).toBe('secret');
    }
    expect(redacted.hits).toBe(0);
  });
});
