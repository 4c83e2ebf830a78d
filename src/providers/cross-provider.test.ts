import { fileURLToPath } from 'node:url';
import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandOutput, type Message } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { CohereClientV2, type Cohere } from 'cohere-ai';
import type Anthropic from '@anthropic-ai/sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { FinishReason, GoogleGenAI, Type } from '@google/genai';
import { setupServer } from 'msw/node';
import { AzureOpenAI, type OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarios } from '../scenario/loader.ts';
import { createMockLLM, type MockLLM } from '../transports/mock-llm.ts';
import { mockLLMHandlers } from '../transports/msw.ts';
import { startMockLLMServer } from '../transports/server.ts';
import { startRig, TRANSPORTS, type SdkRig, type TransportName } from './testing/sdk-rig.ts';
import { staticTokenClient } from './vertex-shared/test-auth.ts';

/**
 * One scenario file, written once, answered for every chat API: a tool call, the answer after the
 * tool result, and a length-limited essay. `consume: false` lets each client walk the same steps.
 */
const SCENARIO_FILE = fileURLToPath(new URL('./testing/cross-provider.scenario.json', import.meta.url));

const WEATHER = 'What is the weather in Paris?';
const schema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

/** What one turn looked like, in the provider's own terms. */
interface Turn {
  finish: unknown;
  usage: unknown;
  text: string;
  calls: { id: string; name: string; args: unknown }[];
}

async function viaChat(client: OpenAI): Promise<Turn[]> {
  const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: schema } }];
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: WEATHER }];
  const turn = (c: OpenAI.Chat.ChatCompletion): Turn => ({
    finish: c.choices[0].finish_reason,
    usage: { prompt_tokens: c.usage?.prompt_tokens, completion_tokens: c.usage?.completion_tokens },
    text: c.choices[0].message.content ?? '',
    calls: (c.choices[0].message.tool_calls ?? []).map((t) => {
      if (t.type !== 'function') throw new Error('expected a function tool call');
      return { id: t.id, name: t.function.name, args: JSON.parse(t.function.arguments) };
    }),
  });
  const first = await client.chat.completions.create({ model: 'gpt-4o', tools, messages });
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: first.choices[0].message.tool_calls![0].id, content: '21C' });
  const second = await client.chat.completions.create({ model: 'gpt-4o', tools, messages });
  const essay = await client.chat.completions.create({ model: 'gpt-4o', max_tokens: 3, messages: [{ role: 'user', content: 'Write an essay' }] });
  return [first, second, essay].map(turn);
}

async function viaResponses(client: OpenAI): Promise<Turn[]> {
  const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'get_weather', parameters: schema, strict: true }];
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: WEATHER }];
  const turn = (r: OpenAI.Responses.Response): Turn => ({
    finish: r.incomplete_details?.reason ?? r.status,
    usage: { input_tokens: r.usage?.input_tokens, output_tokens: r.usage?.output_tokens },
    text: r.output_text,
    calls: r.output.flatMap((o) => (o.type === 'function_call' ? [{ id: o.call_id, name: o.name, args: JSON.parse(o.arguments) }] : [])),
  });
  const first = await client.responses.create({ model: 'gpt-4.1', tools, input });
  const call = first.output.find((o) => o.type === 'function_call')!;
  input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '21C' });
  const second = await client.responses.stream({ model: 'gpt-4.1', tools, input }).finalResponse();
  const essay = await client.responses.create({ model: 'gpt-4.1', max_output_tokens: 16, input: 'Write an essay' });
  return [first, second, essay].map(turn);
}

