import { GoogleGenAI } from '@google/genai';
import { vertexGeminiAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { geminiSdkKit, googleErrorReader } from '../testing/kits.ts';
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
  streamError: { typeFor503: 'UNAVAILABLE', given: { type: 'RESOURCE_EXHAUSTED', reported: 'RESOURCE_EXHAUSTED' }, status: true, message: true },
  sdk: geminiSdkKit(client),
  toolCallId: /^[a-z0-9]{8}$/,
  // `responseId`: an encoded event id, 22 of URL-safe base64 (`UxQ6aM_sKbjFnvgPocrJaA`).
  responseId: /^[A-Za-z0-9_-]{22}$/,
});
