import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import * as z from 'zod/v4';
import { describeStructuredConformance, type SdkReasoning } from '../testing/conformance-structured.ts';

const client = (base: string | undefined) => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0, ...(base ? { baseURL: base } : {}) });
// WEATHER_SCHEMA as users write it for messages.parse().
const format = zodOutputFormat(z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) }));

/** What a Messages answer says, as the conformance cases compare it: text, thinking, the thinking-token count. */
function reasoningOf(message: Anthropic.Message): SdkReasoning {
  const thinking = message.content.filter((b) => b.type === 'thinking').map((b) => b.thinking);
  return {
    text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    reasoning: thinking.length > 0 ? thinking.join('') : null,
    reasoningTokens: message.usage.output_tokens_details?.thinking_tokens ?? null,
  };
}

describeStructuredConformance({
  id: 'anthropic',
  reasoningModel: 'claude-sonnet-4-6',
  // Anthropic's refusal is a stop reason (`refusal`) with its explanation in stop_details.
  refusals: true,
  async structured(base, prompt, stream) {
    const body = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user' as const, content: prompt }], output_config: { format } };
    const message = stream ? await client(base).messages.stream(body).finalMessage() : await client(base).messages.parse(body);
    const refusal = message.stop_reason === 'refusal' ? (message.stop_details?.explanation ?? '') : null;
    return { value: message.parsed_output, refusal };
  },
  async reasoning(base, model, prompt, stream) {
    const body = { model, max_tokens: 4096, thinking: { type: 'adaptive' as const }, messages: [{ role: 'user' as const, content: prompt }] };
    return reasoningOf(stream ? await client(base).messages.stream(body).finalMessage() : await client(base).messages.create(body));
  },
});
