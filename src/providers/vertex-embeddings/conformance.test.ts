import { vertexEmbeddingsAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { googleErrorReader } from '../testing/kits.ts';

describeConformance({
  id: 'embeddings',
  adapter: vertexEmbeddingsAdapter,
  origin: 'https://us-central1-aiplatform.googleapis.com',
  request: (model, prompt) => ({
    path: `/v1beta1/projects/ghost-project/locations/us-central1/publishers/google/models/${model}:predict`,
    headers: { authorization: 'Bearer ya29.test', 'x-goog-api-client': 'google-genai-sdk/1.30.0 gl-node/v24.0.0' },
    body: { instances: [{ content: prompt }] },
  }),
  authHeaders: ['authorization'],
  authStatus: 401,
  badBody: { instances: 'hi' },
  readError: googleErrorReader,
  // Embeddings answer default vectors when no step matches.
  noMatch404: false,
});
