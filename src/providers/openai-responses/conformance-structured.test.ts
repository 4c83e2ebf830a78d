import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { describeStructuredConformance, WEATHER_SCHEMA_NAME } from '../testing/conformance-structured.ts';

const client = (base: string | undefined) => new OpenAI({ apiKey: 'sk-test', maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });
// WEATHER_SCHEMA as users write it for the SDK's parse helpers.
const format = zodTextFormat(z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) }), WEATHER_SCHEMA_NAME);

/** A refusal is a content part of the message. */
function refusalOf(response: OpenAI.Responses.Response): string | null {
  for (const item of response.output) if (item.type === 'message') for (const part of item.content) if (part.type === 'refusal') return part.refusal;
  return null;
}

describeStructuredConformance({
  id: 'openai-responses',
  reasoningModel: 'o4-mini',
  refusals: true,
  async structured(base, prompt, stream) {
    const body = { model: 'gpt-4.1', input: prompt, text: { format } };
    const response = stream ? await client(base).responses.stream(body).finalResponse() : await client(base).responses.parse(body);
    return { value: response.output_parsed, refusal: refusalOf(response) };
  },
  async reasoning(base, model, prompt, stream) {
    // The reasoning a client can read is its summary, asked for with `reasoning.summary`.
    const body = { model, input: prompt, reasoning: { effort: 'low' as const, summary: 'auto' as const } };
    const response = stream ? await client(base).responses.stream(body).finalResponse() : await client(base).responses.create(body);
    const summary = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : []));
    return { text: response.output_text, reasoning: summary.length ? summary.join('\n\n') : null, reasoningTokens: response.usage?.output_tokens_details.reasoning_tokens ?? null };
  },
});
