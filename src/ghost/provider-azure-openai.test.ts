// The ghost over Azure OpenAI: the AzureOpenAI client on the resource's host, answered through MSW.
import { describe, expect, it } from 'vitest';
import { stdioFixture } from '../../fixtures/servers/launch.ts';
import { scenario } from '../scenario/builder.ts';
import { azureOpenAI } from '../scenario/builder-helpers.ts';
import { useMockLLM } from '../vitest/use-mock-llm.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { AzureOpenAIProvider } from './provider-azure-openai.ts';

describe('AzureOpenAIProvider', () => {
  it('runs a tool chain on an Azure deployment, sending the key as api-key', async () => {
    const mock = useMockLLM(
      scenario('azure-chain')
        .expect(azureOpenAI({ model: 'my-gpt' })).then().respondWithToolCalls([{ id: 'a1', name: 'db_describe_table', arguments: { table: 'products' } }])
        .expect(azureOpenAI()).withToolResults('db_describe_table').then().respondWithText('products has 3 columns.'),
    );
    const llm = new AzureOpenAIProvider({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'azure-key', apiVersion: '2024-10-21', deployment: 'my-gpt' });
    const result = await mcpGhost({ provider: 'openai', serverConfig: { mcpServers: { db: stdioFixture('sqlite') } }, userPrompt: 'Describe products.' }, { llm });
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
});