async function viaAnthropic(client: { messages: Pick<Anthropic['messages'], 'create' | 'stream'> }): Promise<Turn[]> {
  const tools: Anthropic.Messages.Tool[] = [{ name: 'get_weather', input_schema: schema }];
  const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: WEATHER }];
  const turn = (m: Anthropic.Messages.Message): Turn => ({
    finish: m.stop_reason,
    usage: { input_tokens: m.usage.input_tokens, output_tokens: m.usage.output_tokens },
    text: m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    calls: m.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, args: b.input }] : [])),
  });
  const first = await client.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 100, tools, messages }).finalMessage();
  const use = first.content.find((b) => b.type === 'tool_use')!;
  messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21C' }] });
  const second = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, tools, messages });
  const essay = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 3, messages: [{ role: 'user', content: 'Write an essay' }] });
  return [first, second, essay].map(turn);
}

async function viaGemini(client: SdkRig['google']): Promise<Turn[]> {
  const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } } }] }] };
  const contents: { role: string; parts: Record<string, unknown>[] }[] = [{ role: 'user', parts: [{ text: WEATHER }] }];
  const turn = (r: Awaited<ReturnType<typeof client.models.generateContent>>): Turn => ({
    finish: r.candidates?.[0].finishReason,
    usage: { promptTokenCount: r.usageMetadata?.promptTokenCount, candidatesTokenCount: r.usageMetadata?.candidatesTokenCount },
    text: r.candidates?.[0].content?.parts?.flatMap((p) => (p.text ? [p.text] : [])).join('') ?? '',
    calls: (r.functionCalls ?? []).map((c) => ({ id: c.id!, name: c.name!, args: c.args })),
  });
  const first = await client.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  const call = first.functionCalls![0];
  contents.push(first.candidates![0].content as never, { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { result: '21C' } } }] });
  const second = await client.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  const essay = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Write an essay' });
  return [first, second, essay].map(turn);
}

async function viaMistral(client: SdkRig['mistral']): Promise<Turn[]> {
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: schema } }];
  const turn = (r: Awaited<ReturnType<typeof client.chat.complete>>): Turn => ({
    finish: r.choices[0].finishReason,
    usage: { prompt_tokens: r.usage.promptTokens, completion_tokens: r.usage.completionTokens },
    text: typeof r.choices[0].message?.content === 'string' ? r.choices[0].message.content : '',
    calls: (r.choices[0].message?.toolCalls ?? []).map((c) => ({ id: c.id!, name: c.function.name, args: JSON.parse(c.function.arguments as string) })),
  });
  const first = await client.chat.complete({ model: 'mistral-large-latest', tools, messages: [{ role: 'user', content: WEATHER }] });
  const call = first.choices[0].message!.toolCalls![0];
  const second = await client.chat.complete({
    model: 'mistral-large-latest',
    tools,
    messages: [
      { role: 'user', content: WEATHER },
      { role: 'assistant', content: first.choices[0].message!.content as string, toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, name: 'get_weather', content: '21C' },
    ],
  });
  const essay = await client.chat.complete({ model: 'mistral-large-latest', maxTokens: 3, messages: [{ role: 'user', content: 'Write an essay' }] });
  return [first, second, essay].map(turn);
}

async function viaOllama(client: SdkRig['ollama']): Promise<Turn[]> {
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
  const turn = (r: Awaited<ReturnType<typeof client.chat>>): Turn => ({
    finish: r.done_reason,
    usage: { prompt_eval_count: r.prompt_eval_count, eval_count: r.eval_count },
    text: r.message.content,
    // Ollama's tool calls carry no ids.
    calls: (r.message.tool_calls ?? []).map((c) => ({ id: '', name: c.function.name, args: c.function.arguments })),
  });
  const first = await client.chat({ model: 'llama3.2', tools, messages: [{ role: 'user', content: WEATHER }] });
  const second = await client.chat({ model: 'llama3.2', tools, messages: [{ role: 'user', content: WEATHER }, first.message, { role: 'tool', tool_name: 'get_weather', content: '21C' }] });
  const essay = await client.chat({ model: 'llama3.2', options: { num_predict: 3 }, messages: [{ role: 'user', content: 'Write an essay' }] });
  return [first, second, essay].map(turn);
}

