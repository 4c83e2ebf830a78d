/**
 * A Claude agent with extended thinking, tested as it runs: the mock answers with a signed thinking
 * block before the tool call, and refuses (as the real API does, with its 400) the next request of an
 * agent that drops or edits that block instead of passing it back. Structured answers come back
 * through `messages.parse()`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import * as z from 'zod/v4';
import { describe, expect } from 'vitest';
import { anthropic, scenario } from 'ghostwire';
import { test, useMockLLM } from 'ghostwire/vitest';

const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];

// The code under test: a tool loop with thinking on. `keepThinking: false` is the classic bug.
async function thinkingAgent(client: Anthropic, question: string, { keepThinking = true } = {}): Promise<{ answer: string; thoughts: string[] }> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }];
  const thoughts: string[] = [];
  for (;;) {
    const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, tools, messages });
    for (const block of message.content) if (block.type === 'thinking') thoughts.push(block.thinking);
    if (message.stop_reason !== 'tool_use') return { answer: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''), thoughts };
    messages.push({ role: 'assistant', content: keepThinking ? message.content : message.content.filter((b) => b.type !== 'thinking') });
    const results = message.content.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: '21°C' }] : []));
    messages.push({ role: 'user', content: results });
  }
}

const weather = () =>
  scenario('weather')
    .expect(anthropic())
    .then()
    .respondWithReasoning('The user wants the weather in Paris: call get_weather.')
    .respondWithToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }])
    .expect(anthropic())
    .withToolResults(['get_weather'])
    .then()
    .respondWithText('It is 21°C in Paris.');

describe('a Claude agent with extended thinking', () => {
  test('passes its thinking back through the tool loop', async () => {
    const mock = useMockLLM(weather());
    const { answer, thoughts } = await thinkingAgent(new Anthropic({ apiKey: 'sk-ant-test' }), 'Weather in Paris?');
    expect(answer).toBe('It is 21°C in Paris.');
    expect(thoughts).toEqual(['The user wants the weather in Paris: call get_weather.']);
    mock.assertAllConsumed();
  });

  test('that drops its thinking block gets the API 400, and the journal names the rule', async () => {
    const mock = useMockLLM(weather());
    const error = await thinkingAgent(new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 }), 'Weather in Paris?', { keepThinking: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('Expected `thinking` or `redacted_thinking`, but found `tool_use`');
    expect(mock.requests[1].violation?.rule).toBe('anthropic.thinking-block-first');
  });

  test('gets a structured answer through messages.parse()', async () => {
    useMockLLM(scenario('extract').respondWithJson({ city: 'Paris', tempC: 21 }));
    const client = new Anthropic({ apiKey: 'sk-ant-test' });
    const format = zodOutputFormat(z.object({ city: z.string(), tempC: z.number() }));
    const message = await client.messages.parse({ model: 'claude-sonnet-4-6', max_tokens: 512, messages: [{ role: 'user', content: 'Paris weather as JSON' }], output_config: { format } });
    expect(message.parsed_output).toEqual({ city: 'Paris', tempC: 21 });
  });
});
