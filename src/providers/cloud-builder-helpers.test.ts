import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { AzureOpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { anyProvider, azureOpenAI, openai, scenario, vertexAnthropic, vertexGemini } from '../scenario/builder.ts';
import { ScenarioSchema } from '../scenario/schema.ts';
import { createMockLLM } from '../transports/mock-llm.ts';
import { staticTokenClient } from './vertex-shared/test-auth.ts';

describe('builder helpers for the cloud providers', () => {
  it('build match.provider values the schema accepts', () => {
    const built = scenario('clouds')
      .expect(azureOpenAI())
      .then()
      .respondWithText('a')
      .expect(vertexGemini())
      .then()
      .respondWithText('g')
      .expect(vertexAnthropic({ model: /^claude/ }))
      .then()
      .respondWithText('c')
      .build();
    expect(built.steps.map((s) => s.match?.provider)).toEqual(['azure-openai', 'vertex-gemini', 'vertex-anthropic']);
    expect(ScenarioSchema.safeParse(built).success).toBe(true);
  });

  it('tell Azure from OpenAI and Claude on Vertex from Anthropic; anyProvider covers them', async () => {
    const mock = createMockLLM({
      scenarios: [
        scenario('openai-only').expect(openai()).then().respondWithText('openai').build(),
        scenario('azure').expect(azureOpenAI()).then().respondWithText('azure').build(),
        scenario('claude-on-vertex').expect(vertexAnthropic()).then().respondWithText('vertex').build(),
        scenario('rest').expect(anyProvider()).then().respondWithText('any').build(),
      ],
    });
    const azure = new AzureOpenAI({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'k', apiVersion: '2024-10-21', maxRetries: 0, fetch: (u, i) => mock.handle(new Request(u, i)) });
    const claude = new AnthropicVertex({ region: 'us-east5', projectId: 'p', authClient: staticTokenClient(), maxRetries: 0, fetch: (u, i) => mock.handle(new Request(u, i)) });
    const ask = () => azure.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).then((r) => r.choices[0].message.content);
    expect(await ask()).toBe('azure');
    const said = await claude.messages.create({ model: 'claude-sonnet-4', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    expect(said.content[0]).toMatchObject({ text: 'vertex' });
    expect(await ask()).toBe('any');
  });
});