describe.each(TRANSPORTS)('one scenario through six chat APIs over %s', (transport) => {
  let rig: SdkRig | undefined;
  let mock: MockLLM;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('renders the same steps in each provider’s own terms', async () => {
    mock = createMockLLM({ scenarios: loadScenarios(SCENARIO_FILE) });
    rig = await startRig(transport, mock);
    const results = {
      chat: await viaChat(rig.openai),
      responses: await viaResponses(rig.openai),
      anthropic: await viaAnthropic(rig.anthropic),
      gemini: await viaGemini(rig.google),
      mistral: await viaMistral(rig.mistral),
      ollama: await viaOllama(rig.ollama),
    };

    // The same canonical content everywhere: text, the tool call (id, name, templated arguments);
    // ids as each API writes them (Mistral's are 9 characters, Ollama's calls have none).
    const ids = { mistral: expect.stringMatching(/^[A-Za-z0-9]{9}$/), ollama: '' } as Record<string, unknown>;
    for (const [api, turns] of Object.entries(results)) {
      expect(turns.map((t) => t.text)).toEqual(['Let me check.', 'It is 21C in Paris.', 'Once upon a']);
      expect(turns[0].calls).toEqual([{ id: ids[api] ?? 'call_w', name: 'get_weather', args: { city: 'Paris' } }]);
      expect(turns[1].calls).toEqual([]);
    }

    // Finish reasons in each provider's vocabulary.
    expect(results.chat.map((t) => t.finish)).toEqual(['tool_calls', 'stop', 'length']);
    expect(results.responses.map((t) => t.finish)).toEqual(['completed', 'completed', 'max_output_tokens']);
    expect(results.anthropic.map((t) => t.finish)).toEqual(['tool_use', 'end_turn', 'max_tokens']);
    expect(results.gemini.map((t) => t.finish)).toEqual([FinishReason.STOP, FinishReason.STOP, FinishReason.MAX_TOKENS]);
    expect(results.mistral.map((t) => t.finish)).toEqual(['tool_calls', 'stop', 'length']);
    expect(results.ollama.map((t) => t.finish)).toEqual(['stop', 'stop', 'length']);

    // Usage in each provider's field names.
    const usage = (input: string, output: string) => [
      { [input]: 40, [output]: 12 },
      { [input]: 60, [output]: 8 },
      { [input]: 5, [output]: 3 },
    ];
    expect(results.chat.map((t) => t.usage)).toEqual(usage('prompt_tokens', 'completion_tokens'));
    expect(results.responses.map((t) => t.usage)).toEqual(usage('input_tokens', 'output_tokens'));
    expect(results.anthropic.map((t) => t.usage)).toEqual(usage('input_tokens', 'output_tokens'));
    expect(results.gemini.map((t) => t.usage)).toEqual(usage('promptTokenCount', 'candidatesTokenCount'));
    expect(results.mistral.map((t) => t.usage)).toEqual(usage('prompt_tokens', 'completion_tokens'));
    expect(results.ollama.map((t) => t.usage)).toEqual(usage('prompt_eval_count', 'eval_count'));

    // Every request was answered by the intended step, and the journal tells the providers apart.
    const answered = mock.requests.map((r) => `${r.provider}:${r.step?.index}`);
    expect(answered).toEqual(
      ['openai', 'openai-responses', 'anthropic', 'gemini', 'mistral', 'ollama'].flatMap((p) => [`${p}:0`, `${p}:1`, `${p}:2`]),
    );
  });
});

