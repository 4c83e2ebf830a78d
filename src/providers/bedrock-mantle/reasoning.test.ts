/**
 * Claude in Bedrock's Mantle endpoint with thinking, through `AnthropicBedrockMantle`: Anthropic's
 * Messages API as is, so the same signed thinking blocks and rules.
 */
import { AnthropicBedrockMantle } from '@anthropic-ai/bedrock-sdk';
import type Anthropic from '@anthropic-ai/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';

const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('Claude in Bedrock (Mantle) with thinking over MSW', () => {
  const mock = createMockLLM({
    scenarios: [{ name: 'loop', steps: [{ respond: { reasoning: 'Look it up.', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] } }, { respond: { text: 'Found.' } }] }],
  });
  const msw = setupServer(...mockLLMHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());

  it('signs thinking, refuses an altered block, accepts the intact one', async () => {
    const client = new AnthropicBedrockMantle({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDMANTLETEST', awsSecretAccessKey: 'mantle-secret', maxRetries: 0 });
    const tools: Anthropic.Tool[] = [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }];
    const params = { model: MODEL, max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools };
    const user: Anthropic.MessageParam = { role: 'user', content: 'find x' };
    const first = await client.messages.create({ ...params, messages: [user] });
    const [thinking, use] = first.content as [Anthropic.ThinkingBlock, Anthropic.ToolUseBlock];
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Look it up.' });
    expect(use.id).toMatch(/^toolu_bdrk_01/);
    const result: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'x is 1' }] };
    const altered = await client.messages
      .create({ ...params, messages: [user, { role: 'assistant', content: [{ ...thinking, thinking: 'Look it up!' }, use] }, result] })
      .catch((e: unknown) => e as Error);
    expect((altered as Error).message).toContain('messages.1.content.0: Invalid `signature` in `thinking` block');
    const second = await client.messages.create({ ...params, messages: [user, { role: 'assistant', content: first.content }, result] });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'Found.' });
  });

  it('counts no thinking in output_tokens without thinking on, and counts it with thinking on', async () => {
    const client = new AnthropicBedrockMantle({ awsRegion: 'us-east-1', awsAccessKey: 'AKIDMANTLETEST', awsSecretAccessKey: 'mantle-secret', maxRetries: 0 });
    const params = { model: MODEL, max_tokens: 4096, messages: [{ role: 'user' as const, content: 'hi' }] };
    mock.use(
      { name: 'plain', steps: [{ respond: { text: 'Hello.' } }] },
      { name: 'think', steps: [{ respond: { reasoning: 'Weigh what the user asked, then answer briefly.', text: 'Hello.' } }, { respond: { reasoning: 'Weigh what the user asked, then answer briefly.', text: 'Hello.' } }] },
    );
    const base = await client.messages.create(params);
    const off = await client.messages.stream(params).finalMessage();
    expect(off.content.map((b) => b.type)).toEqual(['text']);
    expect(off.usage.output_tokens).toBe(base.usage.output_tokens);
    const on = await client.messages.create({ ...params, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(on.usage.output_tokens).toBe(base.usage.output_tokens + on.usage.output_tokens_details!.thinking_tokens);
    expect(on.usage.output_tokens_details!.thinking_tokens).toBeGreaterThan(0);
  });
});
