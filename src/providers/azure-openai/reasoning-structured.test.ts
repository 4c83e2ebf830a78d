import OpenAI, { AzureOpenAI } from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { capturingFetch } from '../testing/capture.ts';

// Reasoning and structured outputs through AzureOpenAI (issues 25 and 26): Azure serves the same
// OpenAI wire APIs, so the same rendering and rules apply on its routes, with its own error shape;
// in-process (the client's fetch) and on the real port.

const API_VERSION = '2025-04-01-preview';
const Weather = z.object({ city: z.string(), temperature: z.number() });
const tools: OpenAI.Responses.FunctionTool[] = [
  { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true },
];
const loop = () =>
  scenario('loop')
    .expect()
    .withLastMessage({ role: 'user', content: { contains: 'Paris' } })
    .then()
    .respondWithReasoning('Need the weather tool.')
    .respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
    .expect()
    .withLastMessage({ role: 'tool' })
    .then()
    .respondWithText('21°C.');

describe.each(['fetch', 'port'] as const)('Azure OpenAI reasoning and structured outputs (%s)', (transport) => {
  const mock = createMockLLM();
  let server: MockLLMServer | undefined;
  let client: AzureOpenAI;
  beforeAll(async () => {
    if (transport === 'port') {
      server = await startMockLLMServer({ mock });
      client = new AzureOpenAI({ endpoint: server.url, apiKey: 'azure-key', apiVersion: API_VERSION, maxRetries: 0 });
    } else {
      client = new AzureOpenAI({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: API_VERSION, maxRetries: 0, fetch: capturingFetch(mock.handle).fetch });
    }
  });
  afterAll(() => server?.close());
  beforeEach(() => mock.reset());

  it('parses a structured chat answer on a deployment, and a refusal', async () => {
    mock.use(scenario('w').respondWithJson({ city: 'Paris', temperature: 21 }).expect().then().respondWithRefusal('No.'));
    const parsed = await client.chat.completions.parse({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], response_format: zodResponseFormat(Weather, 'weather') });
    expect(parsed.choices[0].message.parsed).toEqual({ city: 'Paris', temperature: 21 });
    const refused = await client.chat.completions.parse({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], response_format: zodResponseFormat(Weather, 'weather') });
    expect(refused.choices[0].message).toMatchObject({ refusal: 'No.', parsed: null });
    expect(mock.requests.map((r) => r.provider)).toEqual(['azure-openai', 'azure-openai']);
  });

  it('parses a structured Responses answer', async () => {
    mock.use(scenario('w').respondWithJson({ city: 'Oslo', temperature: -3 }));
    const response = await client.responses.parse({ model: 'gpt-4.1', input: 'x', text: { format: zodTextFormat(Weather, 'weather') } });
    expect(response.output_parsed).toEqual({ city: 'Oslo', temperature: -3 });
  });

  it('reports reasoning tokens of an o-series deployment on chat', async () => {
    mock.use(scenario('t').respondWithReasoning('hmm').respondWithText('ok').withUsage({ inputTokens: 1, outputTokens: 9, reasoningTokens: 7 }));
    const completion = await client.chat.completions.create({ model: 'o3-mini', messages: [{ role: 'user', content: 'x' }] });
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(7);
  });

  it('counts no reasoning tokens where the deployment does not reason (gpt-4o, effort none), streamed and not; counts them on o4-mini', async () => {
    const thinking = () => scenario('t').respondWithReasoning('Weigh what the user asked, then answer briefly.').respondWithText('ok');
    const chat = async (model: string, extra: Partial<OpenAI.Chat.ChatCompletionCreateParamsStreaming> = {}) => {
      mock.reset();
      mock.use(thinking());
      let usage: OpenAI.CompletionUsage | undefined;
      const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }], stream: true, stream_options: { include_usage: true }, ...extra });
      for await (const chunk of stream) usage = chunk.usage ?? usage;
      return usage!;
    };
    const off = await chat('gpt-4o');
    expect(off.completion_tokens_details?.reasoning_tokens).toBe(0);
    const on = await chat('o4-mini');
    expect(on.completion_tokens_details!.reasoning_tokens).toBeGreaterThan(0);
    expect(on.completion_tokens).toBe(off.completion_tokens + on.completion_tokens_details!.reasoning_tokens!);
    const responses = async (reasoning: OpenAI.Reasoning) => {
      mock.reset();
      mock.use(thinking());
      return client.responses.create({ model: 'gpt-5.1', input: 'x', reasoning });
    };
    const none = await responses({ effort: 'none' });
    expect(none.output.map((o) => o.type)).toEqual(['message']);
    expect(none.usage).toMatchObject({ output_tokens: off.completion_tokens, output_tokens_details: { reasoning_tokens: 0 } });
    const low = await responses({ effort: 'low' });
    expect(low.usage!.output_tokens).toBe(off.completion_tokens + low.usage!.output_tokens_details.reasoning_tokens);
    expect(low.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('runs a stateless reasoning tool loop on /openai/responses and refuses it without the reasoning item, in Azure’s error shape', async () => {
    mock.use(loop());
    const first = await client.responses.create({ model: 'o4-mini', store: false, include: ['reasoning.encrypted_content'], input: 'Weather in Paris?', tools });
    const [rs, fc] = first.output as [OpenAI.Responses.ResponseReasoningItem, OpenAI.Responses.ResponseFunctionToolCall];
    expect(rs.type).toBe('reasoning');
    const result: OpenAI.Responses.ResponseInputItem = { type: 'function_call_output', call_id: fc.call_id, output: '21' };
    const err = await client.responses.create({ model: 'o4-mini', store: false, input: [{ role: 'user', content: 'Weather in Paris?' }, fc, result], tools }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toMatchObject({ message: `Item '${fc.id}' of type 'function_call' was provided without its required 'reasoning' item: '${rs.id}'.`, param: 'input', status: 400 });
    const ok = await client.responses.create({ model: 'o4-mini', store: false, input: [{ role: 'user', content: 'Weather in Paris?' }, rs, fc, result], tools });
    expect(ok.output_text).toBe('21°C.');
  });
});
