import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';
import { openAIChatReader } from './reader.ts';
import { capturingFetch, sseData } from '../testing/capture.ts';
import { validateOpenAI } from '../testing/openapi.ts';

// Reasoning on Chat Completions (issue 25): reasoning token counts for reasoning models,
// `reasoning_content` for OpenAI-compatible servers' models, and the tool-pairing protocol rules,
// each rule with its rejected and its accepted case; over MSW and the real port.

const ask = (content: string): OpenAI.Chat.ChatCompletionMessageParam[] => [{ role: 'user', content }];
const weatherTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const call = (id: string): OpenAI.Chat.ChatCompletionMessageToolCall => ({ id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });

describe.each(TRANSPORTS)('OpenAI Chat reasoning over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  it("reports a reasoning model's reasoning tokens in completion_tokens_details, and no reasoning text (OpenAI hides it)", async () => {
    mock.use(scenario('think').respondWithReasoning('The user wants a greeting.').respondWithText('Hello!').withUsage({ inputTokens: 9, outputTokens: 40, reasoningTokens: 32 }));
    const completion = await rig.openai.chat.completions.create({ model: 'o4-mini', messages: ask('hi'), reasoning_effort: 'low' });
    expect(completion.choices[0].message.content).toBe('Hello!');
    expect(completion.usage?.completion_tokens).toBe(40);
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(32);
    expect(completion.choices[0].message).not.toHaveProperty('reasoning_content');
  });

  it('estimates reasoning tokens from the reasoning text when the step gives no usage, streaming with include_usage', async () => {
    mock.use(scenario('think').respondWithReasoning('Think about it step by step, carefully and at length.').respondWithText('Done.'));
    const stream = await rig.openai.chat.completions.create({ model: 'gpt-5-mini', messages: ask('go'), stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | null | undefined;
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Done.');
    const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
    expect(reasoning).toBeGreaterThan(0);
    expect(usage!.completion_tokens).toBeGreaterThan(reasoning);
  });

  it('reports no reasoning tokens for a chat model that does not reason (gpt-4o), as the API does', async () => {
    mock.use(scenario('think').respondWithReasoning('ignored').respondWithText('Hi.').withUsage({ inputTokens: 3, outputTokens: 2, reasoningTokens: 5 }));
    const completion = await rig.openai.chat.completions.create({ model: 'gpt-4o', messages: ask('hi') });
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
  });

  it("sends reasoning_content for an OpenAI-compatible server's model (DeepSeek), streaming and not", async () => {
    mock.use(scenario('r1').respondWithReasoning('First, 2 + 2 is 4.').respondWithText('4').asStream({ chunkSize: 4 }).times(2));
    const completion = await rig.openai.chat.completions.create({ model: 'deepseek-reasoner', messages: ask('2+2?') });
    const message = completion.choices[0].message as OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string };
    expect(message.reasoning_content).toBe('First, 2 + 2 is 4.');
    expect(message.content).toBe('4');
    const stream = await rig.openai.chat.completions.create({ model: 'deepseek-reasoner', messages: ask('2+2?'), stream: true });
    let reasoning = '';
    let content = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
      if (delta?.reasoning_content) {
        // Reasoning streams before the answer, as DeepSeek sends it.
        expect(content).toBe('');
        reasoning += delta.reasoning_content;
      }
      content += delta?.content ?? '';
    }
    expect(reasoning).toBe('First, 2 + 2 is 4.');
    expect(content).toBe('4');
  });

  it('refuses an assistant tool call left without a tool message (rule openai.tool-calls-without-results), and accepts it answered', async () => {
    mock.use(scenario('loop').respondWithText('It is sunny.').persistent());
    const err = await rig.openai.chat.completions
      .create({ model: 'o4-mini', messages: [...ask('weather?'), { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] }, { role: 'tool', tool_call_id: 'call_1', content: '21C' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toBe(
      "400 An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
    );
    expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'messages.[1].role', code: null });
    expect(mock.requests[0].violation).toEqual({ rule: 'openai.tool-calls-without-results', doc: 'https://developers.openai.com/api/docs/guides/function-calling' });

    const ok = await rig.openai.chat.completions.create({
      model: 'o4-mini',
      tools: [weatherTool],
      messages: [
        ...ask('weather?'),
        { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] },
        { role: 'tool', tool_call_id: 'call_2', content: '21C' },
        { role: 'tool', tool_call_id: 'call_1', content: '22C' },
      ],
    });
    expect(ok.choices[0].message.content).toBe('It is sunny.');
  });

  it('refuses a tool message that answers no preceding tool call (rule openai.tool-result-without-call), and accepts one that does', async () => {
    mock.use(scenario('loop').respondWithText('ok').persistent());
    const err = await rig.openai.chat.completions.create({ model: 'gpt-4o', messages: [...ask('x'), { role: 'tool', tool_call_id: 'call_9', content: 'r' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toBe("400 Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
    expect(err.error).toMatchObject({ param: 'messages.[1].role', type: 'invalid_request_error' });
    expect(mock.requests[0].violation?.rule).toBe('openai.tool-result-without-call');
    const ok = await rig.openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [...ask('x'), { role: 'assistant', content: null, tool_calls: [call('call_9')] }, { role: 'tool', tool_call_id: 'call_9', content: 'r' }],
    });
    expect(ok.choices[0].message.content).toBe('ok');
  });

  it('answers a conversation that breaks the rules when a scenario turns them off', async () => {
    mock.use(scenario('lenient').protocolRules(false).respondWithText('fine'));
    const completion = await rig.openai.chat.completions.create({ model: 'gpt-4o', messages: [...ask('x'), { role: 'assistant', content: null, tool_calls: [call('call_1')] }, ...ask('and?')] });
    expect(completion.choices[0].message.content).toBe('fine');
    expect(mock.requests[0].violation).toBeUndefined();
  });
});

describe('OpenAI Chat reasoning on the wire', () => {
  it('streams spec-valid chunks with reasoning_content first, and the reader sees reasoning, refusal and reasoning tokens', async () => {
    const mock = createMockLLM({ scenarios: [scenario('r1').respondWithReasoning('Because.').respondWithText('Yes').withUsage({ inputTokens: 2, outputTokens: 6, reasoningTokens: 4 }).times(2)] });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    const client = new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 });
    await client.chat.completions.create({ model: 'qwen3-32b', messages: ask('x') });
    const body = JSON.parse(await exchanges[0].body);
    expect(validateOpenAI('CreateChatCompletionResponse', body)).toEqual([]);
    expect(openAIChatReader.answer(body)).toMatchObject({ text: 'Yes', reasoning: 'Because.', usage: { inputTokens: 2, outputTokens: 6, reasoningTokens: 4 } });
    const stream = await client.chat.completions.create({ model: 'qwen3-32b', messages: ask('x'), stream: true, stream_options: { include_usage: true } });
    for await (const _ of stream);
    const frames = (await exchanges[1].body).split(/(?<=\n\n)/);
    const chunks = sseData(await exchanges[1].body).slice(0, -1).map((d) => JSON.parse(d));
    for (const chunk of chunks) expect(validateOpenAI('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    expect(chunks.filter((c) => c.choices.length > 0).map((c) => c.choices[0].delta)).toEqual([
      { role: 'assistant', content: null, reasoning_content: '', refusal: null },
      { reasoning_content: 'Because.' },
      { content: 'Yes' },
      {},
    ]);
    expect(openAIChatReader.streamedAnswer(frames)).toMatchObject({ text: 'Yes', reasoning: 'Because.', usage: { reasoningTokens: 4 } });
    expect(openAIChatReader.answer({ choices: [{ message: { content: null, refusal: 'No.' } }] }).refusal).toBe('No.');
  });
});
