import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { expect } from 'vitest';
import { vertexAnthropicAdapter } from './index.ts';
import { describeConformance } from '../testing/conformance.ts';
import { anthropicErrorReader, anthropicSdkKit, googleErrorReader } from '../testing/kits.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

// A token client, so the SDK looks up no Google credentials; over MSW it calls us-east5-aiplatform.googleapis.com.
const client = (base: string | undefined) =>
  new AnthropicVertex({ region: 'us-east5', projectId: 'ghost-project', authClient: staticTokenClient(), maxRetries: 0, ...(base ? { baseURL: `${base}/v1` } : {}) });


const params = (model: string, prompt: string) => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: prompt }] });

describeConformance({
  id: 'vertex-anthropic',
  adapter: vertexAnthropicAdapter,
  origin: 'https://us-east5-aiplatform.googleapis.com',
  // What the SDK sends: the model in the path, the version in the body.
  request: (model, prompt) => {
    const { model: _model, ...body } = params(model, prompt);
    return {
      path: `/v1/projects/ghost-project/locations/us-east5/publishers/anthropic/models/${model}:rawPredict`,
      headers: { authorization: 'Bearer ya29.test', 'user-agent': 'AnthropicVertex/JS 1.12.0' },
      body: { ...body, anthropic_version: 'vertex-2023-10-16' },
    };
  },
  authHeaders: ['authorization'],
  authStatus: 401,
  badBody: { anthropic_version: 'vertex-2023-10-16', max_tokens: 64, messages: 'hi' },
  readError(status, body) {
    // Vertex's front end (credentials, routes) answers as Google; Claude behind it as Anthropic.
    if (body?.type === 'error') return anthropicErrorReader(status, body);
    expect(status === 401 || status === 404).toBe(true);
    return googleErrorReader(status, body);
  },
  finish: { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' },
  noMatch404: true,
  streamError: { typeFor503: 'api_error', given: { type: 'overloaded_error', reported: 'overloaded_error' }, status: false, message: true },
  sdk: anthropicSdkKit(client),
  // Claude on Vertex: `toolu_vrtx_01SSt2KZd8fXU4dL7usyGrzJ`.
  toolCallId: /^toolu_vrtx_01[A-Za-z0-9]{22}$/,
  responseId: /^msg_vrtx_01[A-Za-z0-9]{22}$/,
});
