// LangChain (@langchain/openai, @langchain/anthropic) against the mock in-process, as its users call it:
// withStructuredOutput returns the scripted object (json_schema on OpenAI, a forced tool on Anthropic),
// and reasoning shows up where LangChain's types expose it (the message's standard `reasoning` blocks,
// Anthropic's thinking blocks with their signatures), a thinking tool loop included.
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropic, openai, openaiResponses, scenario } from '../scenario/builder.ts';
import { useMockLLM } from '../vitest/use-mock-llm.ts';

const Weather = z.object({ city: z.string(), temperature: z.number() });
const PARIS = { city: 'Paris', temperature: 21 };
const THOUGHT = 'Paris is asked; the tool knows the weather.';

describe('LangChain withStructuredOutput', () => {
  it('ChatOpenAI: the scripted object, through response_format json_schema', async () => {
    const mock = useMockLLM(scenario('lc-extract').expect(openai()).withResponseFormat('weather').then().respondWithJson(PARIS));
    const model = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'sk-lc-test' }).withStructuredOutput(Weather, { name: 'weather' });
    expect(await model.invoke('Weather in Paris?')).toEqual(PARIS);
    mock.assertAllConsumed();
  });

  it('ChatOpenAI with method functionCalling: the scripted object, as the forced tool\'s call', async () => {
    const mock = useMockLLM(scenario('lc-extract-tool').expect(openai()).withResponseFormat('weather').then().respondWithJson(PARIS));
    const model = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'sk-lc-test' }).withStructuredOutput(Weather, { name: 'weather', method: 'functionCalling' });
    expect(await model.invoke('Weather in Paris?')).toEqual(PARIS);
    expect((mock.requests[0].request!.raw as { tool_choice: unknown }).tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
  });

  it('ChatAnthropic: the scripted object, through the forced tool LangChain asks for', async () => {
    useMockLLM(scenario('lc-extract-claude').expect(anthropic()).then().respondWithJson(PARIS));
    const model = new ChatAnthropic({ model: 'claude-sonnet-4-6', apiKey: 'sk-ant-lc-test' }).withStructuredOutput(Weather, { name: 'weather' });
    expect(await model.invoke('Weather in Paris?')).toEqual(PARIS);
  });
});

describe('LangChain sees reasoning', () => {
  it('ChatAnthropic with thinking: a thinking block with its signature, and a standard reasoning block', async () => {
    useMockLLM(scenario('lc-think').expect(anthropic()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny.'));
    const model = new ChatAnthropic({ model: 'claude-sonnet-4-6', apiKey: 'sk-ant-lc-test', maxTokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 } });
    const message = await model.invoke('Weather in Paris?');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: THOUGHT, signature: expect.any(String) },
      expect.objectContaining({ type: 'text', text: 'Sunny.' }),
    ]);
    expect(message.contentBlocks.filter((b) => b.type === 'reasoning')).toEqual([expect.objectContaining({ reasoning: THOUGHT })]);
  });

  it('ChatAnthropic thinking tool loop: the AIMessage passed back keeps its signed thinking, and the mock (rules on) answers', async () => {
    const mock = useMockLLM(
      scenario('lc-think-loop')
        .expect(anthropic()).then().respondWithReasoning(THOUGHT).respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
        .expect(anthropic()).withToolResults(['get_weather']).then().respondWithText('21°C in Paris.'),
    );
    const model = new ChatAnthropic({ model: 'claude-sonnet-4-6', apiKey: 'sk-ant-lc-test', maxTokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 } }).bindTools([
      { name: 'get_weather', description: 'Weather for a city', schema: z.object({ city: z.string() }) },
    ]);
    const question = new HumanMessage('Weather in Paris?');
    const first = await model.invoke([question]);
    expect(first.tool_calls).toMatchObject([{ name: 'get_weather', args: { city: 'Paris' } }]);
    const answer = await model.invoke([question, first as AIMessage, new ToolMessage({ tool_call_id: first.tool_calls![0].id!, content: '{"celsius":21}' })]);
    expect(answer.content).toBe('21°C in Paris.');
    expect(mock.requests.map((r) => r.violation)).toEqual([undefined, undefined]);
    const passedBack = (mock.requests[1].request!.raw as { messages: Array<{ role: string; content: Array<{ type: string }> }> }).messages.find((m) => m.role === 'assistant')!;
    expect(passedBack.content[0]).toMatchObject({ type: 'thinking', thinking: THOUGHT, signature: expect.any(String) });
  });

  it('ChatOpenAI on the Responses API with a reasoning summary: a standard reasoning block', async () => {
    useMockLLM(scenario('lc-rs').expect(openaiResponses()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny.'));
    const model = new ChatOpenAI({ model: 'o4-mini', apiKey: 'sk-lc-test', useResponsesApi: true, reasoning: { effort: 'low', summary: 'auto' } });
    const message = await model.invoke('Weather in Paris?');
    expect(message.contentBlocks.filter((b) => b.type === 'reasoning').map((b) => b.reasoning).join('')).toBe(THOUGHT);
    expect(message.text).toBe('Sunny.');
  });
});
