import { CohereClientV2 } from 'cohere-ai';
import type { Cohere } from 'cohere-ai';
import { describeStructuredConformance, WEATHER_SCHEMA } from '../testing/conformance-structured.ts';

const client = (base: string | undefined) => new CohereClientV2({ token: 'co-test', maxRetries: 0, ...(base ? { baseUrl: base } : {}) });

/** The answer's text and thinking, from the response's content items or the stream's content deltas. */
async function collect(base: string | undefined, request: Cohere.V2ChatRequest, stream: boolean) {
  let text = '';
  let thinking = '';
  if (stream) {
    for await (const event of await client(base).chatStream(request)) {
      if (event.type !== 'content-delta') continue;
      text += event.delta?.message?.content?.text ?? '';
      thinking += event.delta?.message?.content?.thinking ?? '';
    }
  } else {
    for (const item of (await client(base).chat(request)).message.content ?? []) {
      if (item.type === 'text') text += item.text;
      if (item.type === 'thinking') thinking += item.thinking;
    }
  }
  return { text, thinking: thinking || null };
}

describeStructuredConformance({
  id: 'cohere',
  reasoningModel: 'command-a-reasoning-08-2025',
  refusals: false,
  // output_tokens counts thinking and answer together; Cohere reports no reasoning count apart.
  reasoningTokens: false,
  async structured(base, prompt, stream) {
    const request: Cohere.V2ChatRequest = { model: 'command-a-03-2025', messages: [{ role: 'user', content: prompt }], responseFormat: { type: 'json_object', jsonSchema: { ...WEATHER_SCHEMA } } };
    return { value: JSON.parse((await collect(base, request, stream)).text), refusal: null };
  },
  async reasoning(base, model, prompt, stream) {
    const { text, thinking } = await collect(base, { model, messages: [{ role: 'user', content: prompt }], thinking: { type: 'enabled' } }, stream);
    return { text, reasoning: thinking, reasoningTokens: null };
  },
});
