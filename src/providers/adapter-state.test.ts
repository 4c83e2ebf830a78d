// Adapters are shared (one list and one router for all sessions of a server, or for any mocks given
// the same router); what an API remembers between requests is each mock's own. Through the official
// SDKs, unmodified: a stored response, a Mistral tool id, an Ollama call id minted in one mock is
// unknown in another, and reset() forgets only its own mock's.
import { Mistral } from '@mistralai/mistralai';
import { Ollama } from 'ollama';
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema.ts';
import { createMockLLM, type MockLLM } from '../transports/mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../transports/server.ts';
import { openAIResponsesAdapter } from './openai-responses/index.ts';
import { defaultAdapters } from './registry.ts';
import { ProviderRouter } from './router.ts';

const echo: ScenarioInput = { name: 'echo', steps: [{ respond: { text: 'said: {{lastUserMessage}}' }, consume: false }] };
const toolLoop: ScenarioInput = {
  name: 'loop',
  steps: [
    { match: { lastMessage: { role: 'user' } }, respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, consume: false },
    { match: { lastMessage: { role: 'tool' } }, respond: { text: 'Sunny in Paris.' }, consume: false },
  ],
};
const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

const notFound = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(OpenAI.NotFoundError);
const notContinued = (p: Promise<unknown>) => expect(p).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found', param: 'previous_response_id' });
/** The conversation a mock's last request was matched against, as `role:content` lines. */
const lastConversation = (mock: MockLLM) => mock.requests.at(-1)!.request!.messages.map((m) => `${m.role}:${m.content}`);

describe('sessions of one server share adapters, not their state', () => {
  let server: MockLLMServer;
  beforeAll(async () => {
    server = await startMockLLMServer({ scenarios: [echo] });
  });
  afterAll(() => server.close());
  const openai = (base: string) => new OpenAI({ apiKey: 'sk-test', baseURL: `${base}/v1`, maxRetries: 0 });
  const resetSession = async (id: string) => expect((await fetch(`${server.url}/__ghostwire/sessions/${id}/reset`, { method: 'POST' })).status).toBe(200);

  it('Responses: a stored response is retrieved and continued in its own session only; reset forgets that session’s alone', async () => {
    const a = server.sessions.create({ id: 'resp-a' });
    server.sessions.create({ id: 'resp-b' });
    const [inA, inB, inDefault] = [openai(server.sessionUrl('resp-a')), openai(server.sessionUrl('resp-b')), openai(server.url)];
    const fromA = await inA.responses.create({ model: 'gpt-4.1', input: 'one' });
    const fromB = await inB.responses.create({ model: 'gpt-4.1', input: 'two' });
    expect((await inA.responses.retrieve(fromA.id)).output_text).toBe('said: one');
    await inA.responses.create({ model: 'gpt-4.1', input: 'three', previous_response_id: fromA.id });
    expect(lastConversation(a.mock)).toEqual(['user:one', 'assistant:said: one', 'user:three']);
    for (const [client, id] of [[inB, fromA.id], [inDefault, fromA.id], [inA, fromB.id]] as const) {
      await notFound(client.responses.retrieve(id));
      await notContinued(client.responses.create({ model: 'gpt-4.1', input: 'more', previous_response_id: id }));
    }
    await resetSession('resp-a');
    await notFound(inA.responses.retrieve(fromA.id));
    await notContinued(inA.responses.create({ model: 'gpt-4.1', input: 'again', previous_response_id: fromA.id }));
    expect((await inB.responses.retrieve(fromB.id)).output_text).toBe('said: two');
  });

  it('Azure OpenAI Responses: the same, through AzureOpenAI', async () => {
    server.sessions.create({ id: 'azure-a' });
    server.sessions.create({ id: 'azure-b' });
    const azure = (id: string) => new AzureOpenAI({ endpoint: server.sessionUrl(id), apiKey: 'azure-key', apiVersion: '2025-04-01-preview', maxRetries: 0 });
    const [inA, inB] = [azure('azure-a'), azure('azure-b')];
    const fromA = await inA.responses.create({ model: 'gpt-4o', input: 'one' });
    expect((await inA.responses.retrieve(fromA.id)).output_text).toBe('said: one');
    await notFound(inB.responses.retrieve(fromA.id));
    await notContinued(inB.responses.create({ model: 'gpt-4o', input: 'more', previous_response_id: fromA.id }));
    await resetSession('azure-a');
    await notFound(inA.responses.retrieve(fromA.id));
  });

  it('Mistral: a scenario’s own tool id, sent as a 9-character one in one session, maps back there, not in another', async () => {
    // Minted ids are Mistral's already; an id the scenario gives in another shape is what the map is for.
    const given: ScenarioInput = { ...toolLoop, steps: toolLoop.steps.map((s, i) => (i === 0 ? { ...s, respond: { toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }] } } : s)) };
    const [a, b] = [server.sessions.create({ id: 'mistral-a', scenarios: [given] }), server.sessions.create({ id: 'mistral-b', scenarios: [given] })];
    const mistral = (id: string) => new Mistral({ apiKey: 'k', serverURL: server.sessionUrl(id), retryConfig: { strategy: 'none' } });
    const first = await mistral('mistral-a').chat.complete({ model: 'mistral-small-latest', messages: [{ role: 'user', content: 'weather?' }], tools: [weather] });
    const call = first.choices[0].message!.toolCalls![0];
    expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
    const answer = (id: string) =>
      mistral(id).chat.complete({
        model: 'mistral-small-latest',
        tools: [weather],
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: '', toolCalls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', toolCallId: call.id, name: 'get_weather', content: '{"sky":"sunny"}' },
        ],
      });
    const toolCallId = (mock: MockLLM) => mock.requests.at(-1)!.request!.messages.find((m) => m.role === 'tool')?.toolCallId;
    await answer('mistral-a');
    expect(toolCallId(a.mock)).toBe('call_weather_1');
    await answer('mistral-b');
    expect(toolCallId(b.mock)).toBe(call.id);
    await resetSession('mistral-a');
    await answer('mistral-a');
    expect(toolCallId(a.mock)).toBe(call.id);
  });

  it('Ollama: a tool result finds its call’s id in the session that rendered the call only', async () => {
    const [a, b] = [server.sessions.create({ id: 'ollama-a', scenarios: [toolLoop] }), server.sessions.create({ id: 'ollama-b', scenarios: [toolLoop] })];
    const ollama = (id: string) => new Ollama({ host: server.sessionUrl(id) });
    const first = await ollama('ollama-a').chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'weather?' }], tools: [weather] });
    const answer = (id: string) =>
      ollama(id).chat({ model: 'llama3.2', tools: [weather], messages: [{ role: 'user', content: 'weather?' }, first.message, { role: 'tool', tool_name: 'get_weather', content: 'sunny' }] });
    const toolCallId = (mock: MockLLM) => mock.requests.at(-1)!.request!.messages.find((m) => m.role === 'tool')?.toolCallId;
    await answer('ollama-a');
    expect(toolCallId(a.mock)).toMatch(/^call_/);
    await answer('ollama-b');
    expect(toolCallId(b.mock)).toBe('get_weather#0');
    await resetSession('ollama-a');
    await answer('ollama-a');
    expect(toolCallId(a.mock)).toBe('get_weather#0');
  });
});

