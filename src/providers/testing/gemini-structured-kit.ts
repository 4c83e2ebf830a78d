/**
 * Test-only: the structured-output and reasoning kit of `@google/genai`, shared by Gemini and Gemini
 * on Vertex (conformance-structured.ts): JSON mode with `responseJsonSchema`, thought summaries
 * asked with `thinkingConfig.includeThoughts`, read back as the SDK hands them over.
 */
import type { GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { ProviderId } from '../../scenario/canonical.ts';
import { WEATHER_SCHEMA, type StructuredConformanceKit } from './conformance-structured.ts';

/**
 * Every item of an async iterable (a stream's chunks), in order.
 * @example
 *   const chunks = await drain(await ai.models.generateContentStream(params));
 */
export async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The text, thoughts and thought tokens of a response or of a stream's chunks. */
async function collect(run: Promise<GenerateContentResponse> | Promise<AsyncGenerator<GenerateContentResponse>>, stream: boolean) {
  const chunks: GenerateContentResponse[] = stream ? await drain(await (run as Promise<AsyncGenerator<GenerateContentResponse>>)) : [await (run as Promise<GenerateContentResponse>)];
  const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
  const thoughts = parts.filter((p) => p.thought && typeof p.text === 'string').map((p) => p.text);
  return {
    text: chunks.map((c) => c.text ?? '').join(''),
    reasoning: thoughts.length ? thoughts.join('') : null,
    reasoningTokens: chunks.at(-1)?.usageMetadata?.thoughtsTokenCount ?? null,
  };
}

/**
 * The kit for one way of making the SDK's client.
 * @example
 *   describeStructuredConformance(geminiStructuredKit('gemini', 'gemini-2.5-pro', (base) => new GoogleGenAI({ apiKey: 'k' })));
 */
export function geminiStructuredKit(id: ProviderId, reasoningModel: string, client: (base: string | undefined) => GoogleGenAI): StructuredConformanceKit {
  return {
    id,
    reasoningModel,
    refusals: false,
    async structured(base, prompt, stream) {
      const params = { model: 'gemini-2.5-flash', contents: prompt, config: { responseMimeType: 'application/json', responseJsonSchema: WEATHER_SCHEMA } };
      const ai = client(base);
      const { text } = await collect(stream ? ai.models.generateContentStream(params) : ai.models.generateContent(params), stream);
      return { value: JSON.parse(text), refusal: null };
    },
    async reasoning(base, model, prompt, stream) {
      const params = { model, contents: prompt, config: { thinkingConfig: { includeThoughts: true } } };
      const ai = client(base);
      return collect(stream ? ai.models.generateContentStream(params) : ai.models.generateContent(params), stream);
    },
  };
}
