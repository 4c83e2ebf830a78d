import { openAIEmbeddingsAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { openAIErrorReader } from '../testing/kits.ts';

describeConformance({
  id: 'embeddings',
  adapter: openAIEmbeddingsAdapter,
  origin: 'https://api.openai.com',
  request: (model, prompt) => ({ path: '/v1/embeddings', headers: { authorization: 'Bearer sk-test' }, body: { model, input: prompt } }),
  authHeaders: ['authorization'],
  authMessage: /You didn't provide an API key/,
  authStatus: 401,
  badBody: { model: 'm-1', input: { text: 'hi' } },
  readError: openAIErrorReader,
  // Embeddings answer default vectors when no step matches.
  noMatch404: false,
});
