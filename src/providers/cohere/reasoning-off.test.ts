import { CohereClientV2 } from 'cohere-ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockLLM, type MockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';
import { scenario } from '../../scenario/builder.ts';
import { capturingFetch } from '../testing/capture.ts';

// A step's scripted reasoning on a Cohere request where the model does not reason (`thinking:
// { type: 'disabled' }`, or a model that is not a reasoning one left without `thinking`): output
// tokens without it. Thinking enabled, or a reasoning model by default, counts it. Through
// cohere-ai, its own fetch answered in-process and over the real port, streamed and not.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';
const messages = [{ role: 'user' as const, content: 'hi' }];
let server: MockLLMServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(['in-process', 'port'] as const)('Cohere: reasoning tokens on a request that does not reason (%s)', (transport) => {
  async function setup(): Promise<{ mock: MockLLM; client: CohereClientV2 }> {
    const mock = createMockLLM();
    if (transport === 'port') {
      server = await startMockLLMServer({ mock });
      return { mock, client: new CohereClientV2({ token: 'co-test', maxRetries: 0, environment: server.url }) };
    }
    return { mock, client: new CohereClientV2({ token: 'co-test', maxRetries: 0, fetch: capturingFetch(mock.handle).fetch }) };
  }

  it.each([false, true])('counts none with thinking disabled or on a model that does not reason; counts it with thinking on (stream: %s)', async (stream) => {
    const { mock, client } = await setup();
    const outputTokens = async (step: ReturnType<typeof scenario>, model: string, thinking?: { type: 'enabled' | 'disabled' }) => {
      mock.reset();
      mock.use(step);
      const request = { model, messages, ...(thinking ? { thinking } : {}) };
      if (!stream) return (await client.chat(request)).usage!.tokens!.outputTokens!;
      let tokens: number | undefined;
      for await (const event of await client.chatStream(request)) if (event.type === 'message-end') tokens = event.delta?.usage?.tokens?.outputTokens;
      return tokens!;
    };
    const plain = () => scenario('plain').respondWithText('Hello there!');
    const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');
    const base = await outputTokens(plain(), 'command-a-03-2025');
    expect(await outputTokens(thinking(), 'command-a-reasoning-08-2025', { type: 'disabled' })).toBe(base);
    expect(await outputTokens(thinking(), 'command-a-03-2025')).toBe(base);
    expect(await outputTokens(thinking(), 'command-a-reasoning-08-2025')).toBeGreaterThan(base);
    expect(await outputTokens(thinking(), 'command-a-03-2025', { type: 'enabled' })).toBeGreaterThan(base);
  });
});