/** The cloud-hosted clients (Azure OpenAI, Gemini and Claude on Vertex AI) over one transport. */
async function cloudClients(transport: TransportName, mock: MockLLM) {
  let base: string | undefined;
  let close: () => Promise<void>;
  if (transport === 'msw') {
    const server = setupServer(...mockLLMHandlers(mock));
    server.listen({ onUnhandledFrame: 'error' });
    close = async () => server.close();
  } else {
    const server = await startMockLLMServer({ mock });
    base = server.url;
    close = () => server.close();
  }
  const authClient = staticTokenClient();
  return {
    azure: new AzureOpenAI({ endpoint: base ?? 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: '2025-04-01-preview', maxRetries: 0 }),
    vertexGemini: new GoogleGenAI({ vertexai: true, project: 'ghost-project', location: 'us-central1', googleAuthOptions: { authClient }, httpOptions: base ? { baseUrl: base } : {} }),
    vertexClaude: new AnthropicVertex({ region: 'us-east5', projectId: 'ghost-project', authClient, maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) }),
    close,
  };
}

describe.each(TRANSPORTS)('the same scenario through Azure OpenAI and Vertex AI over %s', (transport) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('renders the same steps in each cloud’s wire, and the journal names the cloud providers', async () => {
    const mock = createMockLLM({ scenarios: loadScenarios(SCENARIO_FILE) });
    const clients = await cloudClients(transport, mock);
    close = clients.close;
    const results = {
      azureChat: await viaChat(clients.azure),
      azureResponses: await viaResponses(clients.azure),
      vertexGemini: await viaGemini(clients.vertexGemini),
      vertexClaude: await viaAnthropic(clients.vertexClaude),
    };
    for (const turns of Object.values(results)) {
      expect(turns.map((t) => t.text)).toEqual(['Let me check.', 'It is 21C in Paris.', 'Once upon a']);
      expect(turns[0].calls).toEqual([{ id: 'call_w', name: 'get_weather', args: { city: 'Paris' } }]);
    }
    expect(results.azureChat.map((t) => t.finish)).toEqual(['tool_calls', 'stop', 'length']);
    expect(results.azureResponses.map((t) => t.finish)).toEqual(['completed', 'completed', 'max_output_tokens']);
    expect(results.vertexGemini.map((t) => t.finish)).toEqual([FinishReason.STOP, FinishReason.STOP, FinishReason.MAX_TOKENS]);
    expect(results.vertexClaude.map((t) => t.finish)).toEqual(['tool_use', 'end_turn', 'max_tokens']);
    expect(results.vertexClaude.map((t) => t.usage)).toEqual([
      { input_tokens: 40, output_tokens: 12 },
      { input_tokens: 60, output_tokens: 8 },
      { input_tokens: 5, output_tokens: 3 },
    ]);
    const answered = mock.requests.map((r) => `${r.provider}:${r.step?.index}`);
    expect(answered).toEqual(['azure-openai', 'azure-openai', 'vertex-gemini', 'vertex-anthropic'].flatMap((p) => [`${p}:0`, `${p}:1`, `${p}:2`]));
  });
});

// Bedrock Converse and Cohere v2 walk the same scenario file through their own SDKs.
const weatherTools = { bedrock: [{ toolSpec: { name: 'get_weather', inputSchema: { json: schema } } }], cohere: [{ type: 'function' as const, function: { name: 'get_weather', parameters: schema } }] };

async function viaBedrock(client: BedrockRuntimeClient): Promise<Turn[]> {
  const modelId = 'anthropic.claude-3-5-haiku-20241022-v1:0';
  const toolConfig = { tools: weatherTools.bedrock };
  const messages: Message[] = [{ role: 'user', content: [{ text: WEATHER }] }];
  const turn = (r: ConverseCommandOutput): Turn => ({
    finish: r.stopReason,
    usage: { inputTokens: r.usage?.inputTokens, outputTokens: r.usage?.outputTokens },
    text: (r.output?.message?.content ?? []).map((b) => b.text ?? '').join(''),
    calls: (r.output?.message?.content ?? []).flatMap((b) => (b.toolUse ? [{ id: b.toolUse.toolUseId!, name: b.toolUse.name!, args: b.toolUse.input }] : [])),
  });
  const first = await client.send(new ConverseCommand({ modelId, toolConfig, messages }));
  const use = first.output!.message!.content!.find((b) => b.toolUse)!.toolUse!;
  messages.push(first.output!.message!, { role: 'user', content: [{ toolResult: { toolUseId: use.toolUseId, content: [{ text: '21C' }] } }] });
  const second = await client.send(new ConverseCommand({ modelId, toolConfig, messages }));
  const essay = await client.send(new ConverseCommand({ modelId, inferenceConfig: { maxTokens: 3 }, messages: [{ role: 'user', content: [{ text: 'Write an essay' }] }] }));
  return [first, second, essay].map(turn);
}

