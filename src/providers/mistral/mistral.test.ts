import { HTTPClient, Mistral } from '@mistralai/mistralai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';

function setup(scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  // The SDK's own HTTPClient over a fetch that answers from the mock.
  const client = new Mistral({ apiKey: 'mistral-test', retryConfig: { strategy: 'none' }, httpClient: new HTTPClient({ fetcher: fetch }) });
  return { mock, client, exchanges };
}

const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('Mistral through @mistralai/mistralai', () => {
  it('answers with Mistral’s own wire: 32-hex ids, 9-character tool ids, no OpenAI-only fields', async () => {
    const { client, exchanges } = setup([{ name: 't', steps: [{ respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } }] }]);
    const res = await client.chat.complete({ model: 'mistral-large-latest', messages: [{ role: 'user', content: 'weather?' }], tools: [weather] });
    const call = res.choices[0].message!.toolCalls![0];
    expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(res.id).toMatch(/^[0-9a-f]{32}$/);
    const wire = JSON.parse(await exchanges[0].body);
    expect(wire).not.toHaveProperty('system_fingerprint');
    expect(wire).not.toHaveProperty('service_tier');
    expect(wire.choices[0].message).toMatchObject({ role: 'assistant', prefix: false, content: '' });
  });

  it.each([
    ['a minted id, already Mistral’s: the engine’s id is the wire’s', undefined],
    ['a scenario’s own id in another shape: sent as 9 characters, mapped back', 'call_weather_1'],
  ])('%s, so expectToolResults sees the result answer the call', async (_name, given) => {
    const { client, mock } = setup([
      {
        name: 'loop',
        steps: [
          { respond: { toolCalls: [{ ...(given ? { id: given } : {}), name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
          { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' } },
        ],
      },
    ]);
    const first = await client.chat.complete({ model: 'mistral-small-latest', messages: [{ role: 'user', content: 'weather?' }], tools: [weather] });
    const call = first.choices[0].message!.toolCalls![0];
    expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
    const second = await client.chat.complete({
      model: 'mistral-small-latest',
      tools: [weather],
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: '', toolCalls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', toolCallId: call.id, name: 'get_weather', content: '{"sky":"sunny"}' },
      ],
    });
    expect(second.choices[0].message?.content).toBe('Sunny in Paris.');
    const toolMessage = mock.requests[1].request!.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.toolCallId).toBe(given ?? call.id);
    expect(mock.requests.map((r) => r.provider)).toEqual(['mistral', 'mistral']);
  });

  it('embeds with mistral-embed’s 1024 dimensions, and lists models', async () => {
    const { client } = setup([{ name: 'm', steps: [{ match: { model: 'mistral-large-latest' }, respond: { text: 'x' } }] }]);
    const res = await client.embeddings.create({ model: 'mistral-embed', inputs: ['first', 'second'] });
    expect(res.data).toHaveLength(2);
    expect(res.data[0].embedding).toHaveLength(1024);
    expect(res.usage.promptTokens).toBeGreaterThan(0);
    const list = await client.models.list();
    expect(list.data?.map((m) => (m as { id: string }).id)).toEqual(['mistral-large-latest']);
    expect(await client.models.retrieve({ modelId: 'mistral-large-latest' })).toMatchObject({ id: 'mistral-large-latest', ownedBy: 'mistralai' });
  });

  it('gets Mistral’s wire on the real port at the plain server URL, and OpenAI’s for the openai SDK on the same path', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'hello' }, consume: false }] }] });
    try {
      const mistral = new Mistral({ apiKey: 'k', serverURL: server.url, retryConfig: { strategy: 'none' } });
      const res = await mistral.chat.complete({ model: 'mistral-small-latest', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0].message?.content).toBe('hello');
      const raw = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(await raw.json()).toHaveProperty('system_fingerprint');
    } finally {
      await server.close();
    }
  });
});

describe('Mistral under an explicit /mistral prefix on the real port', () => {
  it('answers in Mistral’s wire whatever the client’s headers', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'hello' }, consume: false }] }] });
    try {
      const raw = await fetch(`${server.url}/mistral/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mistral-small-latest', messages: [{ role: 'user', content: 'hi' }] }),
      });
      const body = await raw.json();
      expect(body.choices[0].message).toMatchObject({ content: 'hello', prefix: false });
      expect(body).not.toHaveProperty('system_fingerprint');
      const mistral = new Mistral({ apiKey: 'k', serverURL: `${server.url}/mistral`, retryConfig: { strategy: 'none' } });
      expect((await mistral.chat.complete({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).choices[0].message?.content).toBe('hello');
    } finally {
      await server.close();
    }
  });
});
