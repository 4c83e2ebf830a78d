import { CohereClientV2 } from 'cohere-ai';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';

function setup(scenarios: ScenarioInput[], environment?: string) {
  const mock = createMockLLM({ scenarios });
  const { fetch, exchanges } = capturingFetch(mock.handle);
  const client = new CohereClientV2({ token: 'co-test', maxRetries: 0, fetch, ...(environment ? { environment } : {}) });
  return { mock, client, exchanges };
}

const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('Cohere v2 through cohere-ai', () => {
  it('streams Cohere’s typed events, named in `event:` lines, ending in message-end', async () => {
    const { client, exchanges } = setup([{ name: 't', steps: [{ respond: { text: 'Hi there', stream: { chunkSize: 4 } } }] }]);
    const types: string[] = [];
    for await (const e of await client.chatStream({ model: 'command-a-03-2025', messages: [{ role: 'user', content: 'hi' }] })) types.push(e.type);
    expect(types).toEqual(['message-start', 'content-start', 'content-delta', 'content-delta', 'content-end', 'message-end']);
    const body = await exchanges[0].body;
    expect(body.startsWith('event: message-start\ndata: {')).toBe(true);
    expect(sseData(body).at(-1)).toBe('[DONE]');
  });

  it('runs a tool loop: the result answers the call by tool_call_id, and the plan is the text', async () => {
    const { client, mock } = setup([
      {
        name: 'loop',
        steps: [
          { respond: { text: 'I will look up the weather.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], expectToolResults: true } },
          { match: { toolResults: ['get_weather'] }, respond: { text: 'Sunny in Paris.' } },
        ],
      },
    ]);
    const first = await client.chat({ model: 'command-a-03-2025', messages: [{ role: 'user', content: 'weather?' }], tools: [weather] });
    expect(first.finishReason).toBe('TOOL_CALL');
    expect(first.message.toolPlan).toBe('I will look up the weather.');
    const call = first.message.toolCalls![0];
    const second = await client.chat({
      model: 'command-a-03-2025',
      tools: [weather],
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', toolPlan: first.message.toolPlan, toolCalls: [call] },
        { role: 'tool', toolCallId: call.id, content: [{ type: 'document', document: { data: { sky: 'sunny' } } }] },
      ],
    });
    expect(second.message.content?.[0]).toEqual({ type: 'text', text: 'Sunny in Paris.' });
    expect(mock.requests.map((r) => r.provider)).toEqual(['cohere', 'cohere']);
  });

  it('embeds with each model’s real size, in every requested type, and bounds output_dimension', async () => {
    const { client } = setup([], 'https://api.cohere.ai');
    const v3 = await client.embed({ model: 'embed-english-v3.0', inputType: 'search_document', texts: ['a', 'b'], embeddingTypes: ['float', 'int8', 'ubinary'] });
    expect(v3.embeddings.float).toHaveLength(2);
    expect(v3.embeddings.float![0]).toHaveLength(1024);
    expect(v3.embeddings.int8![0]).toHaveLength(1024);
    expect(v3.embeddings.ubinary![0]).toHaveLength(128);
    expect(v3.texts).toEqual(['a', 'b']);
    const v4 = await client.embed({ model: 'embed-v4.0', inputType: 'search_query', texts: ['a'] });
    expect(v4.embeddings.float![0]).toHaveLength(1536);
    const small = await client.embed({ model: 'embed-v4.0', inputType: 'search_query', texts: ['a'], outputDimension: 256 });
    expect(small.embeddings.float![0]).toHaveLength(256);
    const err = await client.embed({ model: 'embed-english-v3.0', inputType: 'search_query', texts: ['a'], outputDimension: 256 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: 400, body: { message: expect.stringContaining('output_dimension') } });
  });

  it('answers on the real port at the plain server URL', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'hello' }, consume: false }] }] });
    try {
      const client = new CohereClientV2({ token: 'k', baseUrl: server.url, maxRetries: 0 });
      const res = await client.chat({ model: 'command-r-plus', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.message.content?.[0]).toEqual({ type: 'text', text: 'hello' });
      const embed = await client.embed({ model: 'embed-multilingual-light-v3.0', inputType: 'clustering', texts: ['x'] });
      expect(embed.embeddings.float![0]).toHaveLength(384);
      // The explicit provider prefix: `/cohere` names the API outright.
      const prefixed = new CohereClientV2({ token: 'k', baseUrl: `${server.url}/cohere`, maxRetries: 0 });
      expect((await prefixed.chat({ model: 'command-r-plus', messages: [{ role: 'user', content: 'hi' }] })).message.content?.[0]).toEqual({ type: 'text', text: 'hello' });
      expect(server.mock.requests.map((r) => r.provider)).toEqual(['cohere', 'cohere', 'cohere']);
    } finally {
      await server.close();
    }
  });
});