async function viaCohere(client: CohereClientV2): Promise<Turn[]> {
  const model = 'command-a-03-2025';
  const tools = weatherTools.cohere;
  const messages: Cohere.ChatMessageV2[] = [{ role: 'user', content: WEATHER }];
  const turn = (r: Cohere.V2ChatResponse): Turn => ({
    finish: r.finishReason,
    usage: { input_tokens: r.usage?.tokens?.inputTokens, output_tokens: r.usage?.tokens?.outputTokens },
    // With tool calls Cohere's text is the tool plan.
    text: (r.message.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('') || (r.message.toolPlan ?? ''),
    calls: (r.message.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function!.name!, args: JSON.parse(c.function!.arguments!) })),
  });
  const first = await client.chat({ model, tools, messages });
  const call = first.message.toolCalls![0];
  messages.push({ role: 'assistant', toolPlan: first.message.toolPlan, toolCalls: first.message.toolCalls }, { role: 'tool', toolCallId: call.id, content: '21C' });
  const second = await client.chat({ model, tools, messages });
  const essay = await client.chat({ model, maxTokens: 3, messages: [{ role: 'user', content: 'Write an essay' }] });
  return [first, second, essay].map(turn);
}

describe.each(TRANSPORTS)('the same scenario through Bedrock Converse and Cohere v2 over %s', (transport) => {
  it('renders the same steps in each provider’s own terms', async () => {
    const mock = createMockLLM({ scenarios: loadScenarios(SCENARIO_FILE) });
    const msw = transport === 'msw' ? setupServer(...mockLLMHandlers(mock)) : undefined;
    msw?.listen({ onUnhandledFrame: 'error' });
    const server = transport === 'port' ? await startMockLLMServer({ mock }) : undefined;
    try {
      const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };
      const bedrock = new BedrockRuntimeClient({ region: 'us-east-1', credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1, ...(server ? { endpoint: server.url } : {}) });
      const cohere = new CohereClientV2({ token: 'co-test', maxRetries: 0, ...(server ? { baseUrl: server.url } : {}) });
      const results = { bedrock: await viaBedrock(bedrock), cohere: await viaCohere(cohere) };
      for (const turns of Object.values(results)) {
        expect(turns.map((t) => t.text)).toEqual(['Let me check.', 'It is 21C in Paris.', 'Once upon a']);
        expect(turns[0].calls).toEqual([{ id: 'call_w', name: 'get_weather', args: { city: 'Paris' } }]);
        expect(turns[1].calls).toEqual([]);
      }
      expect(results.bedrock.map((t) => t.finish)).toEqual(['tool_use', 'end_turn', 'max_tokens']);
      expect(results.cohere.map((t) => t.finish)).toEqual(['TOOL_CALL', 'COMPLETE', 'MAX_TOKENS']);
      const usage = (input: string, output: string) => [
        { [input]: 40, [output]: 12 },
        { [input]: 60, [output]: 8 },
        { [input]: 5, [output]: 3 },
      ];
      expect(results.bedrock.map((t) => t.usage)).toEqual(usage('inputTokens', 'outputTokens'));
      expect(results.cohere.map((t) => t.usage)).toEqual(usage('input_tokens', 'output_tokens'));
      expect(mock.requests.map((r) => `${r.provider}:${r.step?.index}`)).toEqual(['bedrock', 'cohere'].flatMap((p) => [`${p}:0`, `${p}:1`, `${p}:2`]));
    } finally {
      msw?.close();
      await server?.close();
    }
  });
});
