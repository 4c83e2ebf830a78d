/**
 * Claude on Vertex AI with thinking and structured outputs through @anthropic-ai/vertex-sdk: the same
 * signed thinking blocks, rules and `messages.parse()` as Anthropic's API, under rawPredict/streamRawPredict.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import type { ScenarioInput } from '../../scenario/schema.ts';
import { capturingFetch } from '../testing/capture.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

const MODEL = 'claude-sonnet-4-6';
const weather: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const user: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };

function vertex(scenarios: ScenarioInput[]) {
  const mock = createMockLLM({ scenarios });
  const { fetch } = capturingFetch(mock.handle);
  return { mock, client: new AnthropicVertex({ region: 'us-east5', projectId: 'ghost-project', authClient: staticTokenClient(), fetch, maxRetries: 0 }) };
}

describe('Claude on Vertex: thinking and structured outputs', () => {
  it('streams a signed thinking block; the loop passing it back is accepted, one that drops it is refused', async () => {
    const { mock, client } = vertex([
      {
        name: 'loop',
        steps: [{ respond: { reasoning: 'Call the tool.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } }, { respond: { text: 'Warm.' } }],
      },
    ]);
    const params = { model: MODEL, max_tokens: 4096, thinking: { type: 'adaptive' as const }, tools: [weather] };
    const first = await client.messages.stream({ ...params, messages: [user] }).finalMessage();
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: 'Call the tool.', signature: expect.any(String) });
    const use = first.content.find((b) => b.type === 'tool_use')!;
    expect(use.id).toMatch(/^toolu_vrtx_01/);
    const result: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21C' }] };
    const dropped = await client.messages.create({ ...params, messages: [user, { role: 'assistant', content: [use] }, result] }).catch((e: unknown) => e as Error);
    expect((dropped as Error).message).toContain('messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`');
    expect(mock.requests[1].violation?.rule).toBe('anthropic.thinking-block-first');
    const second = await client.messages.create({ ...params, messages: [user, { role: 'assistant', content: first.content }, result] });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'Warm.' });
  });

  it('counts no thinking in output_tokens without thinking on (streamed too), and counts it with thinking on', async () => {
    const thought = 'Weigh what the user asked, then answer briefly.';
    const { client } = vertex([
      { name: 'plain', steps: [{ respond: { text: 'Hello.' } }] },
      { name: 'think', steps: [{ respond: { reasoning: thought, text: 'Hello.' } }, { respond: { reasoning: thought, text: 'Hello.' } }] },
    ]);
    const params = { model: MODEL, max_tokens: 4096, messages: [user] };
    const base = await client.messages.create(params);
    const off = await client.messages.stream(params).finalMessage();
    expect(off.content.map((b) => b.type)).toEqual(['text']);
    expect(off.usage.output_tokens).toBe(base.usage.output_tokens);
    const on = await client.messages.create({ ...params, thinking: { type: 'adaptive' } });
    expect(on.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(on.usage.output_tokens).toBe(base.usage.output_tokens + on.usage.output_tokens_details!.thinking_tokens);
  });

  it('answers messages.parse() with the scripted object', async () => {
    const { client } = vertex([{ name: 'p', steps: [{ respond: { json: { city: 'Paris', warm: true } } }] }]);
    const parsed = await client.messages.parse({ model: MODEL, max_tokens: 256, messages: [user], output_config: { format: zodOutputFormat(z.object({ city: z.string(), warm: z.boolean() })) } });
    expect(parsed.parsed_output).toEqual({ city: 'Paris', warm: true });
  });
});
