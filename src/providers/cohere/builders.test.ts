import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { CohereClientV2 } from 'cohere-ai';
import { afterEach, describe, expect, it } from 'vitest';
import { anyProvider, bedrock, cohere, scenario } from '../../scenario/builder.ts';
import { PROVIDER_IDS } from '../registry.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';

describe('builder helpers for Bedrock and Cohere', () => {
  let server: MockLLMServer | undefined;
  afterEach(async () => server?.close());

  const ask = async (url: string) => {
    const bedrockClient = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: url, requestHandler: new NodeHttpHandler(), maxAttempts: 1, credentials: { accessKeyId: 'AKID', secretAccessKey: 's' } });
    const cohereClient = new CohereClientV2({ token: 'k', baseUrl: url, maxRetries: 0 });
    const b = await bedrockClient.send(new ConverseCommand({ modelId: 'amazon.nova-pro-v1:0', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
    const c = await cohereClient.chat({ model: 'command-r', messages: [{ role: 'user', content: 'hi' }] });
    return [b.output?.message?.content?.[0].text, c.message.content?.[0].type === 'text' ? c.message.content[0].text : null];
  };

  it('bedrock() and cohere() each match only their provider', async () => {
    const steps = [
      scenario('b').expect(bedrock()).then().respondWithText('from bedrock').build(),
      scenario('c').expect(cohere()).then().respondWithText('from cohere').build(),
    ];
    server = await startMockLLMServer({ scenarios: steps });
    expect(await ask(server.url)).toEqual(['from bedrock', 'from cohere']);
  });

  it('anyProvider() answers both, and the schema knows their ids', async () => {
    expect(PROVIDER_IDS).toEqual(expect.arrayContaining(['bedrock', 'cohere']));
    const any = scenario('any').expect(anyProvider()).then().respondWithText('anyone').build();
    server = await startMockLLMServer({ scenarios: [{ ...any, steps: any.steps.map((s) => ({ ...s, consume: false })) }] });
    expect(await ask(server.url)).toEqual(['anyone', 'anyone']);
  });
});
