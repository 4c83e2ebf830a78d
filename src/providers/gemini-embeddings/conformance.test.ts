import { geminiEmbeddingsAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { googleErrorReader } from '../testing/kits.ts';

describeConformance({
  id: 'embeddings',
  adapter: geminiEmbeddingsAdapter,
  origin: 'https://generativelanguage.googleapis.com',
  request: (model, prompt) => ({ path: `/v1beta/models/${model}:embedContent`, headers: { 'x-goog-api-key': 'g-test' }, body: { content: { parts: [{ text: prompt }] } } }),
  authHeaders: ['x-goog-api-key'],
  authMessage: /unregistered callers/,
  authStatus: 403,
  badBody: { content: 'hi' },
  readError: googleErrorReader,
  // Embeddings answer default vectors when no step matches.
  noMatch404: false,
});
