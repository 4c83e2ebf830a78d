import { GoogleGenAI } from '@google/genai';
import { geminiAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { geminiSdkKit, googleErrorReader } from '../testing/kits.ts';

const client = (base: string | undefined) => new GoogleGenAI({ apiKey: 'g-test', httpOptions: base ? { baseUrl: base } : {} });

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
  // The error chunk's `code` is the ApiError's status; its `status` name leads the message.
  streamError: { typeFor503: 'UNAVAILABLE', given: { type: 'RESOURCE_EXHAUSTED', reported: 'RESOURCE_EXHAUSTED' }, status: true, message: true },
  sdk: geminiSdkKit(client),
  // As the API answers Gemini 3 models: `46ww9pp1`.
  toolCallId: /^[a-z0-9]{8}$/,
  // `responseId`: an encoded event id, 22 of URL-safe base64 (`UxQ6aM_sKbjFnvgPocrJaA`).
  responseId: /^[A-Za-z0-9_-]{22}$/,
});
