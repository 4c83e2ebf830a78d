import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { describe, expect, it } from 'vitest';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';
import { capturingFetch } from '../testing/capture.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

describe('Claude on Vertex AI through @anthropic-ai/vertex-sdk', () => {
  it('posts rawPredict with the model in the path and the version in the body, matched by the model', async () => {
    const mock = createMockLLM({ scenarios: [{ name: 't', steps: [{ match: { provider: 'vertex-anthropic', model: 'claude-sonnet-4@20250514' }, respond: { text: 'Claude on Vertex.' } }] }] });
    const { fetch, exchanges } = capturingFetch(mock.handle);
    const client = new AnthropicVertex({ region: 'us-east5', projectId: 'ghost-project', authClient: staticTokenClient(), fetch, maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-sonnet-4@20250514', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'Claude on Vertex.', citations: null }]);
    // Vertex's own id format, as real Claude-on-Vertex answers carry.
    expect(message.id).toMatch(/^msg_vrtx_[0-9a-zA-Z]+$/);
    expect(new URL(exchanges[0].url).pathname).toBe('/v1/projects/ghost-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict');
    const sent = JSON.parse(exchanges[0].requestBody);
    expect(sent).not.toHaveProperty('model');
    expect(typeof sent.anthropic_version).toBe('string');
    const counted = await client.messages.countTokens({ model: 'claude-sonnet-4@20250514', messages: [{ role: 'user', content: 'count these words' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(new URL(exchanges[1].url).pathname).toMatch(/\/models\/count-tokens:rawPredict$/);
  });

  it('streams with streamRawPredict on the real port, beside Gemini on the same host', async () => {
    const server = await startMockLLMServer({ scenarios: [{ name: 'any', steps: [{ respond: { text: 'streamed from vertex', stream: { chunkSize: 5 } }, consume: false }] }] });
    try {
      const client = new AnthropicVertex({ region: 'global', projectId: 'p', authClient: staticTokenClient(), baseURL: `${server.url}/v1`, maxRetries: 0 });
      const final = await client.messages.stream({ model: 'claude-opus-4', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text', text: 'streamed from vertex' });
      expect(final.id).toMatch(/^msg_vrtx_[0-9a-zA-Z]+$/);
      expect(server.mock.requests[0]).toMatchObject({ provider: 'vertex-anthropic', path: '/v1/projects/p/locations/global/publishers/anthropic/models/claude-opus-4:streamRawPredict' });
      const missing = await fetch(`${server.url}/v1/projects/p/locations/global/publishers/anthropic/models/claude-opus-4:rawPredict`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toMatchObject({ type: 'invalid_request_error', message: 'anthropic_version: Field required' });
    } finally {
      await server.close();
    }
  });
});
