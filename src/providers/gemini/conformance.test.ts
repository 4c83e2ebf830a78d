import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { geminiAdapter } from './index.ts';
import { describeConformance, type SdkAnswer } from '../testing/conformance.ts';
import { googleErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) => new GoogleGenAI({ apiKey: 'g-test', httpOptions: base ? { baseUrl: base } : {} });
const tools = [{ functionDeclarations: ['get_weather', 'get_time'].map((name) => ({ name })) }];

function merge(chunks: GenerateContentResponse[]): SdkAnswer {
  const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
  const last = chunks.at(-1);
  const meta = last?.usageMetadata;
  return {
    text: parts.map((p) => p.text ?? '').join(''),
    toolCalls: parts.flatMap((p) => (p.functionCall ? [{ name: p.functionCall.name ?? '', arguments: p.functionCall.args }] : [])),
    finishReason: last?.candidates?.[0]?.finishReason ?? null,
    usage: meta ? { inputTokens: meta.promptTokenCount ?? 0, outputTokens: meta.candidatesTokenCount ?? 0 } : null,
  };
}

async function collect(stream: AsyncIterable<GenerateContentResponse>): Promise<SdkAnswer> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return merge(chunks);
}

describeConformance({
  id: 'gemini',
  adapter: geminiAdapter,
  origin: 'https://generativelanguage.googleapis.com',
  request: (model, prompt) => ({ path: `/v1beta/models/${model}:generateContent`, headers: { 'x-goog-api-key': 'g-test' }, body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] } }),
  authHeaders: ['x-goog-api-key'],
  authMessage: /unregistered callers/,
  authStatus: 403,
  badBody: { contents: 'hi' },
  readError: googleErrorReader,
  finish: { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP' },
  noMatch404: true,
  sdk: {
    text: async (base, model, prompt) => merge([await client(base).models.generateContent({ model, contents: prompt })]),
    stream: async (base, model, prompt) => collect(await client(base).models.generateContentStream({ model, contents: prompt })),
    tools: async (base, model, prompt, stream) =>
      stream
        ? collect(await client(base).models.generateContentStream({ model, contents: prompt, config: { tools } }))
        : merge([await client(base).models.generateContent({ model, contents: prompt, config: { tools } })]),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).models.generateContent({ model, contents: prompt }).catch((e: unknown) => e);
      if (!(err instanceof ApiError)) throw new Error('expected an ApiError');
      return err.status;
    },
  },
});