describe('two MockLLMs in one process over one shared router', () => {
  const client = (mock: MockLLM) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, fetch: (input, init) => mock.handle(new Request(input, init)) });

  it('keep their stored responses apart; reset() forgets its own mock’s only', async () => {
    const router = new ProviderRouter(defaultAdapters());
    const [a, b] = [createMockLLM({ scenarios: [echo], router }), createMockLLM({ scenarios: [echo], router })];
    const fromA = await client(a).responses.create({ model: 'gpt-4.1', input: 'one' });
    const fromB = await client(b).responses.create({ model: 'gpt-4.1', input: 'two' });
    await notFound(client(b).responses.retrieve(fromA.id));
    await notContinued(client(b).responses.create({ model: 'gpt-4.1', input: 'more', previous_response_id: fromA.id }));
    await notFound(client(a).responses.retrieve(fromB.id));
    await client(a).responses.create({ model: 'gpt-4.1', input: 'three', previous_response_id: fromA.id });
    expect(lastConversation(a)).toEqual(['user:one', 'assistant:said: one', 'user:three']);
    a.reset();
    await notFound(client(a).responses.retrieve(fromA.id));
    expect((await client(b).responses.retrieve(fromB.id)).output_text).toBe('said: two');
  });

  it('an adapter’s store limits bound each mock’s store, not one store for all', async () => {
    const adapters = [openAIResponsesAdapter({ storeLimit: 1 })];
    const [a, b] = [createMockLLM({ scenarios: [echo], adapters }), createMockLLM({ scenarios: [echo], adapters })];
    const fromA = await client(a).responses.create({ model: 'gpt-4.1', input: 'one' });
    const fromB = await client(b).responses.create({ model: 'gpt-4.1', input: 'two' });
    expect((await client(a).responses.retrieve(fromA.id)).output_text).toBe('said: one');
    expect((await client(b).responses.retrieve(fromB.id)).output_text).toBe('said: two');
    await client(a).responses.create({ model: 'gpt-4.1', input: 'three' });
    await notFound(client(a).responses.retrieve(fromA.id));
    expect((await client(b).responses.retrieve(fromB.id)).output_text).toBe('said: two');
  });
});
