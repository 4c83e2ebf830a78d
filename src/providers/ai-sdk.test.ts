// The AI SDK (`ai` with @ai-sdk/openai, @ai-sdk/anthropic, @ai-sdk/google) against the mock in-process,
// called exactly as its users call it: scripted reasoning comes back as the SDK's own reasoning
// (result.reasoningText, reasoning stream parts, reasoning token counts) when asked for through
// providerOptions, a thinking-enabled tool loop passes the mock's protocol rules, and
// generateObject/streamObject return the scripted or generated object.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, generateText, stepCountIs, streamObject, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropic as onAnthropic, gemini as onGemini, openai as onOpenAI, openaiResponses, scenario } from '../scenario/builder.ts';
import { useMockLLM } from '../vitest/use-mock-llm.ts';

const openai = createOpenAI({ apiKey: 'sk-ai-sdk-test' });
const anthropic = createAnthropic({ apiKey: 'sk-ant-ai-sdk-test' });
const google = createGoogleGenerativeAI({ apiKey: 'ai-sdk-test' });

const THOUGHT = 'The user asks for Paris; the forecast tool knows.';
const thinking = { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } } as const;

describe('the AI SDK sees scripted reasoning as its own types expose it', () => {
  it('Anthropic with thinking on: reasoningText, a reasoning part with its signature, then the text', async () => {
    const mock = useMockLLM(scenario('think').expect(onAnthropic()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny in Paris.'));
    const result = await generateText({ model: anthropic('claude-sonnet-4-6'), prompt: 'Weather in Paris?', providerOptions: thinking });
    expect(result.reasoningText).toBe(THOUGHT);
    expect(result.reasoning).toHaveLength(1);
    expect(result.reasoning[0]).toMatchObject({ type: 'reasoning', text: THOUGHT, providerMetadata: { anthropic: { signature: expect.any(String) } } });
    expect(result.text).toBe('Sunny in Paris.');
    mock.assertAllConsumed();
  });

  it('Anthropic streamed: reasoning-start, reasoning-delta and reasoning-end parts before the text', async () => {
    useMockLLM(scenario('think-stream').expect(onAnthropic()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny in Paris.'));
    const result = streamText({ model: anthropic('claude-sonnet-4-6'), prompt: 'Weather in Paris?', providerOptions: thinking });
    const parts: Array<{ type: string; text?: string }> = [];
    for await (const part of result.fullStream) parts.push(part as { type: string; text?: string });
    const types = parts.map((p) => p.type);
    expect(types).toContain('reasoning-start');
    expect(types.indexOf('reasoning-end')).toBeLessThan(types.indexOf('text-start'));
    expect(parts.filter((p) => p.type === 'reasoning-delta').map((p) => p.text).join('')).toBe(THOUGHT);
    expect(await result.reasoningText).toBe(THOUGHT);
    expect(await result.text).toBe('Sunny in Paris.');
  });

  it('Anthropic without thinking asked: no reasoning (as the real API sends none)', async () => {
    useMockLLM(scenario('no-think').expect(onAnthropic()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny.'));
    const result = await generateText({ model: anthropic('claude-sonnet-4-6'), prompt: 'Weather?' });
    expect(result.reasoning).toEqual([]);
    expect(result.reasoningText).toBeUndefined();
    expect(result.text).toBe('Sunny.');
  });

  it('a thinking-enabled Anthropic tool loop: the SDK passes the signed thinking back and the mock, rules on, answers', async () => {
    const mock = useMockLLM(
      scenario('think-loop')
        .expect(onAnthropic()).then().respondWithReasoning(THOUGHT).respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
        .expect(onAnthropic()).withToolResults(['get_weather']).then().respondWithReasoning('21°C came back.').respondWithText('It is 21°C in Paris.'),
    );
    const result = await generateText({
      model: anthropic('claude-sonnet-4-6'),
      prompt: 'Weather in Paris?',
      providerOptions: thinking,
      tools: { get_weather: tool({ description: 'Weather for a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, celsius: 21 }) }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('It is 21°C in Paris.');
    // Without interleaved thinking Claude thinks once per turn: the tool result continues it, so step 2 shows none.
    expect(result.steps.map((s) => s.reasoningText)).toEqual([THOUGHT, undefined]);
    mock.assertAllConsumed();
    expect(mock.requests.map((r) => r.violation)).toEqual([undefined, undefined]);
    const passedBack = (mock.requests[1].request!.raw as { messages: Array<{ role: string; content: Array<{ type: string }> }> }).messages.find((m) => m.role === 'assistant')!;
    expect(passedBack.content[0]).toMatchObject({ type: 'thinking', thinking: THOUGHT, signature: expect.any(String) });
  });

  it('OpenAI Responses with a reasoning summary asked: reasoningText and the reasoning token count', async () => {
    useMockLLM(scenario('rs').expect(openaiResponses()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny.').withUsage({ inputTokens: 12, outputTokens: 40, reasoningTokens: 32 }));
    const result = await generateText({ model: openai('o4-mini'), prompt: 'Weather?', providerOptions: { openai: { reasoningSummary: 'auto', reasoningEffort: 'low' } } });
    expect(result.reasoningText).toBe(THOUGHT);
    expect(result.usage.outputTokenDetails.reasoningTokens).toBe(32);
    expect(result.text).toBe('Sunny.');
  });

  it('OpenAI Responses streamed: the summary arrives as reasoning-delta parts before the text', async () => {
    useMockLLM(scenario('rs-stream').expect(openaiResponses()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny.'));
    const result = streamText({ model: openai('o4-mini'), prompt: 'Weather?', providerOptions: { openai: { reasoningSummary: 'auto' } } });
    const parts: Array<{ type: string; text?: string }> = [];
    for await (const part of result.fullStream) parts.push(part as { type: string; text?: string });
    const types = parts.map((p) => p.type);
    expect(parts.filter((p) => p.type === 'reasoning-delta').map((p) => p.text).join('')).toBe(THOUGHT);
    expect(types.lastIndexOf('reasoning-delta')).toBeLessThan(types.indexOf('text-delta'));
    expect(await result.text).toBe('Sunny.');
  });

  it('a stateless OpenAI Responses tool loop (store: false): the SDK passes the encrypted reasoning back and the mock answers', async () => {
    const mock = useMockLLM(
      scenario('rs-loop')
        .expect(openaiResponses()).then().respondWithReasoning(THOUGHT).respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
        .expect(openaiResponses()).withToolResults(['get_weather']).then().respondWithText('It is 21°C in Paris.'),
    );
    const result = await generateText({
      model: openai('o4-mini'),
      prompt: 'Weather in Paris?',
      providerOptions: { openai: { store: false, reasoningSummary: 'auto', include: ['reasoning.encrypted_content'] } },
      tools: { get_weather: tool({ description: 'Weather for a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, celsius: 21 }) }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('It is 21°C in Paris.');
    expect(result.steps[0].reasoningText).toBe(THOUGHT);
    mock.assertAllConsumed();
    expect(mock.requests.map((r) => r.violation)).toEqual([undefined, undefined]);
    const input = (mock.requests[1].request!.raw as { input: Array<{ type?: string; encrypted_content?: string }> }).input;
    expect(input.filter((i) => i.type === 'reasoning')).toEqual([expect.objectContaining({ encrypted_content: expect.any(String) })]);
  });

  it('Gemini with includeThoughts: thought parts are the reasoning, the rest is the text', async () => {
    useMockLLM(scenario('thoughts').expect(onGemini()).then().respondWithReasoning(THOUGHT).respondWithText('Sunny.'));
    const result = await generateText({ model: google('gemini-2.5-flash'), prompt: 'Weather?', providerOptions: { google: { thinkingConfig: { includeThoughts: true } } } });
    expect(result.reasoningText).toBe(THOUGHT);
    expect(result.text).toBe('Sunny.');
  });
});

const Weather = z.object({ city: z.string(), temperature: z.number(), sky: z.enum(['sunny', 'cloudy', 'rain']) });
const PARIS = { city: 'Paris', temperature: 21, sky: 'sunny' as const };

describe('generateObject and streamObject return the structured answer', () => {
  it('generateObject over OpenAI Chat (json_schema): the scripted object', async () => {
    const mock = useMockLLM(scenario('extract').expect(onOpenAI()).withResponseFormat('weather').then().respondWithJson(PARIS));
    const { object } = await generateObject({ model: openai.chat('gpt-4o'), schema: Weather, schemaName: 'weather', prompt: 'Weather in Paris?' });
    expect(object).toEqual(PARIS);
    mock.assertAllConsumed();
  });

  it('streamObject over OpenAI Responses: partial objects, then the whole one', async () => {
    useMockLLM(scenario('extract-stream').expect(openaiResponses()).withResponseFormat(true).then().respondWithJson(PARIS));
    const result = streamObject({ model: openai('gpt-4o'), schema: Weather, prompt: 'Weather in Paris?' });
    const partials: unknown[] = [];
    for await (const partial of result.partialObjectStream) partials.push(partial);
    expect(partials.length).toBeGreaterThan(0);
    expect(partials.at(-1)).toEqual(PARIS);
    expect(await result.object).toEqual(PARIS);
  });

  it('generateObject over Anthropic: the object the SDK asked for', async () => {
    useMockLLM(scenario('extract-claude').expect(onAnthropic()).then().respondWithJson(PARIS));
    const { object } = await generateObject({ model: anthropic('claude-sonnet-4-6'), schema: Weather, prompt: 'Weather in Paris?' });
    expect(object).toEqual(PARIS);
  });

  it('generateObject over Gemini (responseSchema): the scripted object', async () => {
    useMockLLM(scenario('extract-gemini').expect(onGemini()).then().respondWithJson(PARIS));
    const { object } = await generateObject({ model: google('gemini-2.5-flash'), schema: Weather, prompt: 'Weather in Paris?' });
    expect(object).toEqual(PARIS);
  });

  it('a generated answer fits the schema the SDK sent, and the same seed gives the same object', async () => {
    const run = async () => {
      useMockLLM(scenario('generated').expect(onOpenAI()).then().respondWithGeneratedJson({ seed: 7 }));
      return (await generateObject({ model: openai.chat('gpt-4o'), schema: Weather, prompt: 'Any weather' })).object;
    };
    const first = await run();
    expect(Weather.parse(first)).toEqual(first);
    expect(await run()).toEqual(first);
  });
});
