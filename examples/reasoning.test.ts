/**
 * Testing a thinking-enabled tool loop. The scenario scripts Claude's reasoning beside its tool call;
 * the mock renders it as a signed `thinking` block (only because the request turns thinking on) and,
 * like the real API, refuses the next request if the loop did not pass that block back unchanged.
 * The same scenario works for OpenAI's Responses API (reasoning items, encrypted content), Gemini
 * (thought parts, thoughtSignature) and Bedrock (reasoningContent): each renders it its own way.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect } from 'vitest';
import { anthropic, scenario } from 'ghostwire';
import { test, useMockLLM } from 'ghostwire/vitest';

const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];

// The code under test: an agent that shows its "thinking" panel and runs tools until Claude answers.
async function thinkingAgent(client: Anthropic, question: string): Promise<{ answer: string; thinking: string[] }> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }];
  const thinking: string[] = [];
  for (;;) {
    const reply = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, tools, messages });
    for (const block of reply.content) if (block.type === 'thinking') thinking.push(block.thinking);
    const calls = reply.content.filter((b) => b.type === 'tool_use');
    if (calls.length === 0) {
      const answer = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      return { answer, thinking };
    }
    // The whole assistant turn goes back: the thinking block (and its signature) before the tool_use.
    messages.push({ role: 'assistant', content: reply.content });
    messages.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: JSON.stringify({ tempC: 21 }) })) });
  }
}

const forecast = scenario('forecast')
  .expect(anthropic())
  .then()
  .respondWithReasoning('The user wants the weather in Paris. I should call get_weather.')
  .respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
  .expect(anthropic())
  .withToolResults(['get_weather'])
  .then()
  .respondWithText('It is 21°C in Paris.');

describe('a thinking-enabled tool loop', () => {
  test('shows each turn\'s thinking and answers after the tool call', async () => {
    const mock = useMockLLM(forecast);
    const { answer, thinking } = await thinkingAgent(new Anthropic({ apiKey: 'sk-ant-test' }), 'Weather in Paris?');
    expect(answer).toBe('It is 21°C in Paris.');
    // Claude thinks once per turn with a thinking budget: the tool result continues that turn.
    expect(thinking).toEqual(['The user wants the weather in Paris. I should call get_weather.']);
    mock.assertAllConsumed();
    // The journal shows what each answer carried.
    expect(mock.requests[0].reasoning).toMatchObject({ text: 'The user wants the weather in Paris. I should call get_weather.' });
  });

  test('a loop that drops the thinking block gets the 400 Claude would send', async () => {
    useMockLLM(forecast);
    const client = new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 });
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const request = { model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 2048 }, tools };
    const first = await client.messages.create({ ...request, messages: [question] });
    const call = first.content.find((b) => b.type === 'tool_use')!;
    const withoutThinking = first.content.filter((b) => b.type !== 'thinking');
    const error = await client.messages
      .create({ ...request, messages: [question, { role: 'assistant', content: withoutThinking }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21' }] }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  });
});
