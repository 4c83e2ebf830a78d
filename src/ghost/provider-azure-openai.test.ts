// The ghost over Azure OpenAI: the AzureOpenAI client on the resource's host, answered through MSW.
import { describe, expect, it } from 'vitest';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { scenario } from '../scenario/builder.ts';
import { azureOpenAI } from '../scenario/builder-helpers.ts';
import { useMockLLM } from '../vitest/use-mock-llm.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { AzureOpenAIProvider } from './provider-azure-openai.ts';
import { ghostOptionsFor, withMockLLM } from './testing/harness.ts';

const chain = (name: string) =>
  scenario(name)
    .expect(azureOpenAI({ model: 'my-gpt' })).then().respondWithToolCalls([{ id: 'a1', name: 'db_describe_table', arguments: { table: 'products' } }]).withUsage({ inputTokens: 40, outputTokens: 9 })
    .expect(azureOpenAI()).withToolResults('db_describe_table').then().respondWithText('products has 3 columns.').withUsage({ inputTokens: 70, outputTokens: 6 });

describe('AzureOpenAIProvider', () => {
  it('runs a tool chain on an Azure deployment, sending the key as api-key', async () => {
    const mock = useMockLLM(chain('azure-chain'));
    const llm = new AzureOpenAIProvider({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: '2024-10-21', deployment: 'my-gpt' });
    const result = await mcpGhost({ provider: 'azure-openai', serverConfig: { mcpServers: { db: stdioFixture('sqlite') } }, userPrompt: 'Describe products.' }, { llm });
    expect(result.success).toBe(true);
    expect(result.toolChain[0]).toMatchObject({ success: true });
    expect(result.conversationHistory.at(-1)).toMatchObject({ role: 'assistant', content: 'products has 3 columns.' });
    mock.assertAllConsumed();
    const first = mock.requests[0].request!;
    expect(first.path).toBe('/openai/deployments/my-gpt/chat/completions');
    // Sent as api-key (the journal keeps credentials redacted, as goldens do).
    expect(first.headers['api-key']).toBe('[REDACTED]');
    expect(first.headers.authorization).toBeUndefined();
  });

  it("is chosen by name: provider 'azure-openai' with endpoint, apiVersion and deployment (MSW)", async () => {
    const mock = useMockLLM(chain('azure-by-name'));
    const urls: string[] = [];
    const seen: typeof fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    const result = await mcpGhost({
      fetch: seen,
      provider: 'azure-openai',
      apiKey: 'azure-key',
      endpoint: 'https://contoso.openai.azure.com',
      apiVersion: '2024-10-21',
      deployment: 'my-gpt',
      serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
      userPrompt: 'Describe products.',
    });
    expect(result.success).toBe(true);
    expect((result.toolChain[0].result as unknown[]).length).toBe(3);
    expect(result.executionMetadata.tokenUsage).toEqual({ promptTokens: 110, completionTokens: 15, totalTokens: 125 });
    mock.assertAllConsumed();
    const first = mock.requests[0].request!;
    expect(first.headers.host).toBe('contoso.openai.azure.com');
    expect(first.path).toBe('/openai/deployments/my-gpt/chat/completions');
    expect(new URL(urls[0]).searchParams.get('api-version')).toBe('2024-10-21');
  });

  it('takes the mock server\'s port as its endpoint through baseURL', async () => {
    const { result, requests } = await withMockLLM([chain('azure-port')], async (server) => ({
      result: await mcpGhost({
        ...ghostOptionsFor('azure-openai', { url: server.url }, { serverConfig: { mcpServers: { db: stdioFixture('sqlite') } }, userPrompt: 'Describe products.' }),
        baseURL: server.url,
        apiVersion: '2024-10-21',
        deployment: 'my-gpt',
      }),
      requests: server.mock.requests,
    }));
    expect(result.success).toBe(true);
    expect(result.toolChain[0]).toMatchObject({ toolName: 'db.describe_table', success: true });
    expect(requests.map((r) => r.request!.path)).toEqual(['/openai/deployments/my-gpt/chat/completions', '/openai/deployments/my-gpt/chat/completions']);
  });
});
