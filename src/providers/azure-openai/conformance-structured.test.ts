import { AzureOpenAI } from 'openai';
import { describeStructuredConformance } from '../testing/conformance-structured.ts';
import { openAIChatStructured } from '../testing/kits.ts';

const client = (base: string | undefined) =>
  new AzureOpenAI({ endpoint: base ?? 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: '2025-04-01-preview', maxRetries: 0 });

// Structured answers through a Chat deployment, reasoning through Azure's Responses route.
describeStructuredConformance({
  id: 'azure-openai',
  reasoningModel: 'o4-mini',
  refusals: true,
  structured: openAIChatStructured(client),
  async reasoning(base, model, prompt, stream) {
    const body = { model, input: prompt, reasoning: { summary: 'auto' as const } };
    const response = stream ? await client(base).responses.stream(body).finalResponse() : await client(base).responses.create(body);
    const summary = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : []));
    return { text: response.output_text, reasoning: summary.length ? summary.join('\n\n') : null, reasoningTokens: response.usage?.output_tokens_details.reasoning_tokens ?? null };
  },
});
