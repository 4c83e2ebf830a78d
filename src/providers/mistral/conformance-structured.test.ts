import { Mistral } from '@mistralai/mistralai';
import type { ContentChunk } from '@mistralai/mistralai/models/components';
import { describeStructuredConformance, WEATHER_SCHEMA, WEATHER_SCHEMA_NAME } from '../testing/conformance-structured.ts';

const client = (base: string | undefined) => new Mistral({ apiKey: 'mistral-test', retryConfig: { strategy: 'none' }, ...(base ? { serverURL: base } : {}) });
const responseFormat = { type: 'json_schema' as const, jsonSchema: { name: WEATHER_SCHEMA_NAME, schemaDefinition: { ...WEATHER_SCHEMA }, strict: true } };

/** The answer text and thinking of message contents (a string, or Magistral's chunk list). */
function split(contents: Array<string | ContentChunk[] | null | undefined>): { text: string; thinking: string | null } {
  let text = '';
  let thinking = '';
  for (const content of contents) {
    if (typeof content === 'string') text += content;
    else
      for (const chunk of content ?? []) {
        if (chunk.type === 'text') text += chunk.text;
        if (chunk.type === 'thinking') for (const t of chunk.thinking) if (t.type === 'text') thinking += t.text;
      }
  }
  return { text, thinking: thinking || null };
}

async function contents(base: string | undefined, request: Parameters<Mistral['chat']['complete']>[0], stream: boolean) {
  if (!stream) return [(await client(base).chat.complete(request)).choices[0].message?.content];
  const out = [];
  for await (const event of await client(base).chat.stream(request)) out.push(event.data.choices[0]?.delta.content);
  return out;
}

describeStructuredConformance({
  id: 'mistral',
  reasoningModel: 'magistral-medium-latest',
  refusals: false,
  // completion_tokens counts thinking and answer together; Mistral reports no reasoning count apart.
  reasoningTokens: false,
  async structured(base, prompt, stream) {
    const { text } = split(await contents(base, { model: 'mistral-large-latest', messages: [{ role: 'user', content: prompt }], responseFormat }, stream));
    return { value: JSON.parse(text), refusal: null };
  },
  async reasoning(base, model, prompt, stream) {
    const { text, thinking } = split(await contents(base, { model, messages: [{ role: 'user', content: prompt }] }, stream));
    return { text, reasoning: thinking, reasoningTokens: null };
  },
});
