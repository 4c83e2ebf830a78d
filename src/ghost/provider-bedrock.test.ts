// The ghost over Bedrock Converse in-process: the unmodified BedrockRuntimeClient over an HTTP/1.1 handler,
// answered by the mock LLM through MSW (the real port's tests are in provider-bedrock.port.test.ts).
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { describe, expect, it } from 'vitest';
import { useMockLLM } from '../vitest/use-mock-llm.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { BEDROCK_GHOST, BEDROCK_MODEL, bedrockChain } from './testing/bedrock.ts';

describe("provider 'bedrock'", () => {
  it('runs a tool chain through MSW on the regional host, signed with SigV4', async () => {
    const mock = useMockLLM(bedrockChain('bedrock-msw'));
    const result = await mcpGhost({ ...BEDROCK_GHOST, requestHandler: new NodeHttpHandler(), headers: { 'x-test-run': 'ghost-1' } });
    expect(result.errors).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.toolChain[0]).toMatchObject({ toolName: 'db.describe_table', providerToolName: 'db_describe_table', success: true });
    expect((result.toolChain[0].result as unknown[]).length).toBe(3);
    expect(result.conversationHistory.at(-1)).toMatchObject({ role: 'assistant', content: 'products has 3 columns.' });
    expect(result.executionMetadata.tokenUsage).toEqual({ promptTokens: 140, completionTokens: 18, totalTokens: 158 });
    mock.assertAllConsumed();
    const [first, second] = mock.requests.map((r) => r.request!);
    expect(first.headers.host).toBe('bedrock-runtime.us-west-2.amazonaws.com');
    expect(first.path).toBe(`/model/${encodeURIComponent(BEDROCK_MODEL)}/converse`);
    expect(first.headers.authorization).toBe('[REDACTED]');
    expect(first.headers['x-test-run']).toBe('ghost-1');
    // Tools went out as toolSpecs; the answer went back as a toolResult on the toolUse's id.
    const raw = first.raw as { toolConfig: { tools: Array<{ toolSpec: { name: string; inputSchema: { json: { type: string } } } }> } };
    expect(raw.toolConfig.tools.map((t) => t.toolSpec.name)).toContain('db_describe_table');
    expect(raw.toolConfig.tools.every((t) => /^[a-zA-Z0-9_-]{1,64}$/.test(t.toolSpec.name) && t.toolSpec.inputSchema.json.type === 'object')).toBe(true);
    const results = (second.raw as { messages: Array<{ content: Array<{ toolResult?: { toolUseId: string; status: string } }> }> }).messages
      .flatMap((m) => m.content)
      .flatMap((b) => (b.toolResult ? [b.toolResult] : []));
    expect(results).toMatchObject([{ toolUseId: 'b1', status: 'success' }]);
  });
});
