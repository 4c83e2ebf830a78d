import type Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import * as z from 'zod/v4';
import { describeStructuredConformance } from '../testing/conformance-structured.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

const client = (base: string | undefined) =>
  new AnthropicVertex({ region: 'us-east5', projectId: 'ghost-project', authClient: staticTokenClient(), maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });
const format = zodOutputFormat(z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) }));
const MODEL = 'claude-sonnet-4-6@20260101';

describeStructuredConformance({
  id: 'vertex-anthropic',
  reasoningModel: MODEL,
  refusals: true,
  async structured(base, prompt, stream) {
    const body = { model: MODEL, max_tokens: 1024, messages: [{ role: 'user' as const, content: prompt }], output_config: { format } };
    const message = stream ? await client(base).messages.stream(body).finalMessage() : await client(base).messages.parse(body);
    return { value: message.parsed_output, refusal: message.stop_reason === 'refusal' ? (message.stop_details?.explanation ?? '') : null };
  },
  async reasoning(base, model, prompt, stream) {
    const body = { model, max_tokens: 4096, thinking: { type: 'adaptive' as const }, messages: [{ role: 'user' as const, content: prompt }] };
    const message: Anthropic.Message = stream ? await client(base).messages.stream(body).finalMessage() : await client(base).messages.create(body);
    const thinking = message.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : []));
    return {
      text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
      reasoning: thinking.length > 0 ? thinking.join('') : null,
      reasoningTokens: message.usage.output_tokens_details?.thinking_tokens ?? null,
    };
  },
});
