import { ApiError, GoogleGenAI } from '@google/genai';
import { geminiAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { collectGeminiStream, geminiSdkAnswer, googleErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) => new GoogleGenAI({ apiKey: 'g-test', httpOptions: base ? { baseUrl: base } : {} });
const tools = [{ functionDeclarations: ['get_weather', 'get_time'].map((name) => ({ name })) }];


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
    text: async (base, model, prompt) => geminiSdkAnswer([await client(base).models.generateContent({ model, contents: prompt })]),
    stream: async (base, model, prompt) => collectGeminiStream(await client(base).models.generateContentStream({ model, contents: prompt })),
    tools: async (base, model, prompt, stream) =>
      stream
        ? collectGeminiStream(await client(base).models.generateContentStream({ model, contents: prompt, config: { tools } }))
        : geminiSdkAnswer([await client(base).models.generateContent({ model, contents: prompt, config: { tools } })]),
    errorStatus: async (base, model, prompt) => {
      const err = await client(base).models.generateContent({ model, contents: prompt }).catch((e: unknown) => e);
      if (!(err instanceof ApiError)) throw new Error('expected an ApiError');
      return err.status;
    },
  },
});
