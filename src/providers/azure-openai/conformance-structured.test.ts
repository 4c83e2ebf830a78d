import { AzureOpenAI } from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { describeStructuredConformance, WEATHER_SCHEMA_NAME } from '../testing/conformance-structured.ts';

const client = (base: string | undefined) =>
  new AzureOpenAI({ endpoint: base ?? 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: '2025-04-01-preview', maxRetries: 0 });
const format = zodResponseFormat(z.object({ city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy', 'rain']) }), WEATHER_SCHEMA_NAME);

// Structured answers through a Chat deployment, reasoning through Azure's Responses route.
describeStructuredConformance({
  id: 'azure-openai',
  reasoningModel: 'o4-mini',
  refusals: true,
  async structured(base, prompt, stream) {
    const body = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: prompt }], response_format: format };
    const completion = stream ? await client(base).chat.completions.stream(body).finalChatCompletion() : await client(base).chat.completions.parse(body);
    const message = completion.choices[0].message;
    return { value: message.parsed, refusal: message.refusal };
  },
  async reasoning(base, model, prompt, stream) {
    const body = { model, input: prompt, reasoning: { summary: 'auto' as const } };
    const response = stream ? await client(base).responses.stream(body).finalResponse() : await client(base).responses.create(body);
    const summary = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : []));
    return { text: response.output_text, reasoning: summary.length ? summary.join('\n\n') : null, reasoningTokens: response.usage?.output_tokens_details.reasoning_tokens ?? null };
  },
});
