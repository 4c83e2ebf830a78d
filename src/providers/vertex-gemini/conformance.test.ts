import { ApiError, GoogleGenAI } from '@google/genai';
import { vertexGeminiAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { collectGeminiStream, geminiSdkAnswer, googleErrorReader } from '../testing/kits.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

// A project and location (the regional host); a token client, so no Google credentials are looked up.
const client = (base: string | undefined) =>
  new GoogleGenAI({
    vertexai: true,
    project: 'ghost-project',
    location: 'us-central1',
    googleAuthOptions: { authClient: staticTokenClient() },
    httpOptions: base ? { baseUrl: base } : {},
  });
const tools = [{ functionDeclarations: ['get_weather', 'get_time'].map((name) => ({ name })) }];


describeConformance({
  id: 'vertex-gemini',
  adapter: vertexGeminiAdapter,
  origin: 'https://us-central1-aiplatform.googleapis.com',
  request: (model, prompt) => ({
    path: `/v1beta1/projects/ghost-project/locations/us-central1/publishers/google/models/${model}:generateContent`,
    headers: { authorization: 'Bearer ya29.test', 'x-goog-api-client': 'google-genai-sdk/1.30.0 gl-node/v24.0.0' },
    body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
  }),
  authHeaders: ['authorization'],
  authStatus: 401,
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
      if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
      return err.status;
    },
  },
});
